from lintgv.model import Message, Severity
from lintgv.rules._base import ArtifactRule, RuleMeta, Session


class CopyNotExecutable(ArtifactRule):
    """A unique-name copy that could not be run to compare its names with NameSupply.

    ## Why it matters
    The proof that a rewrite keeps names runs the copy on a fixed sequence of requests.
    A copy that calls other code of the project, imports modules, trips a sandbox limit or
    does not compile on its own cannot be run, so nothing is known about its names: its
    rewrite stays unsafe.

    ## Fix
    Compare the copy with NameSupply by hand (docs/runtime.md lists the sequence), then
    apply or suppress its GV201 rewrite. No automatic fix.
    """

    META = RuleMeta(
        code="GV512",
        name="copy-not-executable",
        severity=Severity.INFO,
        message=Message(
            "unique-name copy could not be run",
            "compare its names with NameSupply by hand",
        ),
    )
    REPORTED_BY = "`lintgv validate-copies` (runs the tree's code, sandboxed)"
    EXAMPLE = Session(
        files=(
            (
                "src/passes.py",
                """\
import os


class Namer:
    def __init__(self):
        self.used = {}

    def unique_name(self, name):
        name = os.path.basename(name)
        if name in self.used:
            self.used[name] += 1
            return f"{name}_{self.used[name]}"
        self.used[name] = 0
        return name
""",
            ),
        ),
        args=("validate-copies", "src/"),
        prints=(
            "src/passes.py:8: Namer.unique_name: could not execute: every call failed: "
            "NameError: name 'os' is not defined",
        ),
    )
