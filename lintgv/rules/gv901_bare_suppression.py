from lintgv.model import Fix, Message, Severity
from lintgv.rules._base import CommentRule, Invalid, MigrationPhase, RuleMeta, Valid
from lintgv.suppress import Suppression


class BareSuppression(CommentRule):
    """A suppression comment names no code.

    ## Why it matters
    A comment that silences every rule on a line also silences the findings nobody has
    looked at yet, including ones added later. lintgv therefore suppresses nothing with a
    bare `lintgv: ignore` and reports the comment instead.

    ## Fix
    Name the codes the comment is for: `# lintgv: ignore[GV101]` or
    `// lintgv: ignore[GV101, GV301]`. No automatic fix: only a person knows which
    findings were meant.
    """

    META = RuleMeta(
        code="GV901",
        phase=MigrationPhase.SUPPRESSIONS,
        name="bare-suppression",
        severity=Severity.WARNING,
        message=Message(
            "bare `lintgv: ignore` suppresses nothing",
            "name the codes",
        ),
    )
    VALID = [
        Valid(
            "import tvm\nx = tvm.ir.GlobalVar('main')  # lintgv: ignore[GV101]\n", path="example.py"
        ),
    ]
    INVALID = [
        Invalid("x = 1  # lintgv: ignore\n", span=(1, 10, 1, 24), path="example.py"),
        Invalid("int x = 1;  // lintgv: ignore\n", span=(1, 16, 1, 30), path="example.cc"),
    ]

    @classmethod
    def judge(
        cls,
        suppression: Suppression,
        used: frozenset[str],
        ran: frozenset[str],
        known: frozenset[str],
    ) -> list[tuple[Message, Fix | None]]:
        """Report a comment that names no code."""
        if suppression.codes:
            return []
        remedy = "name the codes, as in `lintgv: ignore[GV101]`"
        return [(Message(cls.META.message.problem, remedy), None)]
