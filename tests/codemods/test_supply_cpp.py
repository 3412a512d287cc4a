"""GV101 fixes in C++: before and after, beyond the rule's own examples."""

from collections.abc import Callable
from pathlib import Path

from lintgv.config import Config, apply_settings
from lintgv.edits import apply_edits
from lintgv.engine import check
from lintgv.fixing.settle import settle
from lintgv.model import Applicability, FileResult, Language, SourceFile

ROOT = Path("/project")


def _checker(tvm_version: str = "0.16") -> Callable[[str], FileResult]:
    config = apply_settings(Config(root=ROOT), {"tvm-version": tvm_version}, None)

    def run(text: str) -> FileResult:
        return check(SourceFile(ROOT / "src" / "a.cc", Language.CPP, text), config, whole=True)

    return run


def fixed(code: str, tvm_version: str = "0.16") -> str:
    return settle(code, Language.CPP, _checker(tvm_version), unsafe=True).text


def findings(code: str) -> list[tuple[str, str | None]]:
    result = _checker()(code)
    return [(f.message, f.fix.applicability if f.fix else None) for f in result.findings]


def test_a_taken_supply_name_gets_a_counter() -> None:
    code = (
        "void F(IRModule mod, int global_var_supply) {\n"
        '  GlobalVar gv("f");\n  mod->Add(gv, x);\n}\n'
    )
    assert "GlobalVarSupply global_var_supply_2 = GlobalVarSupply(mod);" in fixed(code)


def test_each_function_gets_its_own_supply() -> None:
    code = (
        "#include <tvm/ir/global_var_supply.h>\n\n"
        'void F(IRModule a) { GlobalVar g("f"); a->Add(g, x); }\n'
        'void G(IRModule b) {\n  GlobalVar g("g");\n  b->Add(g, x);\n}\n'
    )
    assert fixed(code) == (
        "#include <tvm/ir/global_var_supply.h>\n\n"
        "void F(IRModule a) { GlobalVarSupply global_var_supply = GlobalVarSupply(a); "
        'GlobalVar g = global_var_supply->FreshGlobal("f", false); a->Add(g, x); }\n'
        "void G(IRModule b) {\n  GlobalVarSupply global_var_supply = GlobalVarSupply(b);\n"
        '  GlobalVar g = global_var_supply->FreshGlobal("g", false);\n  b->Add(g, x);\n}\n'
    )


def test_a_quoted_include_of_the_header_counts() -> None:
    code = (
        '#include "tvm/ir/global_var_supply.h"\n\n'
        'void F(GlobalVarSupply s) { auto g = GlobalVar("f"); }\n'
    )
    assert fixed(code).count("global_var_supply.h") == 1


def test_the_include_goes_below_the_header_guard() -> None:
    code = (
        "#ifndef A_H_\n#define A_H_\n\n"
        'inline void F(GlobalVarSupply s) { auto g = GlobalVar("f"); }\n\n#endif\n'
    )
    assert fixed(code).startswith(
        "#ifndef A_H_\n#define A_H_\n#include <tvm/ir/global_var_supply.h>\n\n"
    )


def test_a_module_declared_in_a_block_gets_the_supply_in_that_block() -> None:
    code = (
        "void F(bool b) {\n  if (b) {\n    IRModule m = IRModule({});\n"
        '    GlobalVar g("a");\n    m->Add(g, x);\n  }\n}\n'
    )
    assert fixed(code).endswith(
        "  if (b) {\n    IRModule m = IRModule({});\n"
        "    GlobalVarSupply global_var_supply = GlobalVarSupply(m);\n"
        '    GlobalVar g = global_var_supply->FreshGlobal("a", false);\n    m->Add(g, x);\n  }\n}\n'
    )


def test_a_module_made_after_the_site_gives_no_fix_and_says_why() -> None:
    code = 'void F() {\n  GlobalVar g("a");\n  IRModule m = IRModule({});\n  m->Add(g, x);\n}\n'
    [(message, applicability)] = findings(code)
    # A new, empty supply is only suggested: it would know no other function's name.
    assert applicability == Applicability.DISPLAY
    assert fixed(code) == code
    assert message.endswith(
        "no automatic fix: the IRModule it is added to (`m`) is made after this line"
    )


def test_a_lambda_without_captures_cannot_see_the_module() -> None:
    code = 'void F(IRModule mod) {\n  auto make = []() { return GlobalVar("f"); };\n}\n'
    [(message, applicability)] = findings(code)
    assert applicability == Applicability.DISPLAY
    assert "no GlobalVarSupply or IRModule in scope" in message


