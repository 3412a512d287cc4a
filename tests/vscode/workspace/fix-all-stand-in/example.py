"""Saved with lintgv.fixAll against a stand-in server (a fixture of the VS Code test)."""

import tvm

gv = tvm.ir.GlobalVar("main")
