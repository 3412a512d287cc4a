"""Comments are found by a lexer that knows string literals: never inside a string, a
character literal, a raw string or an f-string's field, and always where the language's
own tokenizer (Python's `tokenize`, tree-sitter's C++ grammar) finds one."""

import io
import tokenize

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lintgv.parsing.comments import Comment, cpp_comments, python_comments
from lintgv.parsing.cpp import parse_cpp

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _texts(text: str, comments: tuple[Comment, ...]) -> list[str]:
    for comment in comments:
        assert text[comment.offset : comment.offset + len(comment.text)] == comment.text
    return [c.text for c in comments]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # PEP 701: a field holds a string in the f-string's own quote (3.11's tokenize
        # reads `# lintgv...` here as a comment).
        ('x = f"{"# lintgv: ignore[GV101]"}"  # real\n', ["# real"]),
        ("y = f'{'#' + 'lintgv: ignore[GV101]'\n}'\nz = '# lintgv: ignore[GV999]'\n", []),
        ("f'{x:{y}>{z!r}}' # a\nf'''{\n# in a field\nx}'''\n", ["# a", "# in a field"]),
        ("f'{{#}}' # a\n", ["# a"]),
        ("f'{d[\"#\"]:#x}' # a\n", ["# a"]),
        ("rf'\\{x}#' # a\n", ["# a"]),
        ("f'\\N{NUMBER SIGN}{x}#' # a\n", ["# a"]),
        ('rb"\\"#x"  # a\n', ["# a"]),
        ("x = '''a\n#b''' # a\n", ["# a"]),
        ("name'#'  # a\n", ["# a"]),
    ],
)
def test_python_comments_are_never_inside_strings(text: str, expected: list[str]) -> None:
    found = python_comments(text)
    assert found.is_certain
    assert _texts(text, found.found) == expected


@pytest.mark.parametrize(
    "text", ["s = 'abc\n# a\n", "f'{x\n", "f'{x)}'\n# a\n", "s = '''abc\n# a\n", "f'}'\n"]
)
def test_python_text_that_does_not_lex_is_not_certain(text: str) -> None:
    assert not python_comments(text).is_certain


def test_an_unclosed_bracket_does_not_repeat_a_python_comment() -> None:
    found = python_comments("x = 1  # lintgv: ignore[GV101]\ny = (\n")
    assert found.is_certain
    assert [c.text for c in found.found] == ["# lintgv: ignore[GV101]"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('const char* u = "http://example.com/lintgv: ignore[GV101]";\n', []),
        ('const char* s = "// lintgv: ignore[GV999]"; // a\n', ["// a"]),
        ('auto r = R"x(// no )" /* no */)x"; /* a */\n', ["/* a */"]),
        ('auto r = u8R"(/*)"; // a\n', ["// a"]),
        ("char c = '\"'; // a \"\n", ['// a "']),
        ("char c = '\\''; // a\n", ["// a"]),
        ("int n = 1'000'000; // a\n", ["// a"]),
        ('const char* s = "a\\\n// no"; // a\n', ["// a"]),
        ("// a \\\nstill a\nint b;\n", ["// a \\\nstill a"]),
        ('xR"(" // a "\n', ['// a "']),
        ('auto s = L"a" "//" // a\n', ["// a"]),
        ("int x = a/**/+b; /* a\n b */\n", ["/**/", "/* a\n b */"]),
    ],
)
def test_cpp_comments_are_never_inside_literals(text: str, expected: list[str]) -> None:
    found = cpp_comments(text)
    assert found.is_certain
    assert _texts(text, found.found) == expected


@pytest.mark.parametrize(
    "text", ['auto r = R"x(no end)"; // a\n', "/* no end\n", "#error don't\n// a\n"]
)
def test_cpp_text_that_does_not_lex_is_not_certain(text: str) -> None:
    assert not cpp_comments(text).is_certain


# --- the lexers agree with the languages' own tokenizers on generated text -------------

_PY_CONTENT = st.lists(
    st.sampled_from(["a", " ", "#", "lintgv: ignore[GV999]", "\\'", '\\"', "\\\\", "{{", "}}"]),
    max_size=6,
).map("".join)


@st.composite
def _python_string(draw: st.DrawFn) -> str:
    prefix = draw(st.sampled_from(["", "r", "b", "rb", "u", "f", "F", "fr", "Rb"]))
    quote = draw(st.sampled_from(["'", '"', "'''", '"""']))
    content = draw(_PY_CONTENT)
    if "r" in prefix.lower():
        content = content.replace("\\", "")  # a raw string cannot end in a backslash
    if "f" not in prefix.lower():
        content = content.replace("{{", "{").replace("}}", "}")
    else:
        content += draw(st.sampled_from(["", "{x}", "{x!r:>3}", "{x:{y}}"]))
    if len(quote) == 3:
        content += draw(st.sampled_from(["", "\n#", "\n", f"{quote[0]}a"]))
    return prefix + quote + content + quote


_PY_LINE = st.lists(
    st.one_of(
        _python_string(),
        st.sampled_from(["x = ", "(", ")", " + ", "[1, ", "]", "y"]),
    ),
    max_size=5,
).map("".join)
_PY_TEXT = st.lists(
    st.tuples(_PY_LINE, st.sampled_from(["", "  # a", "# lintgv: ignore[GV999] 'b'", "#"])),
    max_size=6,
).map(lambda lines: "".join(code + comment + "\n" for code, comment in lines))


def _tokenize_comments(text: str) -> list[tuple[int, str]] | None:
    starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    if any(t.type == tokenize.ERRORTOKEN for t in tokens):
        return None
    return [
        (starts[t.start[0] - 1] + t.start[1], t.string)
        for t in tokens
        if t.type == tokenize.COMMENT
    ]


@SETTINGS
@given(_PY_TEXT)
def test_python_comments_are_the_ones_tokenize_finds(text: str) -> None:
    expected = _tokenize_comments(text)
    found = python_comments(text)
    if expected is None:
        return  # not Python; tokenize gives up without saying where
    assert found.is_certain
    assert [(c.offset, c.text) for c in found.found] == expected


_CPP_PIECE = st.sampled_from(
    [
        "int x = 1;",
        "int n = 1'000;",
        'f("a//b", "/*");',
        'f("\\"//");',
        'f("a\\\n//b");',
        "f('\"', '\\'');",
        'f(R"d(//)" /*)d");',
        'f(u8R"(//)");',
        'f(L"//" u"/*");',
        "g(a/**/+b);",
        "// lintgv: ignore[GV999] 'x'",
        "/* lintgv: ignore[GV999]\n */",
        "// a \\\ncontinued",
        " ",
        "\n",
    ]
)


def _leaves(node):  # type: ignore[no-untyped-def]  # tree-sitter's nodes are untyped here
    if node.child_count == 0:
        yield node
    for child in node.children:
        yield from _leaves(child)


@SETTINGS
@given(st.lists(_CPP_PIECE, max_size=10).map("".join))
def test_cpp_comments_are_the_ones_tree_sitter_finds(text: str) -> None:
    parsed = parse_cpp(text)
    expected = [
        (len(parsed.data[: leaf.start_byte].decode()), parsed.text(leaf))
        for leaf in _leaves(parsed.root)
        if leaf.type == "comment"
    ]
    found = cpp_comments(text)
    assert found.is_certain
    assert [(c.offset, c.text) for c in found.found] == expected
