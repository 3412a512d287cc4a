"""The same jobs done through a GlobalVarSupply: nothing here is reported."""
from tvm.ir import GlobalVar
from tvm.ir.supply import GlobalVarSupply


class GlobalVar2:
    """A class that merely shares part of the name."""


def lift_function(mod, func, name):
    supply = GlobalVarSupply(mod)
    gvar = supply.fresh_global(name, False)
    mod[gvar] = func
    return gvar


def is_global(expr) -> bool:
    # Checking a type is not building one; neither is mentioning GlobalVar("f") here.
    return isinstance(expr, GlobalVar)
