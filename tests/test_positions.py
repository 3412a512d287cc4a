"""Positions worked out one statement at a time equal libcst's PositionProvider's."""

import ast
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from lintgv.parsing import positions as positions_module
from lintgv.parsing.positions import LazyPositions, Located
from lintgv.parsing.python import ParsedPython, parse_python

SOURCES = {
    "statements": "import tvm\n\nx = 1; y = 2\nif x:\n    z = (1,\n         2)\nelse:\n    pass\n",
    "crlf": "x = 1\r\ny = f(\r\n    2)\r\n",
    "comments between": (
        "x = 1\n\n# about f\n@d\n# between\n\n@e(\n  1)\ndef f():\n    pass\n\n\n"
        "# tail\nclass C: pass\n\n"
    ),
    "decorated": '# header\n\n@d\n@e(1)\ndef f():\n    """a\n    b"""\n    return 1\n',
    "no trailing newline": "def g():\n    return GlobalVar('main')",
    "continuation": 'x = "a \\\nb"\ny = 1 + \\\n    2\n',
    "tabs": "if x:\n\ty = 1\n\tif z:\n\t\tw = f(\n\t\t\t2)\n",
    "nested": (
        "class A:\n"
        "    # comment\n"
        "    def f(self):\n"
        "      if x:  # blocks indented by 2, 3 and 4 spaces\n"
        "         try:\n"
        "             y = GlobalVar('f')\n"
        "         except E as e:\n"
        "             raise\n"
        "         finally: z = 1; w = 2\n"
        "      else:\n"
        "\n"
        "          with a as b:\n"
        "              for i in r: pass\n"
        "    @property\n"
        "    def g(self): return 1\n"
    ),
    "clauses": (
        "async def f():\n"
        "    async with a as b:\n"
        "        async for i in b:\n"
        "            if i: x = 1\n"
        "            elif i > 1:\n"
        "                y = (2,\n"
        "                     3)\n"
        "            elif i > 2: pass\n"
        "            else:\n"
        "                # before\n"
        "                z = 3\n"
        "        else:\n"
        "            w = 4\n"
        "    try:\n"
        "        pass\n"
        "    except* E:\n"
        "        v = 5\n"
        "    while x:\n"
        "        u = 6\n"
        "    else:\n"
        "        t = 7\n"
        "    try: s = 8\n"
        "    except (A,\n"
        "            B): r = 9\n"
        "    else: q = 10\n"
        "    finally:\n"
        "        p = 11\n"
    ),
    "match": (
        "match command.split():\n"
        "    case [action]:\n"
        "        a = GlobalVar(action)\n"
        "    case [action, obj] if obj:\n"
        "\n"
        "        # a comment\n"
        "        b = 2\n"
        "    case _: c = 3\n"
    ),
    "decorators with lines between": (
        "import x\n\n\n# about C\n@a\n\n# between\n@b(\n    1)\n\n"
        "class C:\n    @c\n\n    # inside\n    def f(self): return 1\n"
    ),
    "one-line blocks": "if a: b = 1; c = 2\nfor i in x: pass\nclass D: e = 1\n",
}


def _full(module: cst.Module) -> dict[cst.CSTNode, object]:
    return dict(MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider))


@pytest.mark.parametrize("source", SOURCES.values(), ids=list(SOURCES))
def test_each_node_is_placed_as_position_provider_places_it(source: str) -> None:
    module = cst.parse_module(source)
    expected = _full(module)
    for node in reversed(list(expected)):  # the last statements first: no help from order
        assert LazyPositions(module)[node] == expected[node]


@pytest.mark.parametrize("source", SOURCES.values(), ids=list(SOURCES))
def test_indexing_only_the_top_level_statement_asked_about_places_nodes_alike(
    source: str,
) -> None:
    parsed = parse_python(source)  # as the engine parses: CPython's lines at hand
    assert parsed.starts is not None, "the two parses line up"
    expected = _full(parsed.module)
    for node in reversed(list(expected)):
        positions = LazyPositions(parsed.module, parsed.starts, parsed.parent_of)
        assert positions[node] == expected[node]
        # Only a node outside every statement (the module, its header) needs the index
        # of the whole module.
        assert positions._owners is None or positions._top_of(node) is None


def _placed_from_cpythons_lines(source: str, parsed: ParsedPython) -> None:
    """Assert that every node is placed as PositionProvider places it, each statement
    from the line CPython's parse gives it."""
    expected = _full(parsed.module)
    for node in reversed(list(expected)):
        positions = LazyPositions(parsed.module, parsed.starts, parsed.parent_of, parsed.located)
        assert positions[node] == expected[node]
        if source.endswith("\n") and positions._top_of(node) is not None:
            # Placed without the plain generation of its top-level statement.
            assert positions._located_done and not positions._indexed_tops


