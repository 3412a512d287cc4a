"""A module put together from the parses of its top-level statements equals libcst's
parse of the whole text, node for node, whatever the text; parts parsed before are
reused."""

from pathlib import Path

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lintgv.parsing.python import ModuleParts, parse_python


def walk_statements(module: cst.Module) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Statements(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, cst.BaseStatement | cst.BaseSmallStatement):
                found.append(node)
            return True

    module.visit(Statements())
    return found


STATEMENTS = [
    "import tvm\n",
    "x = 1; y = 2\n",
    "def f(a):\n    return a\n",
    "def g(a):\n\treturn a\n",
    "def h():\n  if a:\n    pass\n  # inside\n",
    "# a comment\n",
    "\n",
    "@d\n@e(1)\ndef k():\n    '''doc\nat column 0\n    '''\n",
    "class C:\n    x = (1,\n2)\n\n    # trailing, indented\n",
    "if a:\n    b = 1\nelif c:\n    pass\nelse:\n    d = 2\n",
    "try:\n    pass\nexcept E:\n    raise\nfinally:\n    f()\n",
    "s = '''\nclass X:\n'''\n",
    "    # deeper comment\n",
    "gv = tvm.ir.GlobalVar('x')\n",
    "z = [\n    1,\n]\n",
]


def _same(text: str, parts: ModuleParts) -> None:
    try:
        expected = cst.parse_module(text)
    except cst.ParserSyntaxError:
        return
    module = parts.parse(text)
    assert module.code == expected.code  # the text, but where libcst itself loses a line
    assert module.deep_equals(expected)
    # Rules map nodes by identity: no statement may appear twice.
    statements = list(walk_statements(module))
    assert len({id(s) for s in statements}) == len(statements)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(STATEMENTS), max_size=8), st.booleans())
def test_a_module_of_parts_equals_a_whole_parse(pieces: list[str], crlf: bool) -> None:
    text = "".join(pieces)
    if crlf:
        text = text.replace("\n", "\r\n")
    _same(text, ModuleParts())


@settings(deadline=None)
@given(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=6), st.integers(0, 5))
def test_parts_kept_from_an_earlier_version_give_the_new_versions_module(
    pieces: list[str], at: int
) -> None:
    parts = ModuleParts()
    _same("".join(pieces), parts)
    edited = [*pieces[:at], "gv = tvm.ir.GlobalVar('new')\n", *pieces[at:]]
    _same("".join(edited), parts)


def test_lintgvs_own_sources_parse_alike_in_parts() -> None:
    package = Path(__file__).parents[1] / "lintgv"
    for path in sorted([*package.glob("parsing/*.py"), *package.glob("codemods/*.py")]):
        _same(path.read_text(encoding="utf-8"), ModuleParts())


def test_an_edit_parses_only_the_statement_it_touched(monkeypatch: pytest.MonkeyPatch) -> None:
    parts = ModuleParts()
    text = "import tvm\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n"
    parts.parse(text)
    parsed: list[str] = []
    parse = cst.parse_module

    def spy(source: str) -> cst.Module:
        parsed.append(source)
        return parse(source)

    monkeypatch.setattr(cst, "parse_module", spy)
    edited = text.replace("return 2", "return 3")
    assert parts.parse(edited).code == edited
    assert parsed == ["\n\ndef g():\n    return 3\n"]


def test_a_parse_with_parts_finds_what_a_parse_without_finds() -> None:
    text = "import tvm\n\n\ndef f(mod):\n    gv = tvm.ir.GlobalVar('f')\n    mod[gv] = 1\n"
    plain, reused = parse_python(text), parse_python(text, parts=ModuleParts())
    assert reused.module.deep_equals(plain.module)
    assert reused.starts == plain.starts


def test_only_the_last_versions_statements_are_kept() -> None:
    parts = ModuleParts()
    first = "".join(f"def f{k}():\n    return {k}\n\n\n" for k in range(50))
    parts.parse(first)
    assert len(parts) == 50
    parts.parse("import tvm\n\n\ndef g():\n    return 1\n")
    assert len(parts) == 2  # the header with its import, and g: none of the 50 left
