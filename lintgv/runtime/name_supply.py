"""A faithful model of TVM's `NameSupply` (0.10 .. 0.24) and `UniqueNameSupply` (0.25 on).

The algorithm is the one in TVM's src/ir/name_supply.cc (src/ir/unique_name_supply.cc from
0.25): add the prefix (`prefix + "_" + name`, nothing when the prefix is empty), replace
every `.` with `_` (fresh names only), return the name if it is free, else bump the counter
kept for that base name and try `base_<n>` (`base<n>` without the underscore) until one is
free. Every name handed out or reserved is recorded with counter 0, so `ReserveName`
resets a counter. Behaviour that changed between releases follows `tvm_version`:

* 0.16 added `add_underscore` and the seeded C++ constructor (`from_names`);
* 0.24 turned an empty name into `"v"` before anything else;
* 0.25 renamed the class `UniqueNameSupply` and made the seeded constructor reserve names.
"""

from collections.abc import Iterable

from lintgv.runtime.errors import CheckFailed, UnsupportedVersion
from lintgv.runtime.rfc0077 import NamingPolicy, next_name
from lintgv.runtime.versions import DEFAULT_TVM_VERSION, release_of

_ASCII_DIGITS = frozenset("0123456789")
_INT_MAX = 2**31 - 1  # std::stoi fails beyond this


def _string(value: object, argument: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{argument} must be a str, not {type(value).__name__} ({value!r})")
    return value


class NameSupply:
    """Hands out names that are unique within the supply, as TVM's NameSupply does."""

    def __init__(
        self,
        prefix: str = "",
        *,
        tvm_version: str = DEFAULT_TVM_VERSION,
        policy: NamingPolicy = NamingPolicy.TVM,
    ) -> None:
        self.tvm_version = tvm_version
        self.release = release_of(tvm_version)
        self.prefix = _string(prefix, "prefix")
        self.policy = NamingPolicy(policy)
        self._name_map: dict[str, int] = {}

    @classmethod
    def from_names(
        cls, names: Iterable[str], *, tvm_version: str = DEFAULT_TVM_VERSION
    ) -> "NameSupply":
        """Return a supply seeded with existing names, as TVM's C++ iterator constructor does.

        0.16 .. 0.24 record only each name's non-digit stem with the largest trailing number
        seen (`lv12` → stem `lv`, counter 12), so the names themselves stay free; from 0.25
        each name is reserved as it is.
        """
        supply = cls("", tvm_version=tvm_version)
        if not supply.release.has_add_underscore:
            raise UnsupportedVersion(
                f"tvm_version {tvm_version!r}: the seeded NameSupply constructor appeared in 0.16"
            )
        if supply.release.has_unique_name_supply:
            for name in names:
                supply.reserve_name(name, add_prefix=False)
        else:
            supply._name_map = _stem_counters(names)
        return supply

    def fresh_name(
        self, name: str, add_prefix: bool = True, add_underscore: bool | None = None
    ) -> str:
        """Return a new unique name derived from `name`, and record it."""
        name = _string(name, "name")
        if add_underscore is not None and not self.release.has_add_underscore:
            raise UnsupportedVersion(
                f"tvm_version {self.tvm_version!r}: fresh_name() takes add_underscore from 0.16 on"
            )
        if not name and self.release.names_empty_v:
            name = "v"
        if add_prefix:
            name = self._with_prefix(name)
        return self._unique(name, add_underscore is not False)

    def reserve_name(self, name: str, add_prefix: bool = True) -> str:
        """Record `name` (prefixed; dots kept) as taken, resetting its counter; return it."""
        final = self._with_prefix(_string(name, "name")) if add_prefix else _string(name, "name")
        self._name_map[final] = 0
        return final

    def contains_name(self, name: str, add_prefix: bool = True) -> bool:
        """Tell whether `name` (prefixed unless told otherwise) is recorded."""
        final = self._with_prefix(_string(name, "name")) if add_prefix else _string(name, "name")
        return final in self._name_map

    def _with_prefix(self, name: str) -> str:
        return f"{self.prefix}_{name}" if self.prefix else name

    def _unique(self, name: str, add_underscore: bool) -> str:
        name = name.replace(".", "_")
        names = self._name_map
        if self.policy is NamingPolicy.RFC0077:
            chosen = next_name(name, names)
            names[chosen] = 0
            return chosen
        if name not in names:
            names[name] = 0
            return name
        separator = "_" if add_underscore else ""
        candidate = name
        while candidate in names:
            names[name] += 1
            candidate = f"{name}{separator}{names[name]}"
        names[candidate] = 0
        return candidate

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.prefix!r}, tvm_version={self.tvm_version!r})"


class UniqueNameSupply(NameSupply):
    """TVM's name for the same supply from 0.25 on (`tvm.ir.supply.UniqueNameSupply`)."""

    def __init__(self, prefix: str = "", *, tvm_version: str = DEFAULT_TVM_VERSION) -> None:
        super().__init__(prefix, tvm_version=tvm_version)
        if not self.release.has_unique_name_supply:
            raise UnsupportedVersion(
                f"tvm_version {tvm_version!r}: UniqueNameSupply appeared in 0.25 (PR 19781); "
                "earlier releases call it NameSupply"
            )


def _stem_counters(names: Iterable[str]) -> dict[str, int]:
    """Return TVM 0.16 .. 0.24's seeded map: each name's stem → largest trailing number."""
    counters: dict[str, int] = {}
    for raw in names:
        name = _string(raw, "name")
        stem = name.rstrip("0123456789")
        digits = name[len(stem) :]
        if not stem or not (stem[0].isascii() and stem[0].isalpha()):
            raise CheckFailed(f"Invalid variable name: {name}")
        counters.setdefault(stem, 0)
        if digits:
            number = int(digits)
            if number > _INT_MAX:
                raise CheckFailed(f"Invalid variable name: {name} (std::stoi: out of range)")
            counters[stem] = max(counters[stem], number)
    return counters
