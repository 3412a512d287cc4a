"""GV303: a TVMScript function declares its global_symbol by hand (off by default)."""

from __future__ import annotations

import re

from lintgv.helpers.names import DICT_SCAN
from lintgv.model import Message, Severity
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.python import ParsedPython
from lintgv.rules._base import Invalid, MigrationPhase, PythonRule, RuleContext, RuleMeta, Valid
from lintgv.rules._global_symbol import KEY

META = RuleMeta(
    code="GV303",
    phase=MigrationPhase.GLOBAL_SYMBOLS,
    name="tvmscript-global-symbol",
    severity=Severity.INFO,
    message=Message(
        "global_symbol declared by hand in TVMScript",
        "leave it out so the function's name sets it, or mark the function private",
    ),
    default_enabled=False,
    # Redundant parentheses, line breaks and comments may come before the dict.
    triggers=(
        rf"""func_attr\(\s*(?:#[^\n]*\s*|\(\s*)*\{{[^}}]{{0,{DICT_SCAN}}}["']global_symbol""",
    ),
)
FUNC_ATTR = re.compile(r"^tvm\.script(\.\w+)*\.func_attr$")


def _mismatch_message(symbol: str, function: str) -> Message:
    problem = (
        f"global_symbol declared by hand in TVMScript as `{symbol}`, not the function's "
        f"name `{function}`"
    )
    return Message(problem, META.message.remedy)


class TvmscriptGlobalSymbol(PythonRule):
    """A TVMScript function declares its `global_symbol` in `T.func_attr({...})`.

    ## Why it matters
    A public TVMScript function gets its `global_symbol` from its own name (its
    GlobalVar) when it is parsed; one written out by hand in `T.func_attr` or
    `R.func_attr` fixes an external name that no supply knows about, and drifts from the
    function's name when one is renamed and the other is not. Test and example modules
    are full of them, and most are harmless, so this code is off by default: turn it on
    with `extend-select = ["GV303"]` for library code that ships TVMScript.

    Calls that resolve to TVMScript's `func_attr` (`from tvm.script import tir as T`,
    `relax as R`) with a dictionary holding `"global_symbol"` are reported; the message
    says when the symbol differs from the decorated function's name.

    ## Fix
    None: drop the key (the parser adds it from the name) or mark the function
    `private=True` when it must not be exported.

    ## See also
    GV301 (setting it in passes).
    """

    META = META
    VALID = [
        # The same dialect module, not named in `tvmscript-modules`: not TVMScript.
        Valid(
            "import mypkg.language as T\n\n\n@T.prim_func\ndef main():\n"
            '    T.func_attr({"global_symbol": "main"})\n'
        ),
        Valid(
            "from tvm.script import tir as T\n\n\n@T.prim_func\ndef main(a: T.handle):\n"
            '    T.func_attr({"tir.noalias": True})\n'
        ),
        # Not TVMScript's func_attr.
        Valid(
            'def func_attr(attrs):\n    return attrs\n\n\nfunc_attr({"global_symbol": "main"})\n'
        ),
    ]
    INVALID = [
        Invalid(
            "from tvm.script import tir as T\n\n\n@T.prim_func\ndef main(a: T.handle):\n"
            '    T.func_attr({"global_symbol": "main", "tir.noalias": True})\n',
            span=(6, 5, 6, 64),
            message=META.message,
        ),
        # The dict in redundant parentheses, after a line break.
        Invalid(
            "from tvm.script import tir as T\n\n\n@T.prim_func\ndef main(a: T.handle):\n"
            '    T.func_attr(\n        ({"global_symbol": "main"})\n    )\n',
            span=(6, 5, 8, 6),
            message=META.message,
        ),
        # A dialect module of another package, named in `tvmscript-modules`.
        Invalid(
            "import mypkg.language as T\n\n\n@T.prim_func\ndef main():\n"
            '    T.func_attr({"global_symbol": "main"})\n',
            span=(6, 5, 6, 43),
            message=META.message,
            config={"tvmscript-modules": ["mypkg.language"]},
        ),
        Invalid(
            "from tvm.script import relax as R\n\n\n@R.function\ndef compute(x: R.Tensor):\n"
            '    R.func_attr({"global_symbol": "main"})\n    return x\n',
            span=(6, 5, 6, 43),
            message=_mismatch_message("main", "compute"),
        ),
    ]

    def __init__(self, context: RuleContext, parsed: ParsedPython) -> None:
        super().__init__(context, parsed)
        self._functions: list[str] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node.name.value)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._functions.pop()

    def visit_Call(self, node: cst.Call) -> None:
        if not node.args or not isinstance(node.args[0].value, cst.Dict):
            return
        dialects = {f"{module}.func_attr" for module in self.config.tvmscript_modules}
        names = self.qualified_names(node.func)
        if not any(FUNC_ATTR.match(n) or n in dialects for n in names):
            return
        for element in node.args[0].value.elements:
            if isinstance(element, cst.DictElement) and _is_key(element.key):
                self.report(node, self._message(element.value))
                return

    def _message(self, value: cst.BaseExpression) -> Message | None:
        if not isinstance(value, cst.SimpleString) or not self._functions:
            return None
        symbol = value.evaluated_value
        if isinstance(symbol, str) and symbol != self._functions[-1]:
            return _mismatch_message(symbol, self._functions[-1])
        return None


def _is_key(node: cst.BaseExpression) -> bool:
    """Tell whether `node` is the string literal "global_symbol"."""
    return isinstance(node, cst.SimpleString) and node.evaluated_value == KEY
