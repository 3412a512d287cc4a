from lintgv.model import Severity
from lintgv.rules._base import CommentRule, Invalid, RuleMeta, Valid


class UnusedSuppression(CommentRule):
    """A suppression comment names a code that nothing on its line reports.

    ## Why it matters
    Stale suppressions pile up as code moves: they hide the next real finding on that
    line and mislead readers about what the code does.

    ## Fix
    Remove the code from the comment (or the whole comment when it names nothing else).
    A code whose rule is not selected in this run is left alone, since whether it is
    needed cannot be known. No automatic fix yet.
    """

    META = RuleMeta(
        code="GV902",
        name="unused-suppression",
        severity=Severity.WARNING,
        message="unused suppression; remove the code from the comment",
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
        ),
        Invalid("int x = 1;  // lintgv: ignore[GV999]\n", span=(1, 16, 1, 37), path="example.cc"),
    ]