def test_a_capturing_lambda_declares_the_supply_in_its_body() -> None:
    code = 'void F(IRModule mod) {\n  auto make = [&]() {\n    return GlobalVar("f");\n  };\n}\n'
    assert (
        "  auto make = [&]() {\n    GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
        '    return global_var_supply->FreshGlobal("f", false);\n  };\n'
    ) in fixed(code)


def test_two_modules_in_scope_make_the_fix_display_only() -> None:
    code = 'void F(IRModule a, IRModule b) {\n  auto g = GlobalVar("f");\n}\n'
    [(_, applicability)] = findings(code)
    assert applicability == Applicability.DISPLAY
    assert fixed(code) == code


def test_a_name_looked_up_again_uses_unique_global_for() -> None:
    code = (
        "void F(IRModule mod, const std::string& name) {\n"
        "  auto g = GlobalVar(name);\n"
        "  if (mod->ContainGlobalVar(name)) g = mod->GetGlobalVar(name);\n}\n"
    )
    assert "global_var_supply->UniqueGlobalFor(name, false)" in fixed(code)


def test_a_name_derived_from_a_name_hint_is_fresh() -> None:
    code = (
        "void F(IRModule mod, GlobalVar op) {\n"
        '  GlobalVar g(op->name_hint + "_grad");\n  mod->Add(g, x);\n}\n'
    )
    assert 'FreshGlobal(op->name_hint + "_grad", false)' in fixed(code)


def test_a_member_initializer_gets_no_fix() -> None:
    code = 'class A {\n  A(IRModule m) : gv_(GlobalVar("f")) {}\n  GlobalVar gv_;\n};\n'
    [(message, applicability)] = findings(code)
    assert applicability is None
    assert "not inside a function body" in message


def test_tvm_0_26_keeps_the_type_argument() -> None:
    code = 'void F(IRModule mod, Type t) {\n  GlobalVar g("f", t);\n  mod->Add(g, x);\n}\n'
    assert 'GlobalVar g(global_names->FreshName("f", false), t);' in fixed(code, "0.26")


def test_tvm_0_26_uses_a_unique_name_supply_in_scope() -> None:
    code = "void F(UniqueNameSupply names) {\n  auto g = GlobalVar(op->name_hint);\n}\n"
    assert fixed(code, "0.26").endswith(
        "  auto g = GlobalVar(names->ReserveName(op->name_hint, false));\n}\n"
    )


def test_a_name_also_set_as_the_global_symbol_keeps_its_name() -> None:
    # The function added under this global carries the same name as its kGlobalSymbol, so
    # a fresh (possibly renamed) global would no longer match its symbol.
    code = (
        "void Split(IRModule* device_mod, PrimFunc f, std::string kernel_symbol) {\n"
        "  f = WithAttr(std::move(f), tvm::attr::kGlobalSymbol,\n"
        "               runtime::String(kernel_symbol));\n"
        "  (*device_mod)->Add(GlobalVar(kernel_symbol), f);\n}\n"
    )
    assert (
        "(*device_mod)->Add(global_var_supply->UniqueGlobalFor(kernel_symbol, false), f);"
        in fixed(code)
    )


def test_a_copy_of_the_global_symbol_keeps_its_name_too() -> None:
    code = (
        "void Lift(IRModule module, Function func, String name) {\n"
        "  func = WithAttr(std::move(func), tvm::attr::kGlobalSymbol, name);\n"
        "  std::string fname = name;\n"
        "  GlobalVar glob_func(fname);\n"
        "  module->Add(glob_func, func);\n}\n"
    )
    assert "GlobalVar glob_func = global_var_supply->UniqueGlobalFor(fname, false);" in fixed(code)


def test_a_name_unrelated_to_the_global_symbol_is_fresh() -> None:
    code = (
        "void Lift(IRModule module, Function func, String name, String other) {\n"
        "  func = WithAttr(std::move(func), tvm::attr::kGlobalSymbol, other);\n"
        "  GlobalVar glob_func(name);\n"
        "  module->Add(glob_func, func);\n}\n"
    )
    assert "global_var_supply->FreshGlobal(name, false);" in fixed(code)


