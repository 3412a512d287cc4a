"""`lintgv` with a GV101 whose C++ check always crashes: the error report tests run it."""

import sys

from lintgv.cli import main
from lintgv.rules.gv101_direct_global_var import DirectGlobalVarCpp


def _crash(self: DirectGlobalVarCpp) -> None:
    raise RuntimeError("injected crash")


DirectGlobalVarCpp.run = _crash  # type: ignore[method-assign]

if __name__ == "__main__":
    sys.exit(main())
