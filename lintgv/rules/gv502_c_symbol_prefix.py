from lintgv.model import Message, Severity
from lintgv.rules._base import ArtifactRule, Exported, RuleMeta


class CSymbolPrefix(ArtifactRule):
    """A C symbol without its model's `tvmgen_<model>_` prefix.

    ## Why it matters
    The AOT name-mangling RFC prefixes every exported C symbol with `tvmgen_<model>_` so
    that several models can be bundled into one application. A symbol without the prefix
    (`main_run`) clashes with the next model that has a function of the same name, and with
    the application's own code.

    ## Fix
    Name the function through the module's GlobalVarSupply, which the C backend prefixes.
    No automatic fix: the symbol comes from the build, not from one line of source.
    """

    META = RuleMeta(
        code="GV502",
        name="c-symbol-prefix",
        severity=Severity.ERROR,
        message=Message(
            "C symbol lacks its model's prefix",
            "export only tvmgen_<model>_ names",
        ),
    )
    REPORTED_BY = "`lintgv validate`"
    EXAMPLE = Exported(
        model="model",
        symbols=("main_run",),
        prints=(
            "model.json:1:1: GV502 C symbol `main_run` lacks the prefix `tvmgen_model_`; "
            "export only tvmgen_<model>_ names",
        ),
    )
