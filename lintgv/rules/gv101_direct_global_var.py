"""GV101: a GlobalVar constructed by hand, in Python and C++. The scans that find and fix
the constructions are in lintgv/rules/_direct_global_var."""

from dataclasses import replace

from lintgv.model import Applicability, Message, Severity
from lintgv.rules._base import Invalid, MigrationPhase, RuleMeta, Valid
from lintgv.rules._direct_global_var.common import MESSAGE_UNIQUE_NAMES
from lintgv.rules._direct_global_var.cpp_scan import CppSites
from lintgv.rules._direct_global_var.python_scan import PythonSites

META = RuleMeta(
    code="GV101",
    phase=MigrationPhase.GLOBAL_VARS,
    makes_names=True,
    threads_supply=True,
    fix_replaces_name="GlobalVar",
    name="direct-global-var",
    severity=Severity.WARNING,
    message=Message(
        "GlobalVar built by hand",
        "take it from a GlobalVarSupply (`supply->FreshGlobal(name)`, Python "
        "`supply.fresh_global(name)`)",
    ),
    fix=Applicability.UNSAFE,
    triggers=(r"GlobalVar",),
    # A fix needs the whole function around a site: its supplies, modules and lookups.
    function_triggers=(r"GlobalVar\s*\(",),
)


