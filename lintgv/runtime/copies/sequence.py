"""The fixed sequence every copy is asked for, one fresh name per entry, in order.

It holds repeats (`x` three times), names that end in digits (`x1`, `conv2d`), names
equal to a numbered name handed out before (`x_1`, `conv2d_1`, `a1`), dotted names and
their underscored twin (`fused.add`, `fused_add`) and the empty name, twice.
"""

from lintgv.runtime.name_supply import NameSupply

SEQUENCE: tuple[str, ...] = (
    "x",
    "x",
    "x",
    "x1",
    "x_1",
    "x",
    "conv2d",
    "conv2d",
    "conv2d_1",
    "fused.add",
    "fused.add",
    "fused_add",
    "",
    "",
    "a",
    "a1",
    "a",
)


def supply_names(tvm_version: str, sequence: tuple[str, ...] = SEQUENCE) -> tuple[str, ...]:
    """Return what one fresh `NameSupply("")` hands out for `sequence`."""
    supply = NameSupply("", tvm_version=tvm_version)
    return tuple(supply.fresh_name(name) for name in sequence)
