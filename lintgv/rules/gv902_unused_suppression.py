from lintgv.model import Applicability, Edit, Fix, Message, Severity
from lintgv.rules._base import CommentRule, Invalid, MigrationPhase, RuleMeta, Valid
from lintgv.suppress import Suppression


class UnusedSuppression(CommentRule):
    """A suppression comment names a code that nothing on its line reports.

    ## Why it matters
    Stale suppressions pile up as code moves: they hide the next real finding on that
    line and mislead readers about what the code does.

    ## Fix
    Safe: the unused codes are taken out of the comment; a comment that names nothing
    else goes as a whole (its line too, when it stands alone), while other words in the
    same comment (`# noqa: E501`) stay. A code whose rule is not selected in this run is
    left alone, since whether it is needed cannot be known. The fix changes nothing but
    the comment, which is why it is safe and runs on `lintgv fix` and on an editor's
    fix-all: only real comments are suppressions (text in a string never is); a block
    comment between two tokens leaves a blank between them; a line is left empty rather
    than deleted after a line ending in a backslash (a continued comment or macro would
    take in the next line) and among a Python file's first two lines (where an encoding
    declaration would move in); and an encoding declaration or `#!` line is not edited.

    ## Known limits
    Deleting a comment's line moves the lines after it up: `__LINE__` and tracebacks
    change. In a file whose comments cannot be told for certain (an unterminated string
    or raw string), unused suppressions are reported with no fix.
    """

    META = RuleMeta(
        code="GV902",
        phase=MigrationPhase.SUPPRESSIONS,
        marks="unnecessary",
        name="unused-suppression",
        severity=Severity.WARNING,
        message=Message(
            "unused suppression",
            "remove the code from the comment",
        ),
        fix=Applicability.SAFE,
    )
    VALID = [
        Valid(
            "import tvm\nx = tvm.ir.GlobalVar('main')  # lintgv: ignore[GV101]\n", path="example.py"
        ),
    ]
    INVALID = [
        Invalid(
            "x = 1  # lintgv: ignore[GV101]\n",
            span=(1, 10, 1, 31),
            path="example.py",
            message="unused suppression: nothing here is reported as GV101; "
            "remove `GV101` from the comment",
            fixed="x = 1\n",
        ),
        Invalid(
            "int x = 1;  // lintgv: ignore[GV999]\n",
            span=(1, 16, 1, 37),
            path="example.cc",
            fixed="int x = 1;\n",
        ),
        # Only the unused code goes; the one still needed stays.
        Invalid(
            "import tvm\nx = tvm.ir.GlobalVar('f')  # lintgv: ignore[GV101, GV301]\n",
            span=(2, 30, 2, 58),
            path="example.py",
            fixed="import tvm\nx = tvm.ir.GlobalVar('f')  # lintgv: ignore[GV101]\n",
        ),
        # Other words in the comment stay.
        Invalid(
            "y = 2  # noqa: E501  lintgv: ignore[GV101]\n",
            span=(1, 22, 1, 43),
            path="example.py",
            fixed="y = 2  # noqa: E501\n",
        ),
        # A comment on a line of its own goes with its line.
        Invalid(
            "int a = 1;\n// lintgv: ignore[GV101]\nint b = 2;\n",
            span=(2, 4, 2, 25),
            path="example.cc",
            fixed="int a = 1;\nint b = 2;\n",
        ),
    ]

    @classmethod
    def judge(
        cls,
        suppression: Suppression,
        used: frozenset[str],
        ran: frozenset[str],
        known: frozenset[str],
    ) -> list[tuple[Message, Fix | None]]:
        """Report each code of the comment that silenced nothing, when that is known."""
        reasons: dict[str, str] = {}
        for code in suppression.codes:
            if code in used:
                continue
            if code not in known:
                reasons[code] = f"`{code}` is not a lintgv code"
            elif code in ran:
                reasons[code] = f"nothing here is reported as {code}"
            # else: that rule did not run, so whether it is needed is unknown
        if not reasons:
            return []
        # One fix for the whole comment, shared by its findings, so that fixing one code
        # never leaves the comment half edited.
        fix = _unused_fix(suppression, list(reasons))
        return [
            (Message(f"unused suppression: {why}", f"remove `{code}` from the comment"), fix)
            for code, why in reasons.items()
        ]


def _unused_fix(suppression: Suppression, unused: list[str]) -> Fix | None:
    """Return the safe fix that takes the `unused` codes out of `suppression`, or None
    where no edit of its comment is certain to change nothing else."""
    if suppression.removal is None:
        return None
    left = [code for code in suppression.codes if code not in unused]
    if left:
        new = f"lintgv: ignore[{', '.join(left)}]"
        edit = Edit(suppression.span, new, suppression.directive)
        title = f"Remove {', '.join(unused)} from the suppression"
    else:
        edit = suppression.removal
        title = "Remove the unused suppression"
    return Fix(title, Applicability.SAFE, (edit,))