class DirectGlobalVarPython(PythonSites):
    """A `GlobalVar` is constructed directly instead of being drawn from a supply.

    ## Why it matters
    A name picked by hand can collide with a global already in the module, or with one
    from another model linked into the same binary. TVM RFC 0077 ("Name mangling in
    IRModules") routes every new global through a `GlobalVarSupply`, which reserves the
    module's existing names and adds the model prefix.

    Python calls are found by what they resolve to (`tvm.ir.GlobalVar`,
    `relay.GlobalVar`, `from tvm.ir import GlobalVar as GV`, relative imports inside the
    tvm package); a local class that happens to be called `GlobalVar` is not reported.
    From `tvm-version = "0.25"` on, `GlobalVar(names.fresh_name(...))` is the sanctioned
    idiom and is not reported, nor is `GlobalVar(x)` for a variable `x` assigned from a
    supply's `fresh_name` or passed to its `reserve_name` earlier in the function.

    ## Fix
    Unsafe (`lintgv fix --unsafe`): the call becomes `supply.fresh_global(name, False)`,
    or `supply.unique_global_for(name, False)` when the name is an existing function's
    (a `global_symbol`, another global's `name_hint`, a name the function also looks up
    with `get_global_var` or constructs twice). The supply is a `GlobalVarSupply` already
    in scope; else one built from the IRModule the global is added to (`mod[gv] = f`,
    `mod.update_func(gv, f)`) or the only IRModule in scope: inline for one site, one
    `global_var_supply = GlobalVarSupply(mod)` before the first of several sites of a
    function. A site a suppression comment keeps is not counted (nor, in C++, is its name
    looked up again). `from tvm.ir.supply import GlobalVarSupply` is added when missing.
    `add_prefix` is False, as in TVM's own migration (PR 12066), yet a name that
    collides now gets a counter, so generated names can change. Several supplies or
    modules in scope make the fix display-only. When no module is in scope or the module
    is made after the call, the message says so and a new, empty supply is only shown
    (`GlobalVarSupply().fresh_global(name, False)`): it knows no other function's name, so
    the caller's supply has to be passed in instead. `lintgv fix --unsafe` does that: a
    module-level function or a method of a module-level class gets a keyword-only
    parameter `*, global_var_supply: GlobalVarSupply` (so that no call passing arguments
    by position binds one to it), and every call of it in the project — resolved through
    imports; a method through `self`, `cls` or its class — passes `global_var_supply=` the
    caller's supply, `GlobalVarSupply(mod)` from the caller's IRModule (a binding of that
    type, or a parameter named like one), or the caller's own new parameter up to
    `supply-depth` calls up; a method with nothing to pass passes
    `self.global_var_supply`, which its class's `__init__` then begins by setting to a new
    `GlobalVarSupply()` (one per object, as TVM's compiler keeps one); any other caller
    with nothing passes `GlobalVarSupply()`. Both are listed.
    All files change together or none, and only if each compiles. Not done (the summary
    says why) when no caller has a supply or module to pass, the function is used other
    than by a call (passed as a value, decorated, named in a string as for `getattr`,
    imported under another name or through a star, reached through a module that may
    re-export it), its name is bound again or hidden, a call passes the keyword already,
    a method of its name is called on another receiver or defined elsewhere, or nothing
    checked calls it. A file the config excludes (`exclude`, `extend-exclude`) that names
    it stops the change too; files .gitignore ignores are not seen; a file that names it
    and is not UTF-8 stops the change. A caller whose calls
    would each build a supply from its module (several calls, or one in a loop) declares
    one `global_var_supply = GlobalVarSupply(mod)` before them instead, so that they
    name as one. No fix at all when the call passes a type. With `tvm-version = "0.25"`,
    the name is wrapped instead: `GlobalVar(global_names.fresh_name(name, False))` with
    a `UniqueNameSupply` seeded from the module's globals.

    ## See also
    TVM RFC 0077; `GlobalVarSupply::FreshGlobal` (TVM 0.10 to 0.24).
    """

    META = META
    VALID = [
        Valid("gv = supply.fresh_global('main')\n"),
        Valid("class GlobalVar:\n    pass\n\ngv = GlobalVar('main')\n"),
        # Not TVM unless configured as a package that re-exports it.
        Valid("from mypkg.compat import ir\ngv = ir.GlobalVar('f')\n"),
        Valid("from tvm.ir import GlobalVar\nok = isinstance(x, GlobalVar)\n"),
        Valid('"""Use GlobalVar("main") here."""\n# GlobalVar("f")\ns = "GlobalVar(\'f\')"\n'),
        Valid(
            "from tvm.ir import GlobalVar\ngv = GlobalVar(names.fresh_name('main'))\n",
            config={"tvm-version": "0.26"},
        ),
        Valid(
            "from tvm.ir import GlobalVar\n\n\ndef bind(mod, func, names, name):\n"
            "    names.reserve_name(name, False)\n    mod[GlobalVar(name)] = func\n"
            "    fresh = names.fresh_name('lifted', False)\n    mod[GlobalVar(fresh)] = func\n",
            config={"tvm-version": "0.26"},
        ),
    ]
    INVALID = [
        Invalid(
            "import tvm\nfrom tvm import relay\n\n\ndef build(mod: tvm.IRModule, func):\n"
            '    gv = relay.GlobalVar("main")\n    mod[gv] = func\n',
            span=(6, 10, 6, 33),
            fixed="import tvm\nfrom tvm import relay\nfrom tvm.ir.supply import GlobalVarSupply\n"
            "\n\ndef build(mod: tvm.IRModule, func):\n"
            '    gv = GlobalVarSupply(mod).fresh_global("main", False)\n    mod[gv] = func\n',
        ),
        Invalid("import tvm\ngv = tvm.ir.GlobalVar('main')\n", span=(2, 6, 2, 30)),
        Invalid("from tvm import relay\ngv = relay.GlobalVar('f')\n", span=(2, 6, 2, 26)),
        Invalid("from tvm.ir import GlobalVar as GV\ngv = GV('f')\n", span=(2, 6, 2, 13)),
        # TVM re-exported by a package built on it (`from tilelang import tvm`), and under
        # another name (configured).
        Invalid("from mypkg import tvm\ngv = tvm.ir.GlobalVar('f')\n", span=(2, 6, 2, 27)),
        Invalid(
            "from mypkg.compat import ir\ngv = ir.GlobalVar('f')\n",
            span=(2, 6, 2, 23),
            config={"tvm-packages": ["mypkg.compat"]},
        ),
        # Line breaks, a comment and parentheses inside the call hide nothing.
        Invalid(
            "import tvm\ngv = tvm.ir.GlobalVar(  # the entry point\n    ('main')\n)\n",
            span=(2, 6, 4, 2),
        ),
        Invalid(
            "from . import expr as _expr\ngv = _expr.GlobalVar('f')\n",
            span=(2, 6, 2, 26),
            path="python/tvm/relay/build_module.py",
        ),
        # Several sites of one function share one supply; comments and layout stay.
        Invalid(
            '"""Two globals, one module."""\nimport tvm\nfrom tvm import relay\n\n\n'
            "def get_mod(f, g):\n    mod = tvm.IRModule({})\n    # The callee.\n"
            '    callee = relay.GlobalVar(\n        "callee"  # keep this comment\n    )\n'
            '    mod[callee] = f\n    main = relay.GlobalVar("main")\n    mod[main] = g\n'
            "    return mod\n",
            span=(9, 14, 11, 6),
            also=((13, 12, 13, 35),),
            fixed='"""Two globals, one module."""\nimport tvm\nfrom tvm import relay\n'
            "from tvm.ir.supply import GlobalVarSupply\n\n\n"
            "def get_mod(f, g):\n    mod = tvm.IRModule({})\n"
            "    global_var_supply = GlobalVarSupply(mod)\n    # The callee.\n"
            "    callee = global_var_supply.fresh_global(\n"
            '        "callee", False  # keep this comment\n    )\n'
            '    mod[callee] = f\n    main = global_var_supply.fresh_global("main", False)\n'
            "    mod[main] = g\n    return mod\n",
        ),
        # A supply in scope is used; a global_symbol names an existing function.
        Invalid(
            "from tvm import relay\nfrom tvm.ir.supply import GlobalVarSupply\n\n\n"
            "def lower(mod, func):\n    supply = GlobalVarSupply(mod)\n"
            '    return relay.GlobalVar(func.attrs["global_symbol"])\n',
            span=(7, 12, 7, 56),
            fixed="from tvm import relay\nfrom tvm.ir.supply import GlobalVarSupply\n\n\n"
            "def lower(mod, func):\n    supply = GlobalVarSupply(mod)\n"
            '    return supply.unique_global_for(func.attrs["global_symbol"], False)\n',
        ),
        Invalid(
            'from tvm import relay\n\n\ndef name():\n    return relay.GlobalVar("f")\n',
            span=(5, 12, 5, 32),
            message=replace(
                META.message,
                no_fix="no GlobalVarSupply or IRModule in scope to name it with",
            ),
        ),
        Invalid(
            "import tvm\nfrom tvm import relay\n\n\ndef make(f):\n"
            '    gv = relay.GlobalVar("external")\n    mod = tvm.IRModule()\n'
            "    mod[gv] = f\n    return mod\n",
            span=(6, 10, 6, 37),
            message=replace(
                META.message,
                no_fix="the IRModule it is added to (`mod`) is made after this line",
            ),
        ),
        Invalid(
            'from tvm import relay\n\n\ndef typed(mod, t):\n    mod[relay.GlobalVar("f", t)] = 0\n',
            span=(5, 9, 5, 32),
            message=replace(
                META.message,
                no_fix="the call also passes a type or span, which fresh_global cannot take",
            ),
        ),
        Invalid(
            "import tvm\ngv = tvm.ir.GlobalVar('main')\n",
            span=(2, 6, 2, 30),
            message=replace(
                MESSAGE_UNIQUE_NAMES,
                no_fix="at module level, with no UniqueNameSupply or IRModule to name it with "
                "and no function to take a supply parameter",
            ),
            config={"tvm-version": "0.26"},
        ),
        Invalid(
            "import tvm\nfrom tvm import relay\n\n\ndef build(mod: tvm.IRModule, func):\n"
            '    gv = relay.GlobalVar("main")\n    mod[gv] = func\n',
            span=(6, 10, 6, 33),
            message=MESSAGE_UNIQUE_NAMES,
            config={"tvm-version": "0.26"},
            fixed="import tvm\nfrom tvm import relay\nfrom tvm.ir.supply import UniqueNameSupply\n"
            "\n\ndef build(mod: tvm.IRModule, func):\n"
            "    global_names = UniqueNameSupply()\n"
            "    for _gvar in mod.get_global_vars():\n"
            "        global_names.reserve_name(_gvar.name_hint, False)\n"
            '    gv = relay.GlobalVar(global_names.fresh_name("main", False))\n'
            "    mod[gv] = func\n",
        ),
    ]


