from lintgv.model import Message, Severity
from lintgv.rules._base import ArtifactRule, RuleMeta, Session


class CSymbolClash(ArtifactRule):
    """A C symbol that another model of the same application already exports.

    ## Why it matters
    Two models linked into one firmware image share one symbol namespace. A clash is a
    link error at best and, with weak symbols or static archives, one model silently calling
    the other's function at worst. It happens when model names and function names run into
    each other (`my_net` + `run` and `my` + `net_run` both give `tvmgen_my_net_run`), which
    is what the `tvmgen_<model>_` prefix and a NameSupply per module exist to prevent.

    ## Fix
    Rename one of the models (its `mod_name`), or the function, so that every exported
    symbol is unique. No automatic fix: which model keeps its name is a product decision.
    """

    META = RuleMeta(
        code="GV501",
        name="c-symbol-clash",
        severity=Severity.ERROR,
        message=Message(
            "C symbol exported by two models",
            "rename the function or one of the models",
        ),
    )
    REPORTED_BY = "`lintgv validate`"
    EXAMPLE = Session(
        files=(
            ("my_net.json", '{"model": "my_net", "functions": ["run"]}\n'),
            ("my.json", '{"model": "my", "functions": ["net_run"]}\n'),
        ),
        args=("validate", "my_net.json", "my.json"),
        prints=(
            "my.json:1:1: GV501 C symbol `tvmgen_my_net_run` is also exported by model "
            "`my_net` (my_net.json); rename the function or one of the models",
        ),
    )
