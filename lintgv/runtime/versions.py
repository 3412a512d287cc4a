"""The runtime's view of a TVM release: lintgv.release's one value, with the runtime's own
error for a release that has no name supply."""

from lintgv.config import DEFAULT_TVM_VERSION
from lintgv.release import Release
from lintgv.runtime.errors import UnsupportedVersion

__all__ = ["DEFAULT_TVM_VERSION", "release_of"]


def release_of(tvm_version: str) -> Release:
    """Return the release `tvm_version` names ("0.16"); reject what TVM never had."""
    release = Release.parse(tvm_version)
    if release is None:
        raise UnsupportedVersion(f"tvm_version must look like '0.16', not {tvm_version!r}")
    if not release.has_name_supply:
        raise UnsupportedVersion(
            f"tvm_version {tvm_version!r}: TVM has name supplies from 0.10 on (PR 12066); "
            "earlier releases only had private GetUniqueName copies"
        )
    return release
