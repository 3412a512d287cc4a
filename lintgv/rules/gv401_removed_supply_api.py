"""GV401: GlobalVarSupply or NameSupply used where TVM 0.25 no longer has them."""

from __future__ import annotations

import re

import tree_sitter

from lintgv.config import Config
from lintgv.model import Applicability, Message, Severity
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.python import ParsedPython
from lintgv.paths import matches_any, relative_to_root
from lintgv.rules._base import (
    CppRule,
    Invalid,
    MigrationPhase,
    PythonRule,
    Rule,
    RuleContext,
    RuleMeta,
    Valid,
)

META = RuleMeta(
    code="GV401",
    phase=MigrationPhase.REMOVED_APIS,
    marks="deprecated",
    name="removed-supply-api",
    severity=Severity.ERROR,
    message=Message(
        "GlobalVarSupply and NameSupply are gone in TVM 0.25",
        "use a UniqueNameSupply (`GlobalVar(names->FreshName(name, false))`)",
    ),
    fix=Applicability.UNSAFE,
    triggers=(r"GlobalVarSupply|NameSupply|global_var_supply\.h|name_supply\.h",),
)
GLOBAL_VAR_SUPPLY_MESSAGE = Message(
    "GlobalVarSupply was removed in TVM 0.25",
    "name globals with a UniqueNameSupply seeded from the module's globals: "
    "`GlobalVar(names->FreshName(name, false))`",
)
NAME_SUPPLY_MESSAGE = Message("NameSupply was renamed in TVM 0.25", "use `UniqueNameSupply`")
HEADER_MESSAGE = Message(
    "this header is gone in TVM 0.25", "include `<tvm/ir/unique_name_supply.h>`"
)
PY_GLOBAL_VAR_SUPPLY_MESSAGE = Message(
    "GlobalVarSupply was removed in TVM 0.25",
    "name globals with a UniqueNameSupply seeded from the module's globals: "
    "`GlobalVar(names.fresh_name(name, False))`",
)
PY_NAME_SUPPLY_MESSAGE = Message(
    "NameSupply was renamed in TVM 0.25", "use `tvm.ir.supply.UniqueNameSupply`"
)

_REMOVED = re.compile(r"^(GlobalVarSupply|NameSupply)(Node)?$")
_HEADER = re.compile(r"^[<\"]tvm/ir/(global_var_supply|name_supply)\.h[>\"]$")
# A project header of the same name (relay/collage had its own NameSupply class).
_LOCAL_HEADER = re.compile(r'#include\s+"(?!tvm/ir/)(?:[\w./]*/)?name_supply\.h"')
_PYTHON_NAME = re.compile(r"^tvm(\.\w+)*\.(GlobalVarSupply|NameSupply)$")

_DOC = """`GlobalVarSupply` or `NameSupply` is used, under `tvm-version = "0.25"` or later.

    ## Why it matters
    TVM 0.25.0 (PR 19781, "Cleanup IR naming utilities") removed `GlobalVarSupply` and its
    header `tvm/ir/global_var_supply.h`, and renamed `NameSupply` to `UniqueNameSupply`
    (`tvm/ir/unique_name_supply.h`, Python `tvm.ir.supply.UniqueNameSupply`). Code that
    still uses them does not build against that release. The sanctioned way to make a
    global there is `GlobalVar(names->FreshName(name, false))`, with `names` a
    `UniqueNameSupply` that has reserved the module's existing globals.

    This code reports nothing unless `tvm-version` is 0.25 or later. Reported: the types
    (`GlobalVarSupply`, `GlobalVarSupplyNode`, `NameSupply`, `NameSupplyNode`, however
    qualified), their includes, and in Python the imports and calls that resolve to
    `tvm.ir.supply.GlobalVarSupply` or `NameSupply`. The supply implementation files
    themselves (`supply-paths`) go as a whole and are not reported line by line, and a
    file that includes a project header of its own called `name_supply.h` (relay's
    collage partitioner had its own `NameSupply` class) is taken to mean that class by a
    bare `NameSupply`.

    ## Fix
    Unsafe, C++ only: `NameSupply` becomes `UniqueNameSupply` (same methods: `FreshName`,
    `ReserveName`, `ContainsName`), `NameSupplyNode` becomes `UniqueNameSupplyNode`, and
    both old includes become `<tvm/ir/unique_name_supply.h>`. A `GlobalVarSupply` has no
    one-to-one replacement: rewrite each `FreshGlobal(name)` as
    `GlobalVar(names->FreshName(name, false))` by hand.

    ## Known limits
    The removal landed in the 0.25 branch late: 0.25.0.rc0 still had `GlobalVarSupply`,
    while the final 0.25.0 release (from 0.25.0.rc1 on) ships only
    `unique_name_supply.h`. `tvm-version = "0.25"` means the final release; for a tree
    built against 0.25.0.rc0, set `tvm-version = "0.24"`.

    ## See also
    GV101 (which, from 0.25 on, accepts `GlobalVar(names->FreshName(...))`);
    `include/tvm/ir/unique_name_supply.h` (TVM 0.25).
    """


