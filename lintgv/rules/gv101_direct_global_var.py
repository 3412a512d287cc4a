"""GV101: a GlobalVar constructed by hand, in Python and C++."""

import re

import libcst as cst
import tree_sitter

from lintgv.config import Config
from lintgv.model import Severity
from lintgv.parsing.python import ParsedPython
from lintgv.rules._base import CppRule, Invalid, PythonRule, RuleContext, RuleMeta, Valid

# The release that removed GlobalVarSupply; from it on, GlobalVar(names->FreshName(x)) is
# the sanctioned idiom (TVM PR 19781).
UNIQUE_NAME_SUPPLY_RELEASE = 26

META = RuleMeta(
    code="GV101",
    name="direct-global-var",
    severity=Severity.WARNING,
    message="GlobalVar built by hand; take it from a GlobalVarSupply "
    "(`supply->FreshGlobal(name)`, Python `supply.fresh_global(name)`)",
    triggers=(r"GlobalVar",),
)
MESSAGE_0_26 = (
    "GlobalVar named by hand; name it with the module's UniqueNameSupply "
    "(`GlobalVar(names->FreshName(name, false))`, Python `GlobalVar(names.fresh_name(name))`)"
)
SUPPLY_METHODS = frozenset({"FreshName", "ReserveName", "fresh_name", "reserve_name"})
PYTHON_CONSTRUCTOR = re.compile(r"^tvm(\.\w+)*\.GlobalVar$")


def message_for(config: Config) -> str | None:
    """Return the message for the configured TVM release (None: the default one)."""
    return MESSAGE_0_26 if config.tvm_minor >= UNIQUE_NAME_SUPPLY_RELEASE else None


def _extra_triggers(config: Config) -> tuple[str, ...]:
    return tuple(re.escape(re.split(r"::|\.", name)[-1]) for name in config.extra_constructors)


class DirectGlobalVarPython(PythonRule):
    """A `GlobalVar` is constructed directly instead of being drawn from a supply.

    ## Why it matters
    A name picked by hand can collide with a global already in the module, or with one
    from another model linked into the same binary. TVM RFC 0077 ("Name mangling in
    IRModules") routes every new global through a `GlobalVarSupply`, which reserves the
    module's existing names and adds the model prefix.

    Python calls are found by what they resolve to (`tvm.ir.GlobalVar`,
    `relay.GlobalVar`, `from tvm.ir import GlobalVar as GV`, relative imports inside the
    tvm package); a local class that happens to be called `GlobalVar` is not reported.
    From `tvm-version = "0.26"` on, `GlobalVar(names.fresh_name(...))` is the sanctioned
    idiom and is not reported.

    ## Fix
    Unsafe: `lintgv fix --unsafe` rewrites the call to a supply in scope; the generated
    names may change (a supply adds the module prefix and a counter on collision).

    ## See also
    TVM RFC 0077; `GlobalVarSupply::FreshGlobal` (TVM 0.10 to 0.25).
    """

    META = META
    VALID = [
        Valid("gv = supply.fresh_global('main')\n"),
        Valid("class GlobalVar:\n    pass\n\ngv = GlobalVar('main')\n"),
        Valid("from tvm.ir import GlobalVar\nok = isinstance(x, GlobalVar)\n"),
        Valid('"""Use GlobalVar("main") here."""\n# GlobalVar("f")\ns = "GlobalVar(\'f\')"\n'),
        Valid(
            "from tvm.ir import GlobalVar\ngv = GlobalVar(names.fresh_name('main'))\n",
            config={"tvm-version": "0.26"},
        ),
    ]
    INVALID = [
        Invalid("import tvm\ngv = tvm.ir.GlobalVar('main')\n", span=(2, 6, 2, 30)),
        Invalid("from tvm import relay\ngv = relay.GlobalVar('f')\n", span=(2, 6, 2, 26)),
        Invalid("from tvm.ir import GlobalVar as GV\ngv = GV('f')\n", span=(2, 6, 2, 13)),
        Invalid(
            "from . import expr as _expr\ngv = _expr.GlobalVar('f')\n",
            span=(2, 6, 2, 26),
            path="python/tvm/relay/build_module.py",
        ),
        Invalid(
            "import tvm\ngv = tvm.ir.GlobalVar('main')\n",
            span=(2, 6, 2, 30),
            message=MESSAGE_0_26,
            config={"tvm-version": "0.26"},
        ),
    ]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return META.triggers + _extra_triggers(config), ()

    def __init__(self, context: RuleContext, parsed: ParsedPython) -> None:
        super().__init__(context, parsed)
        self._class_depth = 0
        self._supplied_names: list[set[str]] = [set()]

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        # The constructor's own definition (class GlobalVar in tvm.ir.expr) is allowed.
        if node.name.value == "GlobalVar" or self._class_depth:
            self._class_depth += 1

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        if self._class_depth:
            self._class_depth -= 1

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._supplied_names.append(set())

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._supplied_names.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        if _is_supply_call(node.value):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self._supplied_names[-1].add(target.target.value)

    def visit_Call(self, node: cst.Call) -> None:
        if self._class_depth or not node.args:
            return
        names = self.qualified_names(node.func)
        extra = set(self.config.extra_constructors)
        if not any(PYTHON_CONSTRUCTOR.match(n) or n in extra for n in names):
            return
        if self.config.tvm_minor >= UNIQUE_NAME_SUPPLY_RELEASE and self._is_supplied(node):
            return
        self.report(node, message_for(self.config))

    def _is_supplied(self, node: cst.Call) -> bool:
        first = node.args[0].value
        if _is_supply_call(first):
            return True
        return isinstance(first, cst.Name) and first.value in self._supplied_names[-1]


