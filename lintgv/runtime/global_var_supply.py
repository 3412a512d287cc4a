"""A faithful model of TVM's `GlobalVarSupply` (src/ir/global_var_supply.cc, 0.10 .. 0.24).

TVM 0.25 removed it (PR 19781): a supply for any later `tvm_version` raises
`UnsupportedVersion`, pointing at the replacement, a `UniqueNameSupply` seeded with the
module's globals.
"""

from collections.abc import Sequence

from lintgv.runtime.errors import CheckFailed, UnsupportedVersion
from lintgv.runtime.ir import GlobalVar, IRModule
from lintgv.runtime.name_supply import NameSupply
from lintgv.runtime.versions import DEFAULT_TVM_VERSION, release_of

DEFAULT_MODULE_PREFIX = "tvmgen_default"  # a module without `mod_name`


class GlobalVarSupply:
    """Makes GlobalVars with unique names and caches them by name."""

    def __init__(
        self,
        value: NameSupply | IRModule | Sequence[IRModule] | None = None,
        *,
        tvm_version: str = DEFAULT_TVM_VERSION,
    ) -> None:
        if release_of(tvm_version).has_unique_name_supply:
            raise UnsupportedVersion(
                f"tvm_version {tvm_version!r}: GlobalVarSupply was removed in TVM 0.25 "
                "(PR 19781); use GlobalVar(UniqueNameSupply.from_names(module globals)"
                ".fresh_name(name, add_prefix=False))"
            )
        self._vars: dict[str, GlobalVar] = {}
        if isinstance(value, NameSupply):
            if value.tvm_version != tvm_version:
                raise UnsupportedVersion(
                    f"the NameSupply models TVM {value.tvm_version}, the GlobalVarSupply "
                    f"{tvm_version}; give both the same tvm_version"
                )
            self.name_supply = value
            return
        self.name_supply = NameSupply("", tvm_version=tvm_version)
        if value is None:
            return
        modules = [value] if isinstance(value, IRModule) else list(value)
        if not all(isinstance(m, IRModule) for m in modules):
            raise TypeError(f"GlobalVarSupply takes a NameSupply or IRModules, not {value!r}")
        if modules:
            self.name_supply.prefix = modules[0].mod_name or DEFAULT_MODULE_PREFIX
        for module in modules:
            for var in module.functions:
                self.reserve_global(var)

    def fresh_global(self, name: str, add_prefix: bool = True) -> GlobalVar:
        """Return a new GlobalVar whose name no other global of this supply has."""
        final = self.name_supply.fresh_name(name, add_prefix)
        if final in self._vars:
            raise CheckFailed(f"GlobalVar already exists for name {final}")
        var = GlobalVar(final)
        self._vars[final] = var
        return var

    def unique_global_for(self, name: str, add_prefix: bool = True) -> GlobalVar:
        """Reserve `name` and return the GlobalVar cached for it, made on first request."""
        final = self.name_supply.reserve_name(name, add_prefix)
        if final not in self._vars:
            self._vars[final] = GlobalVar(final)
        return self._vars[final]

    def reserve_global(self, global_var: GlobalVar, allow_conflict: bool = False) -> None:
        """Record an existing GlobalVar; another one of the same name is an error unless allowed."""
        if not isinstance(global_var, GlobalVar):
            raise TypeError(f"reserve_global takes a GlobalVar, not {global_var!r}")
        name = global_var.name_hint
        self.name_supply.reserve_name(name, add_prefix=False)
        if not allow_conflict and name in self._vars:
            raise CheckFailed(f"GlobalVar {global_var!r} conflicts by name in this supply.")
        self._vars[name] = global_var
