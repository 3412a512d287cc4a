"""Fixit 2 rules for the benchmark (benchmarks/compare.py): lintgv's Python patterns as
Fixit expresses them, with libcst's import-aware qualified names.

Run from this folder: `fixit --rules .gv_rules lint TREE`.
"""

import re
from typing import ClassVar

import libcst as cst
from fixit import Invalid, LintRule, Valid
from libcst.metadata import QualifiedNameProvider

# tvm.ir.GlobalVar, tvm.relay.GlobalVar, ... and, inside the tvm package, relative
# imports such as `from . import expr as _expr` (qualified names start with a dot).
GLOBAL_VAR = re.compile(r"^(tvm(\.\w+)*|\.+(\w+(\.\w+)*)?)\.GlobalVar$|^\.*GlobalVar$")
ATTR_METHODS = frozenset({"with_attr", "without_attr"})


class GvConstructPython(LintRule):
    """A GlobalVar built by hand (lintgv GV101)."""

    METADATA_DEPENDENCIES = (QualifiedNameProvider,)
    MESSAGE = "GlobalVar built by hand; take it from a GlobalVarSupply"
    VALID: ClassVar[list[Valid | str]] = [
        Valid("gv = supply.fresh_global('main')"),
        Valid("class GlobalVar:\n    pass\n\ngv = GlobalVar('main')\n"),
        Valid("from tvm.ir import GlobalVar\nok = isinstance(x, GlobalVar)\n"),
    ]
    INVALID: ClassVar[list[Invalid | str]] = [
        Invalid("import tvm\ngv = tvm.ir.GlobalVar('main')\n"),
        Invalid("from tvm import relay\ngv = relay.GlobalVar('f')\n"),
        Invalid("from tvm.ir import GlobalVar as GV\ngv = GV('f')\n"),
        Invalid("from . import expr as _expr\ngv = _expr.GlobalVar('f')\n"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if not node.args:
            return
        names = self.get_metadata(QualifiedNameProvider, node.func, set())
        if any(GLOBAL_VAR.match(n.name) and n.name != "GlobalVar" for n in names):
            self.report(node, self.MESSAGE)


class GlobalSymbolPython(LintRule):
    """`global_symbol` written or removed (lintgv GV3xx)."""

    MESSAGE = "global_symbol written or removed; keep the symbol a function already has"
    VALID: ClassVar[list[Valid | str]] = [Valid("f = f.with_attr('Compiler', 'x')")]
    INVALID: ClassVar[list[Invalid | str]] = [
        Invalid("f = f.with_attr('global_symbol', 'main')"),
        Invalid('f = f.without_attr("global_symbol")'),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in ATTR_METHODS):
            return
        if not node.args:
            return
        first = node.args[0].value
        if isinstance(first, cst.SimpleString) and first.evaluated_value == "global_symbol":
            self.report(node, self.MESSAGE)
