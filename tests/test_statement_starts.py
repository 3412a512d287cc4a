"""Where each top-level statement's code starts (ParsedPython.starts, from CPython's line
numbers and libcst's leading lines): the line a generation of the module before it ends
on, for sources laid out every way a statement's code can begin: blank lines and
comments before it, a blank line continued with a backslash, decorators with comments
between them and lines after them, and a decorator whose expression starts lines after
its `@` (CPython numbers a decorator by its expression)."""

import ast

import libcst as cst
import pytest

from lintgv.parsing.positions import _newlines, top_level_starts

SOURCES = [
    "import tvm\n\n\n@(\n    deco\n)\ndef g(mod):\n    return 1\n\n\ndef h():\n    pass\n",
    "X = 1\n  \\\n\ndef make(name):\n    return name\n",
    "@ \\\n  d\n# c\n@e\n\n# after\nasync def f(): pass\nclass C: pass\n",
    "# header\n\n@a(\n  1,\n)\n\n@(\n\n\n  b)\nclass K:\n    x = 1\ny = 2\n",
    "if x:\n    pass\nelse:\n    pass\n# footer comment\n",
    "a = 1; b = 2\n\n\n\nc = [\n 1,\n]\n",
]


def _generated(module: cst.Module) -> tuple[int, ...]:
    """The line each statement starts on in a generation of the whole module."""
    line = 1 + sum(_newlines(module.code_for_node(h)) for h in module.header)
    starts = []
    for statement in module.body:
        starts.append(line)
        line += _newlines(module.code_for_node(statement))
    return tuple(starts)


@pytest.mark.parametrize("text", SOURCES)
def test_each_statement_starts_where_a_generation_of_the_module_puts_it(text: str) -> None:
    module = cst.parse_module(text)
    assert top_level_starts(module, ast.parse(text)) == _generated(module)
