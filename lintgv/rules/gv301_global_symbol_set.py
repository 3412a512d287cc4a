"""GV301: a function's global_symbol set, or overwritten, in Python and C++."""

from lintgv.config import Config
from lintgv.model import Language, Message, Severity
from lintgv.release import Release
from lintgv.rules._base import Invalid, MigrationPhase, RuleMeta, Valid
from lintgv.rules._global_symbol.base import (
    PYTHON_PARSE_LIMITS,
    GlobalSymbolCpp,
    GlobalSymbolPython,
)
from lintgv.rules._global_symbol.messages import Evidence, Kind, set_message

META = RuleMeta(
    code="GV301",
    phase=MigrationPhase.GLOBAL_SYMBOLS,
    name="global-symbol-set",
    severity=Severity.WARNING,
    message=Message(
        "global_symbol set or overwritten",
        "fix the name at birth with `UniqueGlobalFor(global_symbol)` and never change it",
    ),
)

_DOC = (
    """A function's `global_symbol` is set, or overwritten, after the function was made.

    ## Why it matters
    `global_symbol` (`tvm::attr::kGlobalSymbol`) is the external name a function gets in
    the object file. The convention the TVM maintainers stated for RFC 0077 ("Name
    mangling in IRModules"): attach it as late as possible, and once a function carries
    one, no pass may change it, since callers, the runtime and other linked modules
    depend on it. A pass that rewrites it breaks them silently; one that sets it for the
    first time should take the name from the module's supply so it cannot clash.

    The message says which it is. An **overwrite** (severity warning) is a setting on a
    function that, visibly in the same function, already had a symbol: its
    `global_symbol` is read or tested first (`f->GetAttr<String>(tvm::attr::kGlobalSymbol)`,
    `attrs.count(kGlobalSymbol)`, `f.attrs["global_symbol"]`, `"global_symbol" in
    f.attrs`), it was set earlier on the same variable with the result stored back
    (`f = f.with_attr(...)`; a bare `f.with_attr(...)` makes a copy), the function was
    taken from a module (`mod->Lookup(gv)`, a loop over `mod->functions`, `mod[gv]`,
    `mod.functions.items()`, followed through a few assignments, but not into a new
    `Function(...)`/`PrimFunc(...)` built from its parts), or an attribute map
    copies an existing function's attributes (`auto dict = f->attrs->dict;`). Anything
    else is a **first setting** (severity info).

    Spellings: C++ `WithAttr(f, tvm::attr::kGlobalSymbol, v)`, `WithAttr(std::move(f),
    "global_symbol", v)`, `BaseFuncWithAttr`, `WithAttrs(f, {{tvm::attr::kGlobalSymbol,
    v}})`, `DictAttrs({{"global_symbol", v}})`, `dict.Set(kGlobalSymbol, v)`, however the
    call is spread over lines (also with a `Map<String, ObjectRef>{...}` literal);
    Python `f.with_attr("global_symbol", v)`, `f.with_attr({"global_symbol": v})` and
    `f.with_attrs({"global_symbol": v})`. An existing symbol copied unchanged
    (`f.with_attr("global_symbol", g.attrs["global_symbol"])`, `{kGlobalSymbol,
    dict.at(kGlobalSymbol)}`) is carried over, not changed. Reads, a variable that is merely called
    `global_symbol`, and a constant of another scope that happens to be called
    `kGlobalSymbol` (`Serializer::kGlobalSymbol`, or a file's own `static constexpr
    const char* kGlobalSymbol = "other"`) are not reported.

    ## Fix
    None: whether a symbol may change is a human decision. Fix the name at birth: take
    the function's GlobalVar from `supply->UniqueGlobalFor(global_symbol, false)`
    (Python `supply.unique_global_for(global_symbol, False)`), so the name is reserved
    and stays; with `tvm-version = "0.25"`, reserve it with
    `names->ReserveName(global_symbol, false)` and name the GlobalVar after it.

    ## Known limits
    The first-setting/overwrite call looks at one function only. A function that is
    passed in as a parameter and already has a symbol, or whose symbol a helper function
    read (`auto gs = RequiresPackedAPI(func)`), is reported as a first setting. A read
    counts only when it is of the changed function or of a variable it was made from. A
    test right around the setting is understood (`if (!f->GetAttr(k)) { set }`, the
    `else` of a positive test, an early `return`); in C++ also through a variable that
    holds the read (`auto gs = f->GetAttr(k); if (!gs) { set }`), in Python only on the
    read itself. `with_attrs(attrs)` with a map built elsewhere, and attribute maps
    filled through other names, are not seen. A setting in a lambda handed to
    `transform.Apply(lambda f: ...)` is an overwrite (Apply hands it each function of the
    module); a lambda stored in a variable first and passed by name is not followed.

"""
    + PYTHON_PARSE_LIMITS
    + """    ## See also
    GV302 (removal), GV303 (TVMScript `T.func_attr`); RFC 0077, "Drawbacks";
    `GlobalVarSupply::UniqueGlobalFor` (TVM 0.10 to 0.24), `UniqueNameSupply` (TVM 0.25).
    """
)


