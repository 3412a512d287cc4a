from lintgv.model import Applicability, Severity
from lintgv.rules._base import CommentRule, Invalid, RuleMeta, Valid


class UnusedSuppression(CommentRule):
    """A suppression comment names a code that nothing on its line reports.

    ## Why it matters
    Stale suppressions pile up as code moves: they hide the next real finding on that
    line and mislead readers about what the code does.

    ## Fix
    Safe: the unused codes are taken out of the comment; a comment that names nothing
    else goes as a whole (its line too, when it stands alone), while other words in the
    same comment (`# noqa: E501`) stay. A code whose rule is not selected in this run is
    left alone, since whether it is needed cannot be known. Removing a suppression
    changes no behaviour, which is why this fix is safe and runs on `lintgv fix` and on
    an editor's fix-all.
    """

    META = RuleMeta(
        code="GV902",
        name="unused-suppression",
        severity=Severity.WARNING,
        message="unused suppression; remove the code from the comment",
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
            path="example.py",
            fixed="import tvm\nx = tvm.ir.GlobalVar('f')  # lintgv: ignore[GV101]\n",
        ),
        # Other words in the comment stay.
        Invalid(
            "y = 2  # noqa: E501  lintgv: ignore[GV101]\n",
            path="example.py",
            fixed="y = 2  # noqa: E501\n",
        ),
        # A comment on a line of its own goes with its line.
        Invalid(
            "int a = 1;\n// lintgv: ignore[GV101]\nint b = 2;\n",
            path="example.cc",
            fixed="int a = 1;\nint b = 2;\n",
        ),
    ]
