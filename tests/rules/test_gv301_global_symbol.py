"""GV301 judgements that need more than one finding per snippet."""

from lintgv.examples import check_snippet
from lintgv.model import Severity
from lintgv.rules.gv301_global_symbol_set import GlobalSymbolSetCpp, GlobalSymbolSetPython


def test_python_call_targets_are_new_functions_each_time() -> None:
    code = (
        "from tvm import te\n\n"
        'static = te.create_prim_func([a, b]).with_attr({"global_symbol": "mm"})\n'
        'dynamic = te.create_prim_func([a, b]).with_attr({"global_symbol": "mm"})\n'
    )
    found = check_snippet(GlobalSymbolSetPython, code).findings
    assert [f.span.start_line for f in found] == [3, 4]
    assert all("first setting" in f.message for f in found)
    assert all(f.severity is Severity.INFO for f in found)


def test_python_variable_set_twice_is_overwritten() -> None:
    code = (
        "def name(f):\n"
        '    f = f.with_attr("global_symbol", "a")\n'
        '    return f.with_attr("global_symbol", "b")\n'
    )
    found = check_snippet(GlobalSymbolSetPython, code).findings
    assert "overwritten: it is set earlier (line 2)" in found[1].message
    assert found[1].severity is Severity.WARNING


def test_cpp_variable_set_twice_is_overwritten_but_moved_calls_are_not_new() -> None:
    code = (
        "PrimFunc Name(PrimFunc f) {\n"
        '  f = WithAttr(std::move(f), tvm::attr::kGlobalSymbol, String("a"));\n'
        '  PrimFunc g = WithAttr(MakeFunc(), tvm::attr::kGlobalSymbol, String("b"));\n'
        '  g = WithAttr(MakeFunc(), tvm::attr::kGlobalSymbol, String("c"));\n'
        '  return WithAttr(std::move(f), tvm::attr::kGlobalSymbol, String("d"));\n}\n'
    )
    found = check_snippet(GlobalSymbolSetCpp, code).findings
    verdicts = ["overwritten" in f.message for f in found]
    assert verdicts == [False, False, False, True]


def test_python_copies_of_one_function_are_first_settings() -> None:
    code = (
        "def both(func):\n"
        '    a = func.with_attr("global_symbol", "a")\n'
        '    b = func.with_attr("global_symbol", "b")\n'
        "    return a, b\n"
    )
    found = check_snippet(GlobalSymbolSetPython, code).findings
    assert [("first setting" in f.message) for f in found] == [True, True]


def test_cpp_copies_of_one_function_are_first_settings() -> None:
    code = (
        "void Both(PrimFunc f) {\n"
        '  PrimFunc a = WithAttr(f, tvm::attr::kGlobalSymbol, String("a"));\n'
        '  PrimFunc b = WithAttr(f, tvm::attr::kGlobalSymbol, String("b"));\n}\n'
    )
    found = check_snippet(GlobalSymbolSetCpp, code).findings
    assert [("first setting" in f.message) for f in found] == [True, True]


def test_cpp_set_guarded_by_an_absence_test_is_a_first_setting_after_any_branch() -> None:
    # A kernel-launch lowering: one branch sets the symbol, and a later setting runs only
    # when the function still has none. It cannot overwrite anything.
    code = (
        "PrimFunc Launch(PrimFunc func, GlobalVar gvar, bool kernel) {\n"
        "  if (kernel) {\n"
        "    func = WithAttrs(std::move(func), {{tvm::attr::kGlobalSymbol, gvar->name_hint}});\n"
        "  }\n"
        "  if (!func->GetAttr<String>(tvm::attr::kGlobalSymbol)) {\n"
        "    func = WithAttr(std::move(func), tvm::attr::kGlobalSymbol, gvar->name_hint);\n"
        "  }\n"
        "  return func;\n}\n"
    )
    found = check_snippet(GlobalSymbolSetCpp, code).findings
    assert [f.span.start_line for f in found] == [3, 6]
    assert "first setting" in found[1].message
    assert found[1].severity is Severity.INFO
