"""A pure-Python model of TVM's name supplies, a C emitter and rewrite validation.

Nothing here needs TVM; `tvm_version` ("0.16") picks the release whose behaviour is modelled.
"""

from lintgv.runtime.errors import CheckFailed, ManifestError, UnsupportedVersion
from lintgv.runtime.global_var_supply import GlobalVarSupply
from lintgv.runtime.ir import GlobalVar, IRModule
from lintgv.runtime.name_supply import NameSupply, UniqueNameSupply
from lintgv.runtime.rfc0077 import NamingPolicy, next_name

__all__ = [
    "CheckFailed",
    "GlobalVar",
    "GlobalVarSupply",
    "IRModule",
    "ManifestError",
    "NameSupply",
    "NamingPolicy",
    "UniqueNameSupply",
    "UnsupportedVersion",
    "next_name",
]