def test_macros_nearby_are_kept_and_several_sites_share_one_supply() -> None:
    code = (
        '#define LIFT_NAME(n) ("lifted_" n)\n'
        "void F(IRModule mod, const Function& f) {\n"
        '#ifdef TVM_DEBUG\n  LOG(INFO) << "lifting";\n#endif\n'
        '  GlobalVar gv(LIFT_NAME("x"));  // keep me\n'
        '  ICHECK(!mod->ContainGlobalVar("x")) << "dup";\n'
        "  mod->Add(gv, f);\n"
        '  GlobalVar other = GlobalVar(\n      "y");\n  mod->Add(other, f);\n}\n'
        'TVM_REGISTER_GLOBAL("relay.F").set_body_typed(F);\n'
    )
    assert fixed(code) == (
        "#include <tvm/ir/global_var_supply.h>\n\n"
        '#define LIFT_NAME(n) ("lifted_" n)\n'
        "void F(IRModule mod, const Function& f) {\n"
        '#ifdef TVM_DEBUG\n  LOG(INFO) << "lifting";\n#endif\n'
        "  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
        '  GlobalVar gv = global_var_supply->FreshGlobal(LIFT_NAME("x"), false);  // keep me\n'
        '  ICHECK(!mod->ContainGlobalVar("x")) << "dup";\n'
        "  mod->Add(gv, f);\n"
        '  GlobalVar other = global_var_supply->FreshGlobal(\n      "y", false);\n'
        "  mod->Add(other, f);\n}\n"
        'TVM_REGISTER_GLOBAL("relay.F").set_body_typed(F);\n'
    )


def test_a_supply_before_an_if_directive_takes_the_indentation_of_its_code() -> None:
    code = (
        "void G(IRModule mod, const Function& f) {\n"
        '#if TVM_NEW\n  GlobalVar gv("a");\n#else\n  GlobalVar gv("b");\n#endif\n'
        "  mod->Add(gv, f);\n}\n"
    )
    assert fixed(code) == (
        "#include <tvm/ir/global_var_supply.h>\n\n"
        "void G(IRModule mod, const Function& f) {\n"
        "  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
        '#if TVM_NEW\n  GlobalVar gv = global_var_supply->FreshGlobal("a", false);\n'
        '#else\n  GlobalVar gv = global_var_supply->FreshGlobal("b", false);\n#endif\n'
        "  mod->Add(gv, f);\n}\n"
    )


FROM_EXPR = (
    "std::pair<IRModule, GlobalVar> FromExpr(const Expr& expr) {\n"
    "  auto mod = IRModule({});\n  String gv_name;\n  BaseFunc func;\n"
    "  if (auto opt = func->GetAttr<String>(tvm::attr::kGlobalSymbol)) {\n"
    "    gv_name = opt.value();\n  }\n"
    '  if (gv_name.empty()) {\n    gv_name = "main";\n  }\n'
    "  GlobalVar main_gv(gv_name);\n  mod->Add(main_gv, func);\n  return {mod, main_gv};\n}\n"
)


def test_a_variable_assigned_a_global_symbol_keeps_its_name() -> None:
    expected = "  GlobalVar main_gv = global_var_supply->UniqueGlobalFor(gv_name, false);\n"
    assert expected in fixed(FROM_EXPR)


def test_a_variable_assigned_something_else_is_fresh() -> None:
    code = FROM_EXPR.replace("gv_name = opt.value();", "gv_name = other;")
    assert "  GlobalVar main_gv = global_var_supply->FreshGlobal(gv_name, false);\n" in fixed(code)


def test_without_supply_or_module_a_new_supply_is_shown_not_applied() -> None:
    code = 'GlobalVar Make() { return GlobalVar("g"); }\n'
    [finding] = _checker()(code).findings
    assert finding.fix is not None
    assert finding.fix.applicability == Applicability.DISPLAY
    assert "pass the module's supply in instead" in finding.fix.title
    shown = apply_edits(code, finding.fix.edits)
    assert 'return GlobalVarSupply(NameSupply(""))->FreshGlobal("g", false);' in shown
    assert "#include <tvm/ir/global_var_supply.h>" in shown
    assert "no GlobalVarSupply or IRModule in scope" in finding.message
    # 0.26 has no GlobalVarSupply: nothing is suggested.
    [later] = _checker("0.26")(code).findings
    assert later.fix is None


def test_a_function_returning_a_reference_or_pointer_sees_its_parameters_and_members() -> None:
    code = (
        "const GlobalVar& Register(IRModule mod, Table* table) {\n"
        '  table->last = GlobalVar("main");\n  return table->last;\n}\n'
        "struct Builder {\n  GlobalVar* Make();\n  IRModule mod_;\n  GlobalVar made_;\n};\n"
        'GlobalVar* Builder::Make() {\n  made_ = GlobalVar("made");\n  return &made_;\n}\n'
    )
    after = fixed(code)
    assert "GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n" in after
    assert "GlobalVarSupply global_var_supply = GlobalVarSupply(mod_);\n" in after
    assert 'table->last = global_var_supply->FreshGlobal("main", false);' in after
    assert 'made_ = global_var_supply->FreshGlobal("made", false);' in after