def is_active(rule: Rule) -> bool:
    """Tell whether the configured release has dropped the old supplies, and the file is
    not part of a supply's own implementation."""
    config = rule.config
    if not config.release.has_unique_name_supply:
        return False
    relative = relative_to_root(rule.context.path, config.root)
    return not matches_any(relative, config.supply_paths + config.extend_supply_paths)


NEW_API = {"tvm-version": "0.26"}


class RemovedSupplyApiCpp(CppRule):
    __doc__ = _DOC

    META = META
    QUERY = """
    (type_identifier) @name
    (namespace_identifier) @name
    (identifier) @name
    (preproc_include path: (_) @header)
    """
    VALID = [
        Valid("GlobalVarSupply supply = GlobalVarSupply(mod);\n"),
        Valid(
            "#include <tvm/ir/unique_name_supply.h>\n"
            'UniqueNameSupply names("");\nGlobalVar gv(names->FreshName("main", false));\n',
            config=NEW_API,
        ),
        Valid(
            "GlobalVar GlobalVarSupplyNode::FreshGlobal(String name, bool add_prefix) {\n"
            "  return GlobalVar(name);\n}\n",
            path="src/ir/global_var_supply.cc",
            config=NEW_API,
        ),
        Valid('// NameSupply is gone\nconst char* s = "GlobalVarSupply";\n', config=NEW_API),
        # A class held in a smart pointer is not TVM's NameSupply, an ObjectRef.
        Valid(
            'auto cache = std::make_shared<Cache>(std::make_shared<NameSupply>("test"));\n',
            config=NEW_API,
        ),
        # A project's own NameSupply class, from its own header.
        Valid(
            '#include "./name_supply.h"\n\nclass Cache {\n  NameSupply* name_supply_;\n};\n',
            config=NEW_API,
        ),
    ]
    INVALID = [
        Invalid(
            "#include <tvm/ir/name_supply.h>\n",
            span=(1, 10, 1, 32),
            message=HEADER_MESSAGE,
            fixed="#include <tvm/ir/unique_name_supply.h>\n",
            config=NEW_API,
        ),
        Invalid(
            'class CodeGenC {\n  NameSupply name_supply_ = NameSupply("");\n};\n',
            span=(2, 3, 2, 13),
            also=((2, 29, 2, 39),),
            message=NAME_SUPPLY_MESSAGE,
            fixed='class CodeGenC {\n  UniqueNameSupply name_supply_ = UniqueNameSupply("");\n};\n',
            config=NEW_API,
        ),
        Invalid(
            "IRModule Lift(IRModule mod, Function f) {\n"
            "  GlobalVarSupply supply = GlobalVarSupply(mod);\n"
            '  mod->Add(supply->FreshGlobal("lifted", false), f);\n  return mod;\n}\n',
            span=(2, 3, 2, 18),
            also=((2, 28, 2, 43),),
            message=GLOBAL_VAR_SUPPLY_MESSAGE,
            config=NEW_API,
        ),
        # Qualified, inside a registration next to a macro.
        Invalid(
            'TVM_REGISTER_GLOBAL("ir.FreshName").set_body_typed([](String prefix) {\n'
            '  return tvm::NameSupply(prefix)->FreshName("x");\n});\n',
            span=(2, 15, 2, 25),
            message=NAME_SUPPLY_MESSAGE,
            config=NEW_API,
        ),
        # GlobalVarSupply is TVM's even next to a project's own NameSupply.
        Invalid(
            '#include "./name_supply.h"\n\n'
            "void Partition(IRModule mod, NameSupply* names) {\n"
            "  GlobalVarSupply supply(mod);\n}\n",
            span=(4, 3, 4, 18),
            message=GLOBAL_VAR_SUPPLY_MESSAGE,
            config=NEW_API,
        ),
    ]

    def __init__(self, context: RuleContext, parsed: ParsedCpp) -> None:
        super().__init__(context, parsed)
        text = parsed.data.decode("utf-8", errors="replace")
        self._local_name_supply = _LOCAL_HEADER.search(text) is not None

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if not config.release.has_unique_name_supply:
            return (), ()
        return META.triggers, ()

    def _is_plain_class_use(self, node: tree_sitter.Node) -> bool:
        data = self.parsed.data
        after = data[node.end_byte : node.end_byte + 40].decode("utf-8", "replace").lstrip()
        before = data[max(node.start_byte - 40, 0) : node.start_byte].decode("utf-8", "replace")
        return after.startswith("*") or _SMART_POINTER.search(before) is not None

    def run(self) -> None:
        """Report each use of a removed type and each removed include."""
        if is_active(self):
            super().run()

    def on_match(self, captures: dict[str, list[tree_sitter.Node]]) -> None:
        if "header" in captures:
            header = captures["header"][0]
            if _HEADER.match(self.text(header)):
                fixed = "<tvm/ir/unique_name_supply.h>"
                self.report(header, HEADER_MESSAGE, replacement=fixed, title=f"Include {fixed}")
            return
        node = captures["name"][0]
        match = _REMOVED.match(self.text(node))
        if match is None:
            return
        if match.group(1) == "GlobalVarSupply":
            self.report(node, GLOBAL_VAR_SUPPLY_MESSAGE)
            return
        if self._local_name_supply and not _is_tvm_qualified(node, self):
            return  # the project's own NameSupply, from its own header
        if self._is_plain_class_use(node):
            return  # TVM's is an ObjectRef: never held by pointer or in a smart pointer
        renamed = "Unique" + self.text(node)
        self.report(node, NAME_SUPPLY_MESSAGE, replacement=renamed, title=f"Rename to {renamed}")