@pytest.mark.parametrize("source", SOURCES.values(), ids=list(SOURCES))
def test_statements_placed_from_cpythons_statements_alone_place_nodes_alike(
    source: str,
) -> None:
    parsed = parse_python(source)
    assert parsed.located is not None
    tree = parsed.located._tree
    below_statements = {
        id(node)
        for statement in ast.walk(tree)
        if isinstance(statement, ast.stmt)
        for decorator in getattr(statement, "decorator_list", ())
        for node in ast.walk(decorator)
    }
    kept = [n for n in ast.walk(tree) if isinstance(n, ast.expr) and id(n) not in below_statements]
    assert kept == []  # the parse cut CPython's tree before libcst's: only decorators are left
    _placed_from_cpythons_lines(source, parsed)


@pytest.mark.parametrize("shift", [-1, 1])
def test_a_statement_placed_on_the_wrong_line_is_not_used(
    shift: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed = parse_python(SOURCES["nested"])
    expected = _full(parsed.module)
    start_of = Located.start_of

    def misplaced(self: Located, module: cst.Module, path: list[cst.CSTNode]) -> int | None:
        line = start_of(self, module, path)
        return None if line is None else line + shift

    monkeypatch.setattr(Located, "start_of", misplaced)
    positions = LazyPositions(parsed.module, parsed.starts, parsed.parent_of, parsed.located)
    assert {n: positions[n] for n in reversed(list(expected))} == expected
    assert not positions._located_done, "the plain generation placed them"


def test_a_lone_carriage_return_leaves_cpythons_lines_unused() -> None:
    parsed = parse_python("x = 1\ry = GlobalVar('a')\n")
    assert parsed.located is None
    expected = _full(parsed.module)
    assert {n: parsed.positions[n] for n in expected} == expected


def test_asking_for_one_node_generates_only_its_statement() -> None:
    module = cst.parse_module("a = 1\nb = 2\nc = 3\n")
    positions = LazyPositions(module)
    last = module.body[2]
    assert positions[last].start.line == 3
    assert id(module.body[0]) not in positions._marks


def test_asking_for_a_nested_node_generates_only_its_innermost_statement() -> None:
    module = cst.parse_module(SOURCES["nested"])
    expected = _full(module)
    call = next(n for n in expected if isinstance(n, cst.Call))
    positions = LazyPositions(module)
    assert positions[call] == expected[call]
    assert id(module.body[0]) not in positions._marks


def test_every_node_of_lintgvs_own_sources_is_placed_as_position_provider_places_it() -> None:
    for path in sorted((Path(__file__).parents[1] / "lintgv" / "parsing").glob("*.py")):
        module = cst.parse_module(path.read_text(encoding="utf-8"))
        expected = _full(module)
        positions = LazyPositions(module)
        assert {node: positions[node] for node in reversed(list(expected))} == expected, path
        parsed = parse_python(path.read_text(encoding="utf-8"))
        expected = _full(parsed.module)
        positions = LazyPositions(parsed.module, parsed.starts, parsed.parent_of)
        nodes = [n for n in reversed(list(expected)) if not isinstance(n, cst.Module)]
        assert {n: positions[n] for n in nodes} == {n: expected[n] for n in nodes}, path
        assert positions._owners is None, path
        located = LazyPositions(parsed.module, parsed.starts, parsed.parent_of, parsed.located)
        assert {n: located[n] for n in nodes} == {n: expected[n] for n in nodes}, path
        assert not located._indexed_tops, path


def test_iterating_gives_every_node() -> None:
    module = cst.parse_module(SOURCES["decorated"])
    assert dict(LazyPositions(module)) == _full(module)


def test_statements_of_one_block_are_lined_up_once_for_all_nodes_asked_about(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Once per node asked about, a long function's lookup made a check quadratic in it.
    source = "def f():\n" + "".join(f"    x{i} = g({i})\n" for i in range(50))
    parsed = parse_python(source)
    calls = [n for n in _full(parsed.module) if isinstance(n, cst.Call)]
    lined_up = []
    real = positions_module._lined_up

    def counted(ours: object, theirs: object) -> object:
        lined_up.append(ours)
        return real(ours, theirs)

    monkeypatch.setattr(positions_module, "_lined_up", counted)
    positions = LazyPositions(parsed.module, parsed.starts, parsed.parent_of, parsed.located)
    assert [positions[c].start.line for c in calls] == list(range(2, 52))
    assert len(positions._located_done) == 50
    assert len(lined_up) == 2  # the module's statements, then the function's
