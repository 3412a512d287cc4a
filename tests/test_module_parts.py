"""A module put together from the parses of its top-level statements equals libcst's
parse of the whole text, node for node, whatever the text; parts parsed before are
reused."""

from pathlib import Path
from unittest.mock import patch

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lintgv.parsing import python_parts
from lintgv.parsing.python import parse_python
from lintgv.parsing.python_lines import line_offsets, logical_lines
from lintgv.parsing.python_parts import ModuleParts


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
    "# leads the decorator\n@d\n# between decorators\n@e\n\ndef q(): pass\n",
    "@d\nclass Z:\n    pass\n",
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


CLASSES = [
    "class A:\n    x = 1\n    y = 2\n",
    "class B(Base):\n    '''doc'''\n\n    def f(self):\n        return 1\n\n"
    "    # a comment\n    def g(self):\n        pass\n",
    "class C:\n    @property\n    def p(self):\n        return 1\n\n"
    "    @staticmethod\n    def s():\n        pass\n    z = 0\n",
    "class D:\n    def f(self):\n        x = 1\n        # deeper, trailing\n\n"
    "    def g(self):\n        pass\n",
    "class E:\n    if a:\n        x = 1\n    else:\n        x = 2\n    y = [\n1,\n]\n",
    "@dec\nclass F:\n  a = 1\n  b = 2\n  c = 3\n",
    "class G:\n\tdef f(self):\n\t\treturn 1\n\tdef g(self):\n\t\treturn 2\n\tz = 3\n",
    "class H:\n    def f(self):\n        s = '''\nat column 0\n    def g(self):\n'''\n"
    "        return s\n    def g(self):\n        pass\n    z = 1\n",
    "class I:\n    x = 1\n# at column 0\n    y = 2\n    z = 3\n",
    "class J:\n    x = 1\n  # less indented\n    y = 2\n    z = 3\n",
    "class K: pass\n",
    "class L:\n    x = 1\n    y = 2\n\n\n",
    "class M:\n    def f(self): return 1\n    def g(self):\n        return 2\n"
    "    z = 3  # trailing\n    \n    w = 4\n",
    "class N:\n    class Inner:\n        a = 1\n\n        b = 2\n    c = 3\n    d = 4\n",
    "class T:\n    x = 1\n\n    # leads\n    @d\n    # between\n    @e\n    def f(self):\n"
    "        pass\n    @d\n    def g(self): pass\n",
]

FUNCTIONS = [
    "def big(a):\n    x = 1\n\n    # about y\n    y = 2\n    if x:\n        pass\n"
    "    else:\n        z = 3\n    return x\n",
    "async def co():\n    await a\n    async with b:\n        pass\n"
    "    async for i in c: pass\n    return 1\n",
    "@dec\ndef deco():\n    @inner\n    def g(): pass\n    try:\n        pass\n"
    "    except* E:\n        pass\n    finally:\n        w = 4\n    v = 5\n",
    "def tabs():\n\tx = 1\n\ty = 2\n",
    "def gen():\n    yield 1\n    global q\n    q = 3\n",
    "def m():\n    match x:\n        case 1:\n            pass\n    y = 2\n",
    "def sig(a,\n        b):\n    a = 1\n    b = 2\n",
    'def doc():\n    """doc\nat column 0\n    """\n    x = 1\n    y = 2\n',
    "def one(): return 1\n",
    "def two():\n    x = 1; y = 2\n    z = (3,\n4)\n    # trailing\n",
    "def loop():\n    for i in r:\n        pass\n    else:\n        pass\n    while x:\n"
    "        break\n    else:\n        pass\n",
]


# Lines the scan reads as blank or plain where Python or libcst see a break, an
# indentation reset or a line indented further.
ODD = [
    "    \n",
    "\f\n",
    "\t\n",
    "x = 1\r",
    "class O:\n    x = 1\n    \fy = 2\n    z = 3\n",
    "class P:\n    def f(self):\n        pass\n    \n    def g(self):\n        pass\n",
    "class Q:\n    x = 1\n\f\n    y = 2\n    z = 3\n",
    "class R:\n    x = 1\n    # a\x0bb\n    y = 2\n    z = 3\n",
    "class S:\n    def f(self):\n        pass\n        \n    def g(self):\n        pass\n",
    "def t():\n    pass\n  # less\n\n",
    'u = f"{"#"}" + (\n1)\n',  # a Python 3.12 f-string: the scan misreads its quotes
    " \\\n\n",  # a line of a backslash: libcst reads it otherwise at a piece's end
    "def v():\n    pass\n  # less\n\\\n\n",
]


