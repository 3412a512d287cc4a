"""PyFile notes each node's parent during the walk that indexes its names; asked about
any node afterwards, trivia included, it answers as a map of the whole module does."""

from pathlib import Path

import pytest

from lintgv.fixing.python_calls import PyFile
from lintgv.parsing.walk import descendants, parents

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
