"""Opened with a wrong lintgv.path (a fixture of the VS Code test)."""

import tvm

gv = tvm.ir.GlobalVar("main")
