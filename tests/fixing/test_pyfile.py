"""PyFile: what supply threading asks of one parsed Python file, and the shortcuts it
takes to answer.

- functions_near: a site's function is looked for among the functions of the top-level
  statement holding its line, not among all of a file's. For every line of sources laid
  out every way a statement's code can begin and end (decorators, comments before and
  after, nested functions, one-line bodies, a last line without a break), the function
  found is the one a search of every function finds.
- parent_of: the parents are noted during the walk that indexes the file's names; asked
  about any node afterwards, trivia included, it answers as a map of the whole module.
- code_for: the code of a node is generated once per parse, and is libcst's.
"""

from pathlib import Path

import pytest

from lintgv.fixing.python_calls import PyFile, target_at
from lintgv.parsing.walk import descendants, parents

SOURCES = [
    '''\
import tvm


# A comment before a decorated function.
@tvm.register
# Between decorator and def.
def first(mod):
    gv = tvm.ir.GlobalVar("f")
    # a comment at the body's end

# a comment at the module's level
def second(): return tvm.ir.GlobalVar("g")
x = 1; y = 2
class Holder:
    """Doc."""

    def method(self):
        def inner():
            return tvm.ir.GlobalVar("h")

        return inner()
        # trailing, indented


    @staticmethod
    def other():
        pass
if __name__ == "__main__":
    def local():
        return 1
    local()
async def last():
    await x''',
    "def only():\n    pass\n",
    "x = 1\n",
    "def a():\n    return 1\r\ndef b():\r\n    return 2\r\n",
]


@pytest.mark.parametrize("text", SOURCES)
def test_the_function_at_each_line_is_found_as_among_every_function(text: str) -> None:
    file = PyFile(Path("m.py"), text, "m")
    assert file.parsed.starts is not None
    for line in range(1, text.count("\n") + 3):
        found = target_at(file, line)
        holding = [
            f
            for f in file.functions
            if file.span_of(f).start_line <= line <= file.span_of(f).end_line
        ]
        if not holding:
            assert found is None, line
            continue
        innermost = max(holding, key=lambda f: file.span_of(f).start_line)
        assert found is not None and found.function is innermost, line


SOURCE = '''\
import tvm  # a comment


@tvm.register(name="f")
def f(a, *, b=1):
    """Doc."""
    if a and not b:
        return [x + 1 for x in range(a)], {"k": (a, b)}
    return lambda y: y ** 2


class C(object):
    x: int = 3

    def m(self):
        with open("p") as h:
            pass
'''


@pytest.mark.parametrize("trivia_first", [False, True])
def test_every_node_has_the_parent_a_map_of_the_module_gives(trivia_first: bool) -> None:
    file = PyFile(Path("m.py"), SOURCE, "m")
    module = file.module
    expected = parents(module)
    nodes = [n for n in descendants(module) if n is not module]
    # Asked first about trivia (a comma), the file maps the whole module; asked first
    # about anything else, it notes the parents in its own walk.
    nodes.sort(key=lambda n: type(n).__name__ != "Comma" if trivia_first else False)
    for node in nodes:
        assert file.parent_of(node) is expected[id(node)], node
    assert file.parent_of(module) is None


def test_the_code_of_a_node_is_libcsts_and_generated_once() -> None:
    file = PyFile(Path("m.py"), SOURCES[0], "m")
    for node in descendants(file.module):
        code = file.code_for(node)
        assert code == file.module.code_for_node(node)
        assert file.code_for(node) is code
