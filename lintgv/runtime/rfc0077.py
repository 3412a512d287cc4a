"""The integer-suffix mangling TVM RFC 0077 proposed and TVM never adopted (a named policy,
off by default: `NameSupply(policy=NamingPolicy.RFC0077)`).

The RFC's one example is `next_name("func12", {"func12", "func13", "func4"}) == "func14"`:
a name that is taken is split into a stem and its trailing integer, and the result is the
stem with one more than the largest integer any taken name with that stem ends in. A free
name is returned as it is; a stem never seen with a number starts at 1 (`func` → `func1`).
"""

from collections.abc import Collection
from enum import StrEnum


class NamingPolicy(StrEnum):
    TVM = "tvm"  # what TVM's NameSupply does: `name_<counter>` per base name
    RFC0077 = "rfc0077"  # the proposal above


def next_name(name: str, existing: Collection[str]) -> str:
    """Return `name` if free, else its stem with the next unused trailing integer."""
    if name not in existing:
        return name
    stem = name.rstrip("0123456789")
    numbers = [
        int(tail)
        for taken in existing
        if taken.startswith(stem)
        and (tail := taken[len(stem) :])
        and all(c in "0123456789" for c in tail)
    ]
    return f"{stem}{max(numbers, default=0) + 1}"
