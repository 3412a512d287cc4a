"""TVM release lines whose naming behaviour differs, and the parsing of "0.16"-style versions.

Each constant is the first minor release (TVM has no 1.x yet) where the behaviour appears,
as read in TVM's own sources at the release tags.
"""

import re

from lintgv.config import DEFAULT_TVM_VERSION, UNIQUE_NAME_SUPPLY_RELEASE
from lintgv.runtime.errors import UnsupportedVersion

NAME_SUPPLY_ADDED = 10  # include/tvm/ir/name_supply.h, PR 12066
ADD_UNDERSCORE_ADDED = 16  # FreshName(..., add_underscore) and the seeded C++ constructor
EMPTY_NAME_BECOMES_V = 24  # FreshName("") gives "v" (src/ir/name_supply.cc)

_VERSION = re.compile(r"^0\.(\d+)(?:\.\d+)?$")

__all__ = [
    "ADD_UNDERSCORE_ADDED",
    "DEFAULT_TVM_VERSION",
    "EMPTY_NAME_BECOMES_V",
    "NAME_SUPPLY_ADDED",
    "UNIQUE_NAME_SUPPLY_RELEASE",
    "tvm_minor",
]


def tvm_minor(tvm_version: str) -> int:
    """Return the minor release of `tvm_version` ("0.16" → 16); reject what TVM never had."""
    match = _VERSION.match(tvm_version) if isinstance(tvm_version, str) else None
    if match is None:
        raise UnsupportedVersion(f"tvm_version must look like '0.16', not {tvm_version!r}")
    minor = int(match.group(1))
    if minor < NAME_SUPPLY_ADDED:
        raise UnsupportedVersion(
            f"tvm_version {tvm_version!r}: TVM has name supplies from 0.10 on (PR 12066); "
            "earlier releases only had private GetUniqueName copies"
        )
    return minor
