"""The two IR objects a GlobalVarSupply reads: `GlobalVar` and `IRModule`."""

from collections.abc import Iterable, Mapping

from lintgv.runtime.errors import CheckFailed

MODULE_NAME_ATTR = "mod_name"  # tvm::attr::kModuleName


class GlobalVar:
    """A global function's handle; two GlobalVars are the same only if they are one object."""

    __slots__ = ("name_hint",)

    def __init__(self, name_hint: str) -> None:
        if not isinstance(name_hint, str):
            raise TypeError(f"name_hint must be a str, not {type(name_hint).__name__}")
        self.name_hint = name_hint

    def __repr__(self) -> str:
        return f"I.GlobalVar({self.name_hint!r})"


class IRModule:
    """The globals of a module (in insertion order) and its attributes."""

    def __init__(
        self,
        functions: Mapping[GlobalVar | str, object] | Iterable[GlobalVar] | None = None,
        attrs: Mapping[str, object] | None = None,
    ) -> None:
        self.functions: dict[GlobalVar, object] = {}
        items = (
            functions.items()
            if isinstance(functions, Mapping)
            else ((var, None) for var in functions or ())
        )
        seen: set[str] = set()
        for key, function in items:
            var = GlobalVar(key) if isinstance(key, str) else key
            if not isinstance(var, GlobalVar):
                raise TypeError(f"IRModule functions are keyed by GlobalVar, not {var!r}")
            if var.name_hint in seen:
                raise CheckFailed(f"Duplicate global function name {var.name_hint}")
            seen.add(var.name_hint)
            self.functions[var] = function
        self.attrs: dict[str, object] = dict(attrs or {})

    def get_global_vars(self) -> list[GlobalVar]:
        """Return the module's globals."""
        return list(self.functions)

    @property
    def mod_name(self) -> str | None:
        """Return the `mod_name` attribute, if set."""
        value = self.attrs.get(MODULE_NAME_ATTR)
        if value is not None and not isinstance(value, str):
            raise CheckFailed(f"attribute {MODULE_NAME_ATTR} must be a string, not {value!r}")
        return value