_SMART_POINTER = re.compile(r"(make_shared|make_unique|shared_ptr|unique_ptr)\s*<\s*$")


def _is_tvm_qualified(node: tree_sitter.Node, rule: CppRule) -> bool:
    parent = node.parent
    return (
        parent is not None
        and parent.type == "qualified_identifier"
        and (rule.text(parent).replace(" ", "").startswith(("tvm::", "::tvm::")))
    )


class RemovedSupplyApiPython(PythonRule):
    __doc__ = _DOC

    META = META
    VALID = [
        Valid("from tvm.ir.supply import GlobalVarSupply\nsupply = GlobalVarSupply(mod)\n"),
        Valid(
            "from tvm.ir.supply import UniqueNameSupply\nnames = UniqueNameSupply()\n",
            config=NEW_API,
        ),
        Valid("class NameSupply:\n    pass\n\n\nnames = NameSupply()\n", config=NEW_API),
    ]
    INVALID = [
        Invalid(
            "from tvm.ir.supply import GlobalVarSupply\n",
            span=(1, 27, 1, 42),
            message=PY_GLOBAL_VAR_SUPPLY_MESSAGE,
            config=NEW_API,
        ),
        Invalid(
            "import tvm\n\nnames = tvm.ir.supply.NameSupply('prefix')\n",
            span=(3, 9, 3, 43),
            message=PY_NAME_SUPPLY_MESSAGE,
            config=NEW_API,
        ),
    ]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        if not config.release.has_unique_name_supply:
            return (), ()
        return META.triggers, ()

    def __init__(self, context: RuleContext, parsed: ParsedPython) -> None:
        super().__init__(context, parsed)
        self._active = is_active(self)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if not self._active or isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            name = alias.name.value if isinstance(alias.name, cst.Name) else ""
            module = self.qualified_names(alias.name)
            if _REMOVED.match(name) and any(_PYTHON_NAME.match(m) for m in module):
                self.report(alias.name, self._message(name))

    def visit_Call(self, node: cst.Call) -> None:
        if not self._active:
            return
        for name in self.qualified_names(node.func):
            if _PYTHON_NAME.match(name):
                self.report(node, self._message(name.rsplit(".", 1)[-1]))
                return

    def _message(self, name: str) -> Message:
        return PY_GLOBAL_VAR_SUPPLY_MESSAGE if name == "GlobalVarSupply" else PY_NAME_SUPPLY_MESSAGE
