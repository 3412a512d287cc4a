"""GV302: a function's global_symbol removed, in Python and C++."""

from lintgv.config import DEFAULT_RELEASE, Config
from lintgv.model import Language, Message, Severity
from lintgv.release import Release
from lintgv.rules._base import Invalid, MigrationPhase, RuleMeta, Valid
from lintgv.rules._global_symbol.base import (
    PYTHON_PARSE_LIMITS,
    GlobalSymbolCpp,
    GlobalSymbolPython,
)
from lintgv.rules._global_symbol.messages import Evidence, Kind, remove_message

META = RuleMeta(
    code="GV302",
    phase=MigrationPhase.GLOBAL_SYMBOLS,
    name="global-symbol-removal",
    severity=Severity.WARNING,
    message=Message(
        "global_symbol removed: a function keeps its external name once it has one",
        "keep it and fix the name at birth with `UniqueGlobalFor(global_symbol)`",
    ),
)

_DOC = (
    """A function's `global_symbol` is removed.

    ## Why it matters
    `global_symbol` (`tvm::attr::kGlobalSymbol`) is the function's external name in the
    object file. Once a function carries one, TVM's convention (RFC 0077 discussion) is
    that no pass changes or deletes it: callers, the runtime and other modules linked
    into the same binary look the function up by it. Removing it is worse than a first
    setting: the function silently stops being exported, or gets a different name later.

    Spellings: C++ `WithoutAttr(f, tvm::attr::kGlobalSymbol)`, `WithoutAttr(std::move(f),
    "global_symbol")`, `BaseFuncWithoutAttr`, a registered remover called through a
    variable (`(*RemoveFuncAttrFunc)(f, kGlobalSymbol)`), `dict.erase(kGlobalSymbol)`,
    however the call is spread over lines; Python `f.without_attr("global_symbol")`.
    When the function visibly had a symbol (read first, taken from a module), the
    message says where. Reads, other attributes and unrelated constants called
    `kGlobalSymbol` are not reported.

    ## Fix
    None: only a person can tell whether the function must stop being exported. Keep
    the symbol; when a private copy is what is wanted, make a new function whose
    GlobalVar comes from the supply (`supply->UniqueGlobalFor(global_symbol, false)`;
    with `tvm-version = "0.25"`, `names->ReserveName(global_symbol, false)`).

    ## Known limits
    A remover under another name, or a map of attributes rebuilt without the key, is
    not seen.

"""
    + PYTHON_PARSE_LIMITS
    + """    ## See also
    GV301 (setting and overwriting), GV303 (TVMScript); RFC 0077.
    """
)


def _removed(
    language: Language, evidence: Evidence | None = None, release: Release = DEFAULT_RELEASE
) -> Message:
    return remove_message(Config(release=release), language, evidence)


class GlobalSymbolRemovalPython(GlobalSymbolPython):
    __doc__ = _DOC

    META = META
    KIND = Kind.REMOVE
    VALID = [
        Valid('def drop_target(func):\n    return func.without_attr("target")\n'),
        Valid(
            "def is_public(func):\n"
            '    return func.attrs is not None and "global_symbol" in func.attrs\n'
        ),
    ]
    INVALID = [
        Invalid(
            'def make_private(func):\n    return func.without_attr("global_symbol")\n',
            span=(2, 12, 2, 46),
            message=_removed(Language.PYTHON),
        ),
        Invalid(
            "def strip(mod):\n"
            "    for gvar, func in mod.functions.items():\n"
            '        mod[gvar] = func.without_attr("global_symbol")\n'
            "    return mod\n",
            span=(3, 21, 3, 55),
            message=_removed(Language.PYTHON, Evidence("`func` is taken from the module", 2)),
        ),
        Invalid(
            'def private(func):\n    return func.without_attr("global_symbol")\n',
            span=(2, 12, 2, 46),
            config={"tvm-version": "0.26"},
            message=_removed(Language.PYTHON, release=Release(26, "0.26")),
        ),
    ]


class GlobalSymbolRemovalCpp(GlobalSymbolCpp):
    __doc__ = _DOC

    META = META
    KIND = Kind.REMOVE
    VALID = [
        Valid("Function Untarget(Function f) {\n  return WithoutAttr(f, tvm::attr::kTarget);\n}\n"),
        Valid(
            "bool IsExternal(const BaseFunc& f) {\n"
            "  return f->GetAttr<String>(tvm::attr::kGlobalSymbol).defined();\n}\n"
        ),
    ]
    INVALID = [
        Invalid(
            "Function MakePrivate(Function f) {\n"
            "  return WithoutAttr(std::move(f), tvm::attr::kGlobalSymbol);\n}\n",
            span=(2, 10, 2, 61),
            message=_removed(Language.CPP),
        ),
        # Spread over lines, with the string key, next to a macro.
        Invalid(
            'TVM_REGISTER_GLOBAL("relax.MakePrivate").set_body_typed([](Function f) {\n'
            "  return WithoutAttr(f,\n"
            '                     "global_symbol");\n'
            "});\n",
            span=(2, 10, 3, 38),
        ),
        Invalid(
            "void Inline(IRModule mod, GlobalVar gvar) {\n"
            "  BaseFunc func = mod->Lookup(gvar);\n"
            "  mod->Update(gvar, BaseFuncWithoutAttr(func, tvm::attr::kGlobalSymbol));\n}\n",
            span=(3, 21, 3, 72),
            message=_removed(Language.CPP, Evidence("`func` is taken from the module", 2)),
        ),
        Invalid(
            "Function Strip(Function func) {\n"
            '  static const auto remove = tvm::ffi::Function::GetGlobal("relax.FuncWithoutAttr");\n'
            "  return (*RemoveFuncAttrFunc)(func, tvm::attr::kGlobalSymbol).cast<Function>();\n}\n",
            span=(3, 10, 3, 63),
        ),
        # Erased from a copy of the function's own attributes.
        Invalid(
            "Function Internal(Function func) {\n"
            "  auto dict = func->attrs->dict;\n"
            "  dict.erase(tvm::attr::kGlobalSymbol);\n"
            "  return WithFields(func, {}, {}, {}, DictAttrs(dict));\n}\n",
            span=(3, 3, 3, 39),
            message=_removed(
                Language.CPP, Evidence("`dict` copies an existing function's attributes", 2)
            ),
        ),
        Invalid(
            "Function MakePrivate(Function f) {\n"
            "  return WithoutAttr(std::move(f), tvm::attr::kGlobalSymbol);\n}\n",
            span=(2, 10, 2, 61),
            config={"tvm-version": "0.26"},
            message=_removed(Language.CPP, release=Release(26, "0.26")),
        ),
    ]
