from lintgv.model import Message, Severity
from lintgv.rules._base import ArtifactRule, Exported, RuleMeta


class CSymbolTooLong(ArtifactRule):
    """A C symbol whose name part is longer than the limit.

    ## Why it matters
    Some embedded toolchains and object formats cut symbols at a fixed length; two long
    names that agree up to the cut then clash after linking, although they were unique in
    the IRModule.

    ## Fix
    Shorten the function's name, keeping it unique in its module (its GlobalVarSupply will
    tell). No automatic fix.
    """

    META = RuleMeta(
        code="GV504",
        name="c-symbol-too-long",
        severity=Severity.ERROR,
        message=Message(
            "C symbol name part is over the length limit",
            "cut it and keep it unique",
        ),
    )
    REPORTED_BY = "`lintgv validate`"
    EXAMPLE = Exported(
        model="m",
        symbols=("tvmgen_m_" + "f" * 81,),
        prints=(
            "model.json:1:1: GV504 C symbol `tvmgen_m_" + "f" * 81 + "` has a 81-character "
            "name part; cut it to 80 and keep it unique",
        ),
    )