def _is_supply_call(node: cst.BaseExpression) -> bool:
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value in SUPPLY_METHODS
    )


CPP_CONSTRUCTORS = frozenset(
    {
        "GlobalVar",
        "tvm::GlobalVar",
        "::tvm::GlobalVar",
        "relay::GlobalVar",
        "tvm::relay::GlobalVar",
        "ir::GlobalVar",
        "tvm::ir::GlobalVar",
    }
)
MAKE_OBJECT = frozenset(
    {
        "make_object",
        "tvm::make_object",
        "runtime::make_object",
        "tvm::runtime::make_object",
        "ffi::make_object",
        "tvm::ffi::make_object",
    }
)
_SPACE = re.compile(r"\s+")
_CONSTRUCTOR_REGISTRATION = re.compile(r'^"[\w.]*\.GlobalVar"$')


def _is_bare_name(node: tree_sitter.Node) -> bool:
    return (
        node.type == "parameter_declaration"
        and node.child_by_field_name("declarator") is None
        and node.named_child_count == 1
        and node.named_children[0].type == "type_identifier"
    )


class DirectGlobalVarCpp(CppRule):
    """A `GlobalVar` is constructed directly instead of being drawn from a supply.

    ## Why it matters
    A name picked by hand can collide with a global already in the module, or with one
    from another model linked into the same binary. TVM RFC 0077 routes every new global
    through a `GlobalVarSupply`, which reserves the module's existing names.

    Every spelling is one problem: a call `GlobalVar("f")`, a declaration
    `GlobalVar gv("f");` or `GlobalVar gv{"f"};`, a qualified `tvm::GlobalVar(...)` or
    `relay::GlobalVar(...)`, and `make_object<GlobalVarNode>()`. Null references
    (`GlobalVar gv;`, `GlobalVar()`), types (`Map<GlobalVar, BaseFunc>`), declarations
    of functions returning a GlobalVar, and the constructor's own definition and FFI
    registration are not reported. From `tvm-version = "0.26"` on,
    `GlobalVar(names->FreshName(...))` is the sanctioned idiom and is not reported.

    ## Fix
    Unsafe: `lintgv fix --unsafe` rewrites the construction to `supply->FreshGlobal(...)`
    when a supply can be found in scope; generated names may change.

    ## See also
    TVM RFC 0077; `include/tvm/ir/global_var_supply.h` (TVM 0.10 to 0.25).
    """

    META = META
    QUERY = """
    (call_expression
       function: [(identifier) (qualified_identifier) (template_function)] @func
       arguments: (argument_list) @args) @call
    (declaration
       type: [(type_identifier) (qualified_identifier)] @type
       declarator: (init_declarator value: [(argument_list) (initializer_list)] @args) @init)
    (compound_statement
      (declaration
         type: [(type_identifier) (qualified_identifier)] @type
         declarator: (function_declarator
            declarator: (identifier)
            parameters: (parameter_list) @params) @init))
    """
    VALID = [
        Valid("GlobalVar gv;\n"),
        Valid("auto gv = GlobalVar();\n"),
        Valid("void F(GlobalVar gv, const Map<GlobalVar, BaseFunc>& funcs);\n"),
        Valid("std::function<GlobalVar()> make;\n"),
        Valid("class M {\n  GlobalVar GetGlobalVar(const String& str) const;\n};\n"),
        Valid("GlobalVar Lookup(Name name);\n"),
        Valid("void F() {\n  GlobalVar Lookup(const String& name);\n}\n"),
        Valid("const auto* node = expr.as<GlobalVarNode>();\n"),
        Valid('// GlobalVar("f")\nconst char* s = "GlobalVar(\\"f\\")";\n'),
        Valid('GlobalVar gv = supply->FreshGlobal("main");\n'),
        Valid(
            "GlobalVar::GlobalVar(String name_hint, Type type, Span span) {\n"
            "  ObjectPtr<GlobalVarNode> n = make_object<GlobalVarNode>();\n"
            "  data_ = std::move(n);\n}\n"
        ),
        Valid(
            'TVM_REGISTER_GLOBAL("ir.GlobalVar").set_body_typed([](String name, Type type) {\n'
            "  return GlobalVar(name, type);\n});\n"
        ),
        Valid('GlobalVar gv(names->FreshName("main", false));\n', config={"tvm-version": "0.26"}),
    ]
    INVALID = [
        Invalid('auto gv = GlobalVar("main");\n', span=(1, 11, 1, 28)),
        Invalid('GlobalVar gv("main");\n', span=(1, 1, 1, 21)),
        Invalid("void F() {\n  GlobalVar gv(func_name);\n}\n", span=(2, 3, 2, 26)),
        Invalid(
            'void F() {\n  ICHECK_NE(name, "") << "needs a name";\n  GlobalVar gv(name, ty);\n}\n',
            span=(3, 3, 3, 25),
        ),
        Invalid('GlobalVar gv{"main"};\n', span=(1, 1, 1, 21)),
        Invalid("GlobalVar gv = GlobalVar(name, type);\n", span=(1, 16, 1, 37)),
        Invalid('auto gv = tvm::GlobalVar("main");\n', span=(1, 11, 1, 33)),
        Invalid('return relay::GlobalVar(\n    "main");\n', span=(1, 8, 2, 12)),
        Invalid("auto n = make_object<GlobalVarNode>();\n", span=(1, 10, 1, 38)),
        Invalid(
            'auto gv = GlobalVar("main");\n',
            span=(1, 11, 1, 28),
            message=MESSAGE_0_26,
            config={"tvm-version": "0.26"},
        ),
    ]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return META.triggers + _extra_triggers(config), ()

    def on_match(self, captures: dict[str, list[tree_sitter.Node]]) -> None:
        if "params" in captures:
            # `GlobalVar gv(name);` inside a function body: tree-sitter reads the most
            # vexing parse as a local function declaration, but a parameter list made
            # only of bare names is a constructor call with variables as arguments.
            params = captures["params"][0]
            if not params.named_children or not all(_is_bare_name(p) for p in params.named_children):
                return
            captures = {**captures, "args": [params]}
        args = captures["args"][0]
        if "call" in captures:
            func = captures["func"][0]
            name = _SPACE.sub("", self.text(func))
            if func.type == "template_function":
                if not self._is_make_global_var_node(func):
                    return
            elif not self._is_constructor(name) or args.named_child_count == 0:
                return
            node, end = captures["call"][0], None
        else:
            if not self._is_constructor(_SPACE.sub("", self.text(captures["type"][0]))):
                return
            if args.named_child_count == 0:
                return
            node, end = captures["type"][0], captures["init"][0]
        if self._is_allowed_context(node) or self._is_supplied(args):
            return
        self.report(node, message_for(self.config), end=end)

    def _is_constructor(self, name: str) -> bool:
        return name in CPP_CONSTRUCTORS or name in self.config.extra_constructors

    def _is_make_global_var_node(self, func: tree_sitter.Node) -> bool:
        name = func.child_by_field_name("name")
        arguments = func.child_by_field_name("arguments")
        if name is None or arguments is None:
            return False
        type_name = _SPACE.sub("", self.text(arguments)).strip("<>").split("::")[-1]
        return _SPACE.sub("", self.text(name)) in MAKE_OBJECT and type_name == "GlobalVarNode"

    def _is_allowed_context(self, node: tree_sitter.Node) -> bool:
        """Tell whether `node` sits in the GlobalVar constructor or its FFI registration."""
        parent = node.parent
        while parent is not None:
            if parent.type == "function_definition":
                declarator = parent.child_by_field_name("declarator")
                inner = declarator.child_by_field_name("declarator") if declarator else None
                if inner is not None and _SPACE.sub("", self.text(inner)).endswith(
                    "GlobalVar::GlobalVar"
                ):
                    return True
            if parent.type == "call_expression" and self._registers_constructor(parent):
                return True
            parent = parent.parent
        return False

    def _registers_constructor(self, call: tree_sitter.Node) -> bool:
        """Tell whether a call chain such as `REGISTER("ir.GlobalVar").set_body(...)` names
        the GlobalVar constructor in its first string argument."""
        node: tree_sitter.Node | None = call
        while node is not None:
            if node.type == "call_expression":
                arguments = node.child_by_field_name("arguments")
                named = arguments.named_children if arguments is not None else []
                if named and named[0].type == "string_literal":
                    return _CONSTRUCTOR_REGISTRATION.match(self.text(named[0])) is not None
                node = node.child_by_field_name("function")
            elif node.type == "field_expression":
                node = node.child_by_field_name("argument")
            else:
                return False
        return False

    def _is_supplied(self, args: tree_sitter.Node) -> bool:
        if self.config.tvm_minor < UNIQUE_NAME_SUPPLY_RELEASE or not args.named_children:
            return False
        first = args.named_children[0]
        if first.type != "call_expression":
            return False
        func = first.child_by_field_name("function")
        field = func.child_by_field_name("field") if func is not None else None
        return field is not None and self.text(field) in SUPPLY_METHODS
