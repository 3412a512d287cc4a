"""GV301 judgements that need more than one finding per snippet."""

import pytest

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


def test_python_a_read_counts_only_when_written_before_the_setting() -> None:
    # CPython lists a conditional expression's test before its first value; the scan
    # reads them as written.
    after = (
        "def f(func):\n"
        '    return func.with_attr("global_symbol", "x") if "global_symbol" not in func.attrs '
        "else func\n"
    )
    before = (
        "def f(func):\n"
        '    return func if "global_symbol" in func.attrs else '
        'func.with_attr("global_symbol", "x")\n'
    )
    [set_after] = check_snippet(GlobalSymbolSetPython, after).findings
    [set_before] = check_snippet(GlobalSymbolSetPython, before).findings
    assert "first setting" in set_after.message
    assert "overwritten: its global_symbol is read first (line 2)" in set_before.message


@pytest.mark.parametrize(
    ("call", "reported"),
    [
        ('func.with_attrs({**extra, "global_symbol": "x"})', True),
        ('func.with_attr(*args, "global_symbol", "x")', False),  # the key is not first
        ('func.with_attr("global_" "symbol", "x")', False),  # two literals, as libcst reads
        ('func.with_attr(b"global_symbol", "x")', False),
        ('func.with_attr("global_symbol", "x", "y")', True),
    ],
)
def test_python_the_key_is_one_string_literal_first(call: str, reported: bool) -> None:
    code = f"def f(func, extra, args):\n    return {call}\n"
    found = check_snippet(GlobalSymbolSetPython, code).findings
    assert bool(found) is reported
    if found:
        assert (found[0].span.start_col, found[0].span.end_col) == (11, 11 + len(call))


def test_python_async_functions_and_loops_are_scanned() -> None:
    code = (
        "async def strip(mod):\n"
        "    async for gvar, func in mod.functions.items():\n"
        '        yield func.with_attr("global_symbol", gvar.name_hint)\n'
    )
    [found] = check_snippet(GlobalSymbolSetPython, code).findings
    assert "`func` is taken from the module (line 2)" in found.message


@pytest.mark.parametrize(
    "read",
    [
        'func.attrs["global_symbol",]',
        'func.attrs[("global_symbol"),]',
        'func.attrs["glob\\x61l_symbol"]',
        'func.attrs[("global_symbol")]',
    ],
    ids=["trailing-comma", "parenthesized-and-comma", "escape", "parenthesized"],
)
def test_python_a_read_of_the_key_however_written(read: str) -> None:
    code = (
        "def rename(func):\n"
        f"    name = {read}\n"
        '    return func.with_attr("global_symbol", name + "_x")\n'
    )
    [found] = check_snippet(GlobalSymbolSetPython, code).findings
    assert "overwritten: its global_symbol is read first (line 2)" in found.message


def test_python_a_parameter_default_is_read_where_it_is_written() -> None:
    # A default is evaluated where the parameter list is written, before a keyword-only
    # parameter's default after it (CPython keeps them in separate lists).
    code = (
        'def rename(func, a=func0.with_attr("global_symbol", "x"), *,\n'
        '           b="global_symbol" in func0.attrs):\n'
        "    return a\n"
    )
    [found] = check_snippet(GlobalSymbolSetPython, code).findings
    assert "first setting" in found.message
