"""`lintgv fix --prove-names`: prove a unique-name rewrite by running the copy it replaces.

A multi-file change that replaces a C++ copy by a NameSupply is unsafe as planned: only
running the copy beside the NameSupply of the configured `tvm-version` tells whether the
names stay the same. That runs code of the analysed tree, so it happens only on this
opt-in, in the sandbox (lintgv.runtime.copies.sandbox); a copy that is refused, fails or
trips a limit leaves the change unsafe ("could not be proven"), never safe.
"""

from collections.abc import Callable
from pathlib import Path

from lintgv.codemods.unique_names import Change
from lintgv.model import Applicability
from lintgv.records import frozen
from lintgv.rewrite_validation import copy_of_change, run_copy


@frozen
class NameProof:
    """How to prove changes: the TVM release each file targets, and whether a copy may run
    without bubblewrap where none can be had (`--allow-unsandboxed`)."""

    tvm_version: Callable[[Path], str]
    unsandboxed: bool = False

    def judge(self, change: Change) -> tuple[Applicability, str]:
        """Return how far `change` can be trusted, and why."""
        if change.copy is None:
            return change.applicability, change.evidence
        version = self.tvm_version(change.copy.unit.path)
        run = run_copy(
            copy_of_change(change.copy), tvm_version=version, unsandboxed=self.unsandboxed
        )
        if run.ran and not run.differences:
            return Applicability.SAFE, f"proven: {run.summary()} (TVM {version})"
        if run.ran:
            return Applicability.UNSAFE, f"{run.summary()} (TVM {version})"
        return Applicability.UNSAFE, f"could not be proven: {run.reason}"
