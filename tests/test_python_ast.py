"""CPython's parse for the rules that only report (parsing/python_ast.py): positions in
the one line model, children in the order they are written, and the same file error as
libcst's parse for a text neither reads."""

import ast
import sys

import pytest

from lintgv.errors import ParseError
from lintgv.parsing.python_ast import NewerSyntax, children, parse_ast
from lintgv.parsing.python_lines import select_lines
from lintgv.prefilter import combined


def _first(parsed, kind: type) -> ast.AST:
    return next(n for n in ast.walk(parsed.tree) if isinstance(n, kind))


def _span(parsed, kind: type) -> tuple[int, int, int, int]:
    span = parsed.span_of(_first(parsed, kind))
    return span.start_line, span.start_col, span.end_line, span.end_col


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('x = f("a")\n', (1, 4, 1, 10)),
        # CPython counts UTF-8 bytes; the line model counts code points.
        ('s = "éé"; x = f("ü")\n', (1, 14, 1, 20)),
        ('s = "名前"\nx = (\n    f("名")\n)\n', (3, 4, 3, 10)),
        # A byte-order mark is not counted on the first line, as libcst does not count it.
        ('\ufeffx = f("a")\n', (1, 4, 1, 10)),
        ('\ufeffs = "é"; x = f("a")\n', (1, 13, 1, 19)),
        # A NUL in a string, which CPython refuses and libcst reads, moves nothing.
        ('s = "\x00"; x = f("a")\n', (1, 13, 1, 19)),
    ],
    ids=["ascii", "one-line", "lines", "mark", "mark-and-accent", "nul"],
)
def test_a_call_is_placed_in_code_points(text: str, expected: tuple[int, ...]) -> None:
    parsed = parse_ast(text)
    assert _span(parsed, ast.Call) == expected
    assert parsed.code_of(_first(parsed, ast.Call)).startswith("f(")


def test_a_partial_parse_gives_the_file_lines() -> None:
    text = (
        "import tvm\n\n\ndef other():\n    return 1\n\n\n"
        "def f(func):\n    return func.with_attr('global_symbol', 'x')\n"
    )
    selection = select_lines(text, None, combined((r"with_attr\(",)))
    assert selection is not None and not selection.is_empty
    parsed = parse_ast(text, selection)
    assert parsed.line_map  # a part of the file, not all of it
    assert _span(parsed, ast.Call) == (9, 11, 9, 47)
    assert parsed.code_of(_first(parsed, ast.Call)) == "func.with_attr('global_symbol', 'x')"


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("a if b else c\n", ["a", "b", "c"]),
        ("{k: v, **rest, j: w}\n", ["k", "v", "rest", "j", "w"]),
        ("f(x, key=y, *more)\n", ["f", "x", "key=y", "*more"]),
        (
            "@deco\ndef g(p=d, *, k: t = e) -> r:\n    body\n",
            ["deco", "p", "d", "k", "t", "e", "r", "body"],
        ),
    ],
    ids=["conditional", "dict", "call", "function"],
)
def test_children_come_in_the_order_they_are_written(text: str, written: list[str]) -> None:
    parsed = parse_ast(text)
    top = parsed.tree.body[0]
    node = top.value if isinstance(top, ast.Expr) else top
    found = []
    stack = list(reversed(children(node)))
    while stack:
        child = stack.pop()
        code = parsed.code_of(child) if hasattr(child, "lineno") else None
        if code is None or isinstance(child, ast.arguments):
            stack.extend(reversed(children(child)))
        elif isinstance(child, ast.arg):
            found.append(child.arg)
            stack.extend(reversed(children(child)))
        else:
            found.append(code)
    assert found == written


def test_a_syntax_error_is_the_file_error_libcst_gives() -> None:
    with pytest.raises(ParseError) as raised:
        parse_ast('def f(func):\n    return func.with_attr("global_symbol", "x"\n')
    assert str(raised.value) == "Python syntax error: '(' was never closed"
    assert (raised.value.line, raised.value.column) == (2, 26)


def test_nesting_too_deep_is_the_file_error_libcst_gives() -> None:
    with pytest.raises(ParseError, match="nest"):
        parse_ast("x = " + "(" * 5000 + "1" + ")" * 5000 + "\n")


def test_syntax_of_a_later_python_is_told_apart_with_its_line() -> None:
    text = "import tvm\n\ndef f[T](x: T) -> T:\n    return x\n"
    if sys.version_info >= (3, 12):  # this Python reads it
        assert isinstance(parse_ast(text).tree.body[1], ast.FunctionDef)
        return
    with pytest.raises(NewerSyntax) as raised:
        parse_ast(text)
    assert raised.value.line == 3


@pytest.mark.parametrize(
    "text",
    [
        # A method beside the one with the trigger, in the same class.
        "class D:\n    def m[T](self):\n        pass\n\n"
        "    def f(self, func):\n        return func.with_attr('global_symbol', 'x')\n",
        # A statement beside the trigger, in the same top-level block.
        "if True:\n    x = f\"{\"a\"}\"\n    func = func.with_attr('global_symbol', 'x')\n",
        # The only statement of a block.
        "def g():\n    type X = int\n\n\n"
        "def f(func):\n    return func.with_attr('global_symbol', 'x')\n",
    ],
    ids=["method", "block", "only-statement"],
)
def test_a_statement_cpython_refuses_without_a_trigger_is_left_out(text: str) -> None:
    parsed = parse_ast(text, wanted=lambda part: "with_attr" in part)
    call = _first(parsed, ast.Call)
    assert parsed.code_of(call) == "func.with_attr('global_symbol', 'x')"
    if sys.version_info < (3, 12):
        with pytest.raises(NewerSyntax):  # the statement holding the trigger is not
            parse_ast(text, wanted=lambda part: True)
