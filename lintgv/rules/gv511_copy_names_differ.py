from lintgv.model import Severity
from lintgv.rules._base import ArtifactRule, RuleMeta


class CopyNamesDiffer(ArtifactRule):
    """A unique-name copy that names differently from the configured release's NameSupply.

    ## Why it matters
    Replacing a private `GetUniqueName` copy (GV201) with a NameSupply is only a pure
    refactoring when both give the same names for the same requests. Where they differ
    (`x1 → x_1`), the rewrite renames functions: C symbols and anything that looks them up
    by name change between releases.

    ## Fix
    Decide which names are right. To keep the copy's names, keep the copy (suppress GV201
    with a reason); to move to the supply's names, apply the rewrite with
    `lintgv fix --unsafe` and update what refers to the old names. No automatic fix.
    """

    META = RuleMeta(
        code="GV511",
        name="copy-names-differ",
        severity=Severity.WARNING,
        message="unique-name copy names differently from NameSupply; a NameSupply rewrite "
        "changes these names",
    )
    REPORTED_BY = "`lintgv validate-copies` (runs the tree's code, sandboxed)"
    EXAMPLE = (
        "$ lintgv validate-copies src/\n"
        "src/codegen.cc:12: GetUniqueName: x1 → x_1, x2 → x_2, x11 → x1 (+8 more)\n"
    )