def _overwrite(language: Language, reason: str, line: int, config: Config | None = None) -> Message:
    return set_message(config or Config(), language, Evidence(reason, line))


def _first(language: Language, config: Config | None = None) -> Message:
    return set_message(config or Config(), language, None)


class GlobalSymbolSetPython(GlobalSymbolPython):
    __doc__ = _DOC

    META = META
    KIND = Kind.SET
    VALID = [
        # Reads.
        Valid(
            "def symbol_of(func):\n"
            '    if "global_symbol" in func.attrs:\n'
            '        return func.attrs["global_symbol"]\n'
            "    return None\n"
        ),
        # A variable merely named global_symbol, and another attribute.
        Valid(
            "def tag(func, global_symbol):\n"
            '    func = func.with_attr("target", global_symbol)\n'
            '    return func.with_attrs({"tir.noalias": True})\n'
        ),
        Valid('"""Call f.with_attr("global_symbol", "main") to export it."""\n'),
        # The lowered function keeps the symbol of the one it was lowered from.
        Valid(
            "def lower(func, tir_mod):\n"
            '    prim_func = tir_mod["main"]\n'
            '    return prim_func.with_attr("global_symbol", func.attrs["global_symbol"])\n'
        ),
    ]
    INVALID = [
        Invalid(
            'def export(func, name):\n    return func.with_attr("global_symbol", name)\n',
            span=(2, 12, 2, 49),
            message=_first(Language.PYTHON),
        ),
        # The function comes from the module: it is an overwrite.
        Invalid(
            "def rename_main(mod, new_name):\n"
            '    func = mod["main"]\n'
            '    mod[new_name] = func.with_attr("global_symbol", new_name)\n'
            "    return mod\n",
            span=(3, 21, 3, 62),
            message=_overwrite(Language.PYTHON, "`func` is taken from the module", 2),
        ),
        Invalid(
            "def strip(mod):\n"
            "    for gvar, func in mod.functions.items():\n"
            '        mod[gvar] = func.with_attrs({"global_symbol": gvar.name_hint})\n',
            span=(3, 21, 3, 71),
            message=_overwrite(Language.PYTHON, "`func` is taken from the module", 2),
        ),
        # transform.Apply hands the lambda each function of the module: an overwrite.
        Invalid(
            "import tvm\n\n\ndef rename_all(mod):\n"
            "    return tvm.tir.transform.Apply(\n"
            '        lambda f: f.with_attr("global_symbol", "test")\n    )(mod)\n',
            span=(6, 19, 6, 55),
            message=_overwrite(
                Language.PYTHON, "`f` is each function of the module (transform.Apply)", 5
            ),
        ),
        # Functions a pass was handed (its own dict), not taken from the module: a first
        # setting, whatever the dict is called.
        Invalid(
            "class AttachFuncs:\n    def transform_module(self, mod, ctx):\n"
            "        for name, func in self.functions.items():\n"
            '            mod[name] = func.with_attr("global_symbol", name)\n'
            "        return mod\n",
            span=(4, 25, 4, 62),
            message=_first(Language.PYTHON),
        ),
        # A new function built from an old one's parts starts without attributes.
        Invalid(
            "from tvm import relax\n\n\ndef rename(mod):\n"
            "    for gvar, func in mod.functions.items():\n"
            "        new_func = relax.Function(func.params, func.body, func.ret_ty)\n"
            '        return new_func.with_attr("global_symbol", "main")\n',
            span=(7, 16, 7, 59),
            message=_first(Language.PYTHON),
        ),
        # The dictionary form of with_attr.
        Invalid(
            "from tvm import te\n\n\ndef build(a, b):\n"
            '    return te.create_prim_func([a, b]).with_attr({"global_symbol": "add"})\n',
            span=(5, 12, 5, 75),
            message=_first(Language.PYTHON),
        ),
        # Read first.
        Invalid(
            "def prefix(func, prefix):\n"
            '    old = func.attrs["global_symbol"]\n'
            '    return func.with_attr("global_symbol", prefix + old)\n',
            span=(3, 12, 3, 57),
            message=_overwrite(Language.PYTHON, "its global_symbol is read first", 2),
        ),
        # A test that lets the setting run only without a symbol: a first setting.
        Invalid(
            "def ensure(func, name):\n"
            '    if func.attrs is None or "global_symbol" not in func.attrs:\n'
            '        func = func.with_attr("global_symbol", name)\n'
            "    return func\n",
            span=(3, 16, 3, 53),
            message=_first(Language.PYTHON),
        ),
        Invalid(
            "import tvm\n\n\ndef lower(mod, name):\n"
            '    return mod[name].with_attr("global_symbol", name)\n',
            span=(5, 12, 5, 54),
            config={"tvm-version": "0.26"},
            message=set_message(
                Config(release=Release(26, "0.26")),
                Language.PYTHON,
                Evidence("the function is taken from the module", 5),
            ),
        ),
    ]


