"""Node kinds share one tree-sitter query (parsing.cpp.NODES: a compile costs the same
whatever the query holds). Each use reads one capture of it: it must get what a query of
its capture's pattern alone gives, node for node and in the same order, over whole files
and over the byte ranges rules query."""

import tree_sitter

from lintgv.parsing.cpp import NODES, ParsedCpp, compile_query, parse_cpp
from tests.rule_texts import cpp_texts

# Nesting where the order of captures is decided: a call in a declaration in a lambda in
# a loop in a function, a loop in a lambda's body, a declaration that holds a call.
CORNERS = [
    "void F() { for (int i = 0; f(i); ++i) { auto g = [&](int j) { while (h(j)) {} "
    "return k(j); }; T t(m(n)); } }\n",
    "auto x = [](){ do { a(b(c())); } while (d()); return 1; }();\nint y = z(w);\n",
    "struct S { void M() { for (auto& e : v) { S s{e}; s.f(g(e)); } } };\n",
    "#define LOOP(x) for (x = 0; x < 3; ++x)\nvoid G() { LOOP(i) { f(i); } }\n",
]


def _texts() -> list[str]:
    return [*CORNERS, *cpp_texts()]


TEXTS = _texts()


def _patterns(source: str) -> list[tuple[str, str]]:
    """Return each pattern of `source` with the one capture it names."""
    query = compile_query(source)
    patterns = []
    for index in range(query.pattern_count):
        text = source[query.start_byte_for_pattern(index) : query.end_byte_for_pattern(index)]
        (name,) = {
            query.capture_name(i)
            for i in range(query.capture_count)
            if f"@{query.capture_name(i)}" in text
        }
        patterns.append((text, name))
    return patterns


def _captured(
    parsed: ParsedCpp, source: str, name: str, ranges: list[tuple[int, int]] | None
) -> list[tuple[int, int, str]]:
    cursor = tree_sitter.QueryCursor(compile_query(source))
    nodes = []
    for start, end in ranges or [(0, len(parsed.data))]:
        cursor.set_byte_range(start, end)
        nodes.extend(cursor.captures(parsed.root).get(name, []))
    return [(n.start_byte, n.end_byte, n.type) for n in nodes]


def _ranges(parsed: ParsedCpp) -> list[tuple[int, int]]:
    """Byte ranges as rules query them: each top-level declaration, and a span cut
    through the middle of the file."""
    ranges = [(node.start_byte, node.end_byte) for node in parsed.declarations]
    ranges.append((len(parsed.data) // 3, 2 * len(parsed.data) // 3))
    return ranges


def test_each_capture_of_the_shared_query_is_its_own_patterns() -> None:
    patterns = _patterns(NODES)
    assert len({name for _, name in patterns}) == len(patterns) > 1
    compared = 0
    for text in TEXTS:
        parsed = parse_cpp(text)
        for alone, name in patterns:
            for ranges in (None, _ranges(parsed)):
                expected = _captured(parsed, alone, name, ranges)
                assert _captured(parsed, NODES, name, ranges) == expected, (name, text)
                compared += len(expected)
    assert compared > 500  # the texts hold enough of every kind to tell
