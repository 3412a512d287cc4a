from lintgv.model import Message, Severity
from lintgv.rules._base import ArtifactRule, Exported, RuleMeta


class CReservedIdentifier(ArtifactRule):
    """A C symbol that is a reserved or invalid C identifier.

    ## Why it matters
    C reserves identifiers that begin with an underscore and a capital letter or contain a
    double underscore, and keywords are not identifiers at all. A generated name that is one
    of these (a model or function name with `__`, a leading `_`, a character outside
    `[A-Za-z0-9_]`) compiles on one toolchain and breaks, or collides with the C library's
    own symbols, on another.

    ## Fix
    Sanitise model and function names before they reach the C backend (the reference
    runtime's `sanitize` shows how TVM does it). No automatic fix.
    """

    META = RuleMeta(
        code="GV503",
        name="c-reserved-identifier",
        severity=Severity.ERROR,
        message=Message(
            "C symbol is a reserved or invalid identifier",
            "sanitise it",
        ),
    )
    REPORTED_BY = "`lintgv validate`"
    EXAMPLE = Exported(
        model="m",
        symbols=("tvmgen_m__init",),
        prints=(
            "model.json:1:1: GV503 C symbol `tvmgen_m__init` contains a double underscore "
            "(reserved); sanitise it",
        ),
    )