class GlobalSymbolSetCpp(GlobalSymbolCpp):
    __doc__ = _DOC

    META = META
    KIND = Kind.SET
    VALID = [
        Valid(
            "String SymbolOf(const BaseFunc& func) {\n"
            "  auto global_symbol = func->GetAttr<String>(tvm::attr::kGlobalSymbol);\n"
            '  return global_symbol.value_or("");\n}\n'
        ),
        Valid(
            "PrimFunc Tag(PrimFunc f, String global_symbol) {\n"
            '  return WithAttr(std::move(f), "target", global_symbol);\n}\n'
        ),
        # A constant of another class that is also called kGlobalSymbol.
        Valid(
            "class Serializer {\n"
            '  static constexpr const char* kGlobalSymbol = "tvmgen_metadata";\n'
            '  PrimFunc Mark(PrimFunc f) { return WithAttr(f, kGlobalSymbol, String("x")); }\n'
            "};\n"
        ),
        Valid(
            '// WithAttr(f, tvm::attr::kGlobalSymbol, "main")\nconst char* s = "kGlobalSymbol";\n'
        ),
        # The symbol is carried over unchanged.
        Valid(
            "PrimFunc Strip(PrimFunc func, bool printable) {\n"
            "  DictAttrs attrs = func->attrs;\n"
            "  if (printable && attrs->dict.count(tvm::attr::kGlobalSymbol)) {\n"
            "    attrs = DictAttrs(\n"
            "        {{tvm::attr::kGlobalSymbol, attrs->dict.at(tvm::attr::kGlobalSymbol)}});\n"
            "  }\n  return WithFields(func, {}, {}, {}, attrs);\n}\n"
        ),
    ]
    INVALID = [
        Invalid(
            "PrimFunc MakeKernel(PrimFunc func, const String& name) {\n"
            "  return WithAttr(std::move(func), tvm::attr::kGlobalSymbol, name);\n}\n",
            span=(2, 10, 2, 67),
            message=_first(Language.CPP),
        ),
        # Spread over lines, with the string key.
        Invalid(
            "Function Export(Function f) {\n"
            "  return WithAttr(f,\n"
            '                  "global_symbol",\n'
            '                  String("main"));\n}\n',
            span=(2, 10, 4, 34),
        ),
        # Read first: an overwrite, inside a registered lambda next to a macro.
        Invalid(
            'TVM_REGISTER_GLOBAL("relax.AddPrefix").set_body_typed([](PrimFunc f, String p) {\n'
            "  auto old = f->GetAttr<String>(tvm::attr::kGlobalSymbol);\n"
            '  ICHECK(old) << "no symbol";\n'
            "  return WithAttr(f, tvm::attr::kGlobalSymbol, p + old.value());\n"
            "});\n",
            span=(4, 10, 4, 64),
            message=_overwrite(Language.CPP, "its global_symbol is read first", 2),
        ),
        # Taken from the module through a loop and a cast.
        Invalid(
            "IRModule Attach(IRModule mod) {\n"
            "  for (const auto& [gvar, func] : mod->functions) {\n"
            "    if (auto* prim_func = func.as<PrimFuncNode>()) {\n"
            "      auto updated = WithAttr(GetRef<PrimFunc>(prim_func),\n"
            "                              tvm::attr::kGlobalSymbol, gvar->name_hint);\n"
            "      mod->Update(gvar, updated);\n    }\n  }\n  return mod;\n}\n",
            span=(4, 22, 5, 73),
            message=_overwrite(Language.CPP, "`func` is taken from the module", 2),
        ),
        # Several attributes at once; the symbol was read first.
        Invalid(
            "PrimFunc Pack(PrimFunc func, Target target) {\n"
            "  auto symbol = func->GetAttr<String>(tvm::attr::kGlobalSymbol);\n"
            "  func = WithAttrs(std::move(func), {{tvm::attr::kTarget, target},\n"
            '                                    {tvm::attr::kGlobalSymbol, "packed_" + '
            "symbol.value()}});\n"
            "  return func;\n}\n",
            span=(3, 10, 4, 93),
            message=_overwrite(Language.CPP, "its global_symbol is read first", 2),
        ),
        # A map literal of several attributes, in a header's inline function.
        Invalid(
            "inline IRModule ToModule(tir::PrimFunc f) {\n"
            "  f = WithAttrs(f, Map<String, ObjectRef>{\n"
            '                      {tvm::attr::kGlobalSymbol, String("main")},\n'
            "                      {tvm::tir::attr::kNoAlias, Bool(1)},\n"
            "                  });\n"
            '  return IRModule({{GlobalVar("main"), f}});\n}\n',
            span=(2, 7, 5, 21),
            path="src/relay/backend/utils.h",
        ),
        # A copy of an existing function's attributes.
        Invalid(
            "Function Mangle(Function func, String name) {\n"
            "  auto dict = func->attrs->dict;\n"
            "  dict.Set(tvm::attr::kGlobalSymbol, name);\n"
            "  return WithFields(func, {}, {}, {}, DictAttrs(dict));\n}\n",
            span=(3, 3, 3, 43),
            message=_overwrite(Language.CPP, "`dict` copies an existing function's attributes", 2),
        ),
        # Set only when there is none: a first setting; a fresh map is one too.
        Invalid(
            "PrimFunc Ensure(PrimFunc func, GlobalVar gvar) {\n"
            "  if (!func->GetAttr<String>(tvm::attr::kGlobalSymbol)) {\n"
            "    func = WithAttr(func, tvm::attr::kGlobalSymbol, gvar->name_hint);\n  }\n"
            "  return func;\n}\n",
            span=(3, 12, 3, 69),
            message=_first(Language.CPP),
        ),
        # The same test through a variable holding the read.
        Invalid(
            "PrimFunc Ensure(PrimFunc func, GlobalVar gvar) {\n"
            "  auto symbol = func->GetAttr<String>(tvm::attr::kGlobalSymbol);\n"
            "  if (symbol.defined()) return func;\n"
            "  return WithAttr(func, tvm::attr::kGlobalSymbol, gvar->name_hint);\n}\n",
            span=(4, 10, 4, 67),
            message=_first(Language.CPP),
        ),
        Invalid(
            "TVM_DLL PrimFunc MakeExtern(const GlobalVar& gvar) {\n"
            "  Map<String, ObjectRef> dict_attrs;\n"
            '  dict_attrs.Set("global_symbol", gvar->name_hint);\n'
            "  return PrimFunc({}, Evaluate(0), VoidType(), {}, DictAttrs(dict_attrs));\n}\n",
            span=(3, 3, 3, 51),
            message=_first(Language.CPP),
        ),
        # The symbol read is another function's; the new one is made here.
        Invalid(
            "PrimFunc Codegen(const Function& func, Stmt body) {\n"
            "  auto gsymbol = func->GetAttr<String>(tvm::attr::kGlobalSymbol);\n"
            '  ICHECK(gsymbol.defined()) << "needs a symbol";\n'
            "  PrimFunc tir_func({}, body, VoidType(), {});\n"
            '  return WithAttr(tir_func, "global_symbol", "__vm__" + gsymbol.value());\n}\n',
            span=(5, 10, 5, 73),
            message=_first(Language.CPP),
        ),
        Invalid(
            "PrimFunc Build(PrimFunc body_func) {\n"
            '  return WithAttrs(body_func, {{"global_symbol", String("main")}, '
            '{"tir.noalias", true}});\n}\n',
            span=(2, 10, 2, 90),
            config={"tvm-version": "0.26"},
            message=_first(Language.CPP, Config(release=Release(26, "0.26"))),
        ),
    ]
