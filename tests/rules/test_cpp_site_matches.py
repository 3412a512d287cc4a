"""GV101 finds C++ sites by the nodes they start at, not by the query of their whole
shape (which tree-sitter compiles five times slower, in every process): it must give
what that query gives, match for match and in the same order, over whole files and over
the ranges a check queries."""

import re
import textwrap
from pathlib import Path

import pytest
import tree_sitter

from lintgv.config import Config
from lintgv.parsing.cpp import ParsedCpp, compile_query, parse_cpp
from lintgv.rules._base import Captures, RuleContext
from lintgv.rules._direct_global_var.cpp_scan import CppSites
from lintgv.rules.gv101_direct_global_var import DirectGlobalVarCpp
from tests.rule_texts import cpp_texts

# The query of a site's whole shape, as CppSites.matches_in documents it: its specification.
_DOC = CppSites.matches_in.__doc__ or ""
SHAPE_QUERY = textwrap.dedent(_DOC.split("would give it:")[1].split("tree-sitter compiles")[0])

# Shapes next to each other and inside each other, where the order of matches is decided.
CORNERS = [
    'GlobalVar a("x"), b = GlobalVar("y"), c{"z"};\n',
    'void F() { GlobalVar gv(name); GlobalVar h(a, b); int g(int x); f(GlobalVar("in")); }\n',
    'auto x = Outer(Inner(GlobalVar("a")), tvm::GlobalVar("b"), Make<T>(c));\n',
    "void G() { GlobalVar gv(GlobalVar(n)->name_hint); ns::T t{GlobalVar(m)}; }\n",
    "void H() { for (GlobalVar gv(n); ok(gv); ) { T t(u); } }\n",
    "auto n = make_object<GlobalVarNode>(); auto m = tvm::make_object<GlobalVarNode>(p);\n",
    'MACRO(x) void F(IRModule m) { m->Add(GlobalVar("f"), g) }\nGlobalVar gv("after");\n',
    'void K() { a.b(GlobalVar("x")); (*p)(GlobalVar("y")); [](){ return GlobalVar("z"); }(); }\n',
    '#define X GlobalVar("m")\nint main() { GlobalVar g(\n',
]


def _texts() -> list[str]:
    return [*CORNERS, *cpp_texts()]


def _query_matches(parsed: ParsedCpp, ranges: list[tuple[int, int]]) -> list[Captures]:
    cursor = tree_sitter.QueryCursor(compile_query(SHAPE_QUERY))
    found = []
    for start, end in ranges:
        cursor.set_byte_range(start, end)
        for _, captures in cursor.matches(parsed.root):
            if min(n.start_byte for nodes in captures.values() for n in nodes) >= start:
                found.append(captures)
    return found


def _key(captures: Captures) -> list[tuple[str, tuple[tuple[int, int, str], ...]]]:
    return sorted(
        (name, tuple((n.start_byte, n.end_byte, n.type) for n in nodes))
        for name, nodes in captures.items()
    )


TEXTS = _texts()


@pytest.mark.parametrize("index", range(len(TEXTS)))
def test_sites_are_the_matches_of_the_shape_query_in_its_order(index: int) -> None:
    text = TEXTS[index]
    parsed = parse_cpp(text)
    rule = DirectGlobalVarCpp(RuleContext(Path("a.cc"), Config(), lambda _: True), parsed)
    size = len(parsed.data)
    around = parsed.declarations_around(re.compile(rb"GlobalVar|make_object"), 32) or []
    # Whole, the ranges a check queries, and each top-level node alone (an editor's
    # regions). (Ranges that cut through a block differ: the query reported a local
    # declaration's site once for each range its block reaches into.)
    pieces = [(node.start_byte, node.end_byte) for node in parsed.root.children]
    for ranges in ([(0, size)], around, pieces):
        expected = [_key(c) for c in _query_matches(parsed, ranges)]
        assert [_key(c) for c in rule.matches(ranges)] == expected


def test_the_corners_hold_sites_of_every_shape() -> None:
    # The comparison above means something only if the query matches each shape.
    parsed = parse_cpp("".join(CORNERS))
    shapes = {frozenset(c) for c in _query_matches(parsed, [(0, len(parsed.data))])}
    assert {"call", "func", "args"} in shapes
    assert {"type", "args", "init"} in shapes
    assert {"type", "params", "init"} in shapes