# A static local's GlobalVar: its initializer runs at the first call only.
_MADE_ONCE = replace(
    META.message,
    no_fix="a static local is made once, at the first call; make the GlobalVar where its "
    "module is built",
)
# A macro tree-sitter cannot read before the statement (`ALIGNED(8) GlobalVar gv(...)`).
_MACRO_BEFORE = replace(
    META.message,
    no_fix="a macro before the statement would be taken from it by a supply declared there",
)


class DirectGlobalVarCpp(CppSites):
    """A `GlobalVar` is constructed directly instead of being drawn from a supply.

    ## Why it matters
    A name picked by hand can collide with a global already in the module, or with one
    from another model linked into the same binary. TVM RFC 0077 routes every new global
    through a `GlobalVarSupply`, which reserves the module's existing names.

    Every spelling is one problem: a call `GlobalVar("f")`, a declaration
    `GlobalVar gv("f");` or `GlobalVar gv{"f"};`, a qualified `tvm::GlobalVar(...)` or
    `relay::GlobalVar(...)`, `make_object<GlobalVarNode>()`, and the static
    `GlobalVarNode::make("f")` of releases before 0.7. Null references
    (`GlobalVar gv;`, `GlobalVar()`), types (`Map<GlobalVar, BaseFunc>`), declarations
    of functions returning a GlobalVar, and the constructor's own definition (before
    0.7, `GlobalVarNode::make`'s) and FFI registration are not reported. From
    `tvm-version = "0.25"` on, `GlobalVar(names->FreshName(...))` is the sanctioned idiom
    and is not reported, nor is `GlobalVar(x)` for a variable `x` stored from a supply's
    `FreshName` or passed to its `ReserveName` earlier in the function.

    ## Fix
    Unsafe (`lintgv fix --unsafe`): the construction becomes
    `supply->FreshGlobal(name, false)`, or `supply->UniqueGlobalFor(name, false)` when the
    name is an existing function's (from `kGlobalSymbol`, a global's `name_hint`, or a
    name the function also looks up with `GetGlobalVar`/`Lookup` or constructs twice).
    `GlobalVar gv("f");` becomes `GlobalVar gv = supply->FreshGlobal("f", false);`. The
    supply is a `GlobalVarSupply` variable, parameter or member in scope; else
    `GlobalVarSupply global_var_supply = GlobalVarSupply(mod);` is declared once per
    function, before the first site and outside loops, from the IRModule the global is
    added to (`mod->Add(gv, f)`) or the only IRModule in scope.
    `#include <tvm/ir/global_var_supply.h>` is added when missing. `add_prefix` is false,
    as in TVM's own migration (PR 12066), yet a colliding name now gets a counter, so
    generated names can change. Several candidates make the fix display-only. When no
    IRModule is in scope (or it is made after the site) the message says so and a new,
    empty supply is only shown (`GlobalVarSupply(NameSupply(""))->FreshGlobal(name,
    false)`): it knows no other function's name, so the caller's supply has to be passed
    in instead. `lintgv fix --unsafe` does that as TVM's migration did by hand: the
    function gets a `GlobalVarSupply global_var_supply` parameter (before the first one
    with a default value), so do its declarations in the files checked, and each call
    passes the caller's supply, or one made from the caller's IRModule; a caller's
    several calls, or one in a loop, share one `GlobalVarSupply global_var_supply =
    GlobalVarSupply(mod);` declared before them. A caller with nothing to pass that is a
    method of a class the files checked define (not static; the call in its body) passes
    a member its class gets, `GlobalVarSupply global_var_supply_ =
    GlobalVarSupply(NameSupply(""));` declared first in the class, as TVM's compiler
    keeps one since PR 12066; any other caller with nothing to pass gets the parameter
    too, up to `supply-depth` calls up (default 3), or else passes a new one. Members and
    new supplies are listed in the summary; all files change together or none. It is not
    done when a call's receiver cannot be resolved (the call would miss its argument),
    when a call relies on default arguments before the new one, when a file the config
    excludes names the function (a call there could not be updated), or when nothing in
    the files checked calls the function (an API whose callers are elsewhere). No fix (and
    the message says why) outside functions, for `make_object<GlobalVarNode>`, for
    calls that pass a type or span, and in the initializer of a `static` or
    `thread_local` local (made once, at the first call: a supply of that call would name
    it for every later call's module). With
    `tvm-version = "0.25"` the name is wrapped instead: `GlobalVar(global_names->FreshName(
    name, false))`, with a `UniqueNameSupply` seeded from the module's globals.

    ## See also
    TVM RFC 0077; `include/tvm/ir/global_var_supply.h` (TVM 0.10 to 0.24).
    """

    META = META
    VALID = [
        Valid("GlobalVar gv;\n"),
        Valid("auto gv = GlobalVar();\n"),
        Valid("void F(GlobalVar gv, const Map<GlobalVar, BaseFunc>& funcs);\n"),
        Valid("std::function<GlobalVar()> make;\n"),
        Valid("class M {\n  GlobalVar GetGlobalVar(const String& str) const;\n};\n"),
        Valid("GlobalVar Lookup(Name name);\n"),
        # An attribute macro before a type that is not GlobalVar, or before a declaration.
        Valid('void F() {\n  TVM_ATTRIBUTE_UNUSED Foo f("x");\n}\n'),
        Valid("TVM_DLL GlobalVar GetGlobal(String name);\n"),
        Valid("void F() {\n  GlobalVar Lookup(const String& name);\n}\n"),
        Valid("const auto* node = expr.as<GlobalVarNode>();\n"),
        Valid('// GlobalVar("f")\nconst char* s = "GlobalVar(\\"f\\")";\n'),
        Valid('GlobalVar gv = supply->FreshGlobal("main");\n'),
        Valid(
            "GlobalVar::GlobalVar(String name_hint, Type type, Span span) {\n"
            "  ObjectPtr<GlobalVarNode> n = make_object<GlobalVarNode>();\n"
            "  data_ = std::move(n);\n}\n"
        ),
        # Before TVM 0.7, the static `make` is the constructor.
        Valid(
            "GlobalVar GlobalVarNode::make(std::string name) {\n"
            "  auto node = make_node<GlobalVarNode>();\n  node->name_hint = name;\n"
            "  return GlobalVar(node);\n}\n"
            'TVM_REGISTER_API("relay._make.GlobalVar").set_body_typed(GlobalVarNode::make);\n'
        ),
        Valid(
            'TVM_REGISTER_GLOBAL("ir.GlobalVar").set_body_typed([](String name, Type type) {\n'
            "  return GlobalVar(name, type);\n});\n"
        ),
        # The supply's own implementation (default `supply-paths`).
        Valid(
            "GlobalVar GlobalVarSupplyNode::FreshGlobal(String name, bool add_prefix) {\n"
            "  GlobalVar var = GlobalVar(name_supply_->FreshName(name, add_prefix));\n"
            "  name_to_var_map_.Set(var->name_hint, var);\n  return var;\n}\n",
            path="src/ir/global_var_supply.cc",
        ),
        Valid('GlobalVar gv(names->FreshName("main", false));\n', config={"tvm-version": "0.26"}),
        # From 0.25 on, a name stored from a supply or reserved in one before.
        Valid(
            "void Add(IRModule mod, Function f, UniqueNameSupply names) {\n"
            '  String name = names->FreshName("lifted", false);\n'
            "  GlobalVar gvar(name);\n  mod->Add(gvar, f);\n}\n"
            "void Bind(IRModule mod, Function f, UniqueNameSupply names, String name) {\n"
            "  names->ReserveName(name, false);\n"
            "  mod->Add(GlobalVar(name), f);\n}\n",
            config={"tvm-version": "0.26"},
        ),
    ]
    INVALID = [
        Invalid(
            "IRModule Build(IRModule mod, const Function& f) {\n"
            '  GlobalVar gv("main");\n  mod->Add(gv, f);\n  return mod;\n}\n',
            span=(2, 3, 2, 23),
            fixed="#include <tvm/ir/global_var_supply.h>\n\n"
            "IRModule Build(IRModule mod, const Function& f) {\n"
            "  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
            '  GlobalVar gv = global_var_supply->FreshGlobal("main", false);\n'
            "  mod->Add(gv, f);\n  return mod;\n}\n",
        ),
        # Inside a switch the supply is declared before it: a declaration between case
        # labels would be jumped over, and does not compile.
        Invalid(
            "IRModule Build(IRModule mod, const Function& f, int kind) {\n"
            "  switch (kind) {\n    case 0:\n"
            '      mod->Add(GlobalVar("a"), f);\n      break;\n'
            '    default:\n      mod->Add(GlobalVar("b"), f);\n  }\n  return mod;\n}\n',
            span=(4, 16, 4, 30),
            also=((7, 16, 7, 30),),
            fixed="#include <tvm/ir/global_var_supply.h>\n\n"
            "IRModule Build(IRModule mod, const Function& f, int kind) {\n"
            "  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
            "  switch (kind) {\n    case 0:\n"
            '      mod->Add(global_var_supply->FreshGlobal("a", false), f);\n      break;\n'
            "    default:\n"
            '      mod->Add(global_var_supply->FreshGlobal("b", false), f);\n  }\n'
            "  return mod;\n}\n",
        ),
        # In a function with a goto label, the supply is declared first thing: a goto
        # must not jump over its declaration to a label after it.
        Invalid(
            "IRModule Build(IRModule mod, const Function& f, bool skip) {\n"
            '  if (skip) goto done;\n  mod->Add(GlobalVar("a"), f);\n'
            'done:\n  mod->Add(GlobalVar("b"), f);\n  return mod;\n}\n',
            span=(3, 12, 3, 26),
            also=((5, 12, 5, 26),),
            fixed="#include <tvm/ir/global_var_supply.h>\n\n"
            "IRModule Build(IRModule mod, const Function& f, bool skip) {\n"
            "  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
            "  if (skip) goto done;\n"
            '  mod->Add(global_var_supply->FreshGlobal("a", false), f);\n'
            'done:\n  mod->Add(global_var_supply->FreshGlobal("b", false), f);\n'
            "  return mod;\n}\n",
        ),
        Invalid('auto gv = GlobalVar("main");\n', span=(1, 11, 1, 28)),
        Invalid('GlobalVar gv("main");\n', span=(1, 1, 1, 21)),
        Invalid("void F() {\n  GlobalVar gv(func_name);\n}\n", span=(2, 3, 2, 26)),
        Invalid(
            'void F() {\n  ICHECK_NE(name, "") << "needs a name";\n  GlobalVar gv(name, ty);\n}\n',
            span=(3, 3, 3, 25),
            message=replace(
                META.message,
                no_fix="the call also passes a type or span, which FreshGlobal cannot take",
            ),
        ),
        Invalid('GlobalVar gv{"main"};\n', span=(1, 1, 1, 21)),
        # The constructor of releases before 0.7.
        Invalid(
            "GlobalVar Lift(IRModule mod, const Function& f) {\n"
            '  auto gv = relay::GlobalVarNode::make("lifted");\n  mod->Add(gv, f);\n'
            "  return gv;\n}\n",
            span=(2, 13, 2, 49),
            fixed="#include <tvm/ir/global_var_supply.h>\n\n"
            "GlobalVar Lift(IRModule mod, const Function& f) {\n"
            "  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
            '  auto gv = global_var_supply->FreshGlobal("lifted", false);\n'
            "  mod->Add(gv, f);\n  return gv;\n}\n",
        ),
        Invalid("GlobalVar gv = GlobalVar(name, type);\n", span=(1, 16, 1, 37)),
        Invalid('auto gv = tvm::GlobalVar("main");\n', span=(1, 11, 1, 33)),
        Invalid('return relay::GlobalVar(\n    "main");\n', span=(1, 8, 2, 12)),
        Invalid(
            'GlobalVar Main(IRModule mod) {\n  static GlobalVar gv("main");\n  return gv;\n}\n',
            span=(2, 10, 2, 30),
            message=_MADE_ONCE,
        ),
        Invalid(
            'void Lower(IRModule mod) {\n  thread_local GlobalVar gv = GlobalVar("f");\n}\n',
            span=(2, 31, 2, 45),
            message=_MADE_ONCE,
        ),
        # tree-sitter reads an attribute macro before the type as the type.
        Invalid('TVM_ATTRIBUTE_UNUSED static GlobalVar gv("d");\n', span=(1, 29, 1, 46)),
        Invalid(
            "void Lower(IRModule mod, BaseFunc f) {\n"
            '  TVM_ATTRIBUTE_UNUSED GlobalVar gv("f");\n  mod->Add(gv, f);\n}\n',
            span=(2, 24, 2, 41),
            fixed="#include <tvm/ir/global_var_supply.h>\n\n"
            "void Lower(IRModule mod, BaseFunc f) {\n"
            "  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
            '  TVM_ATTRIBUTE_UNUSED GlobalVar gv = global_var_supply->FreshGlobal("f", false);\n'
            "  mod->Add(gv, f);\n}\n",
        ),
        Invalid(
            "void Lower(IRModule mod, BaseFunc f) {\n"
            '  ALIGNED(8) GlobalVar gv("f");\n  mod->Add(gv, f);\n}\n',
            span=(2, 14, 2, 31),
            message=_MACRO_BEFORE,
        ),
        # A lambda called where it is written runs with the initializer: made once too.
        Invalid(
            "GlobalVar Main(IRModule mod) {\n"
            '  static GlobalVar gv = [&] { return GlobalVar("j"); }();\n  return gv;\n}\n',
            span=(2, 38, 2, 52),
            message=_MADE_ONCE,
        ),
        Invalid(
            "GlobalVar Main(IRModule mod) {\n"
            '  static GlobalVar gv = ([]() { return GlobalVar("k"); })();\n  return gv;\n}\n',
            span=(2, 40, 2, 54),
            message=_MADE_ONCE,
        ),
        # One handed to a function that calls it there (std::invoke): made once too.
        Invalid(
            "GlobalVar Main(IRModule mod) {\n"
            '  static GlobalVar gv = std::invoke([&] { return GlobalVar("j"); });\n'
            "  return gv;\n}\n",
            span=(2, 50, 2, 64),
            message=_MADE_ONCE,
        ),
        # One registered as a callback runs at each of its calls: its body is its scope.
        Invalid(
            "template <typename F>\nint OnLower(F f) { return 0; }\n"
            "void Register(IRModule mod) {\n"
            "  static auto cb = OnLower([](IRModule m, BaseFunc f) {\n"
            '    GlobalVar gv("h");\n    m->Add(gv, f);\n  });\n}\n',
            span=(5, 5, 5, 22),
            fixed="#include <tvm/ir/global_var_supply.h>\n\n"
            "template <typename F>\nint OnLower(F f) { return 0; }\n"
            "void Register(IRModule mod) {\n"
            "  static auto cb = OnLower([](IRModule m, BaseFunc f) {\n"
            "    GlobalVarSupply global_var_supply = GlobalVarSupply(m);\n"
            '    GlobalVar gv = global_var_supply->FreshGlobal("h", false);\n'
            "    m->Add(gv, f);\n  });\n}\n",
        ),
        # A lambda kept in a static local runs at every call: its own body is its scope.
        Invalid(
            "void Register() {\n  static auto lower = [](IRModule mod, BaseFunc f) {\n"
            '    GlobalVar gv("f");\n    mod->Add(gv, f);\n  };\n}\n',
            span=(3, 5, 3, 22),
            fixed="#include <tvm/ir/global_var_supply.h>\n\nvoid Register() {\n"
            "  static auto lower = [](IRModule mod, BaseFunc f) {\n"
            "    GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
            '    GlobalVar gv = global_var_supply->FreshGlobal("f", false);\n'
            "    mod->Add(gv, f);\n  };\n}\n",
        ),
        Invalid(
            "auto n = make_object<GlobalVarNode>();\n",
            span=(1, 10, 1, 38),
            message=replace(
                META.message,
                no_fix="make_object<GlobalVarNode>() fills the "
                "node by hand; take the GlobalVar from a supply instead",
            ),
        ),
        # Several sites of a function share one supply, declared outside the loop; a
        # macro nearby, braces and comments are kept.
        Invalid(
            "#include <tvm/ir/module.h>\n\n"
            "void Lift(IRModule mod, const Array<Function>& funcs) {\n"
            '  ICHECK(mod.defined()) << "needs a module";\n'
            "  for (const Function& f : funcs) {\n    // One global per function.\n"
            "    GlobalVar gv = GlobalVar(\n"
            '        "lifted");  // keep this comment\n    mod->Add(gv, f);\n  }\n'
            '  GlobalVar main{"main"};\n  mod->Add(main, funcs[0]);\n}\n',
            span=(7, 20, 8, 18),
            also=((11, 3, 11, 25),),
            fixed="#include <tvm/ir/global_var_supply.h>\n#include <tvm/ir/module.h>\n\n"
            "void Lift(IRModule mod, const Array<Function>& funcs) {\n"
            '  ICHECK(mod.defined()) << "needs a module";\n'
            "  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
            "  for (const Function& f : funcs) {\n    // One global per function.\n"
            "    GlobalVar gv = global_var_supply->FreshGlobal(\n"
            '        "lifted", false);  // keep this comment\n    mod->Add(gv, f);\n  }\n'
            '  GlobalVar main = global_var_supply->FreshGlobal("main", false);\n'
            "  mod->Add(main, funcs[0]);\n}\n",
        ),
        # A member supply is used; a global_symbol names an existing function.
        Invalid(
            "class Lowerer {\n public:\n  GlobalVar Lower(const Function& func) {\n"
            "    auto symbol = func->GetAttr<String>(tvm::attr::kGlobalSymbol);\n"
            "    return GlobalVar(symbol.value());\n  }\n\n private:\n"
            "  GlobalVarSupply global_var_supply_;\n};\n",
            span=(5, 12, 5, 37),
            fixed="#include <tvm/ir/global_var_supply.h>\n\n"
            "class Lowerer {\n public:\n  GlobalVar Lower(const Function& func) {\n"
            "    auto symbol = func->GetAttr<String>(tvm::attr::kGlobalSymbol);\n"
            "    return global_var_supply_->UniqueGlobalFor(symbol.value(), false);\n  }\n\n"
            " private:\n  GlobalVarSupply global_var_supply_;\n};\n",
        ),
        # The module the global is added to, through a pointer member.
        Invalid(
            "class Splitter {\n"
            "  void Split(const PrimFunc& func, const std::string& kernel_symbol) {\n"
            "    (*device_mod_)->Add(GlobalVar(kernel_symbol), func);\n  }\n"
            "  IRModule* device_mod_;\n};\n",
            span=(3, 25, 3, 49),
            fixed="#include <tvm/ir/global_var_supply.h>\n\nclass Splitter {\n"
            "  void Split(const PrimFunc& func, const std::string& kernel_symbol) {\n"
            "    GlobalVarSupply global_var_supply = GlobalVarSupply(*device_mod_);\n"
            "    (*device_mod_)->Add(global_var_supply->FreshGlobal(kernel_symbol, false), func);\n"
            "  }\n  IRModule* device_mod_;\n};\n",
        ),
        Invalid(
            'GlobalVar Make() { return GlobalVar("g"); }\n',
            span=(1, 27, 1, 41),
            message=replace(
                META.message,
                no_fix="no GlobalVarSupply or IRModule in scope to name it with",
            ),
        ),
        Invalid(
            "IRModule Build(IRModule mod, const Function& f) {\n"
            '  auto gv = GlobalVar("main");\n  mod->Add(gv, f);\n  return mod;\n}\n',
            span=(2, 13, 2, 30),
            message=MESSAGE_UNIQUE_NAMES,
            config={"tvm-version": "0.26"},
            fixed="#include <tvm/ir/unique_name_supply.h>\n\n"
            "IRModule Build(IRModule mod, const Function& f) {\n"
            "  UniqueNameSupply global_names(mod->functions.begin(), mod->functions.end(),\n"
            "                                [](const auto& kv) { return kv.first->name_hint; });\n"
            '  auto gv = GlobalVar(global_names->FreshName("main", false));\n'
            "  mod->Add(gv, f);\n  return mod;\n}\n",
        ),
    ]