# Texts of the statements above, with LF or CRLF line breaks.
TEXTS = st.builds(
    lambda pieces, crlf: "".join(pieces).replace("\n", "\r\n" if crlf else "\n"),
    st.lists(st.sampled_from(STATEMENTS + CLASSES + FUNCTIONS + ODD), max_size=6),
    st.booleans(),
)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_classes_and_functions_parsed_in_parts_equal_a_whole_parse(text: str) -> None:
    # Every class and function, however short, and each statement of a function alone.
    with patch.object(python_parts, "SPLIT_SIZE", 0):
        _same(text, ModuleParts())


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_a_pieces_lines_are_what_a_scan_of_the_piece_alone_finds(text: str) -> None:
    for piece, lines in python_parts._pieces(text) or ():
        offsets = line_offsets(piece)
        assert lines() == (offsets, logical_lines(piece, offsets))


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Return the texts python_parts asks libcst to parse from now on, in order."""
    texts: list[str] = []
    parse = python_parts.unchecked_parse

    def spy(source: str) -> cst.Module:
        texts.append(source)
        return parse(source)

    monkeypatch.setattr(python_parts, "unchecked_parse", spy)
    return texts


def test_a_long_class_is_parsed_one_member_at_a_time(parsed: list[str]) -> None:
    methods = "".join(f"    def m{k}(self):\n        return {k}\n\n" for k in range(400))
    text = f"import tvm\n\n\nclass Big:\n    x = 0\n\n{methods}".rstrip("\n") + "\n"
    assert len(text) > python_parts.SPLIT_SIZE
    parts = ModuleParts()
    _same(text, parts)
    assert max(len(source) for source in parsed) < 100  # no parse holds two members
    parsed.clear()
    edited = text.replace("return 7\n", "return 8\n")
    _same(edited, parts)
    assert parsed == ["class _:\n\n    def m7(self):\n        return 8\n"]


def test_a_long_function_is_parsed_a_few_statements_at_a_time(parsed: list[str]) -> None:
    site = "    gv{0} = tvm.ir.GlobalVar('f{0}')\n    mod[gv{0}] = f\n"
    body = "".join(site.format(k) for k in range(400))
    text = f"import tvm\n\n\ndef build(mod, f):\n{body}    return mod\n"
    parts = ModuleParts()
    _same(text, parts)
    assert len(parsed) > 2
    assert max(len(source) for source in parsed) < 2 * python_parts.SPLIT_SIZE
    assert parsed[2].startswith("def _():\n    gv")  # a run, under a header of its own


def test_decorated_definitions_are_parsed_apart(parsed: list[str]) -> None:
    # pytest's decorated tests, one after another: each is a statement of its own.
    tests = "".join(
        f"@pytest.mark.parametrize('k', [{k}])\ndef test_{k}(k):\n    assert k == {k}\n\n\n"
        for k in range(120)
    )
    method = "    @property\n    def p{0}(self):\n        return {0}\n\n"
    methods = "".join(method.format(k) for k in range(120))
    text = f"import pytest\n\n\n{tests}class Props:\n{methods}".rstrip("\n") + "\n"
    _same(text, ModuleParts())
    assert max(source.count("def ") for source in parsed) == 1


@pytest.mark.parametrize(
    "text",
    [
        "x = 1\n\n \\\n\n@d\ndef g(): pass\n",
        "def f():\n    pass\n  # less\n\\\n\n@d\ndef g(): pass\n",
        "\\\n\nclass A:\n    pass\n",
        "x = 1\r\n \\\r\n\r\n@d\r\ndef g(): pass\r\n",
    ],
)
def test_a_line_of_a_backslash_keeps_its_place(text: str) -> None:
    # libcst parses `x = 1\n\n \\\n\n` alone a line short: such a text is parsed whole.
    _same(text, ModuleParts())


def test_a_byte_order_mark_past_the_start_fails_as_a_whole_parse_does() -> None:
    # A piece starting with it would be read as a file's mark and let it through.
    with pytest.raises(cst.ParserSyntaxError):
        ModuleParts().parse("x = 1\n\ufeffy = 2\n")


def test_lintgvs_own_sources_parse_alike_in_parts() -> None:
    package = Path(__file__).parents[1] / "lintgv"
    for path in sorted([*package.glob("parsing/*.py"), *package.glob("codemods/*.py")]):
        _same(path.read_text(encoding="utf-8"), ModuleParts())


def test_an_edit_parses_only_the_statement_it_touched(parsed: list[str]) -> None:
    parts = ModuleParts()
    text = "import tvm\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n"
    parts.parse(text)
    parsed.clear()
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
