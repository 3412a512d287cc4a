"""code_of reads the code of plain names and strings off the node, as libcst writes it."""

from pathlib import Path

import libcst as cst
import pytest

from lintgv.parsing.python import code_of
from lintgv.parsing.walk import descendants

SOURCES = [
    "x = a.b.c\n",
    "y = tvm . ir.  GlobalVar('f')\n",
    "z = (a).b + (a.b) + a.b\n",
    "w = a.\\\n    b\n",
    "v = (a\n     .b)\n",
    'u = f(a.b\n      .c, \'x\' \'y\', """z\n""")\n',
    't = (("s"))\n',
]


@pytest.mark.parametrize("source", SOURCES)
def test_every_node_has_the_code_libcst_generates(source: str) -> None:
    module = cst.parse_module(source)
    for node in descendants(module):
        assert code_of(module, node) == module.code_for_node(node)


def test_every_node_of_lintgvs_own_sources_has_the_code_libcst_generates() -> None:
    for path in sorted((Path(__file__).parents[1] / "lintgv" / "codemods").glob("*.py")):
        module = cst.parse_module(path.read_text(encoding="utf-8"))
        for node in descendants(module):
            if isinstance(node, cst.Name | cst.SimpleString | cst.Attribute):
                assert code_of(module, node) == module.code_for_node(node), path
