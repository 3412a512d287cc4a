"""Lift a nested function to a module-level global (a fixture of the VS Code test)."""

import tvm


def lift(mod, func, name):
    """Add `func` to `mod` under a new global named `name`."""
    gv = tvm.ir.GlobalVar(name)
    mod[gv] = func
    return gv
