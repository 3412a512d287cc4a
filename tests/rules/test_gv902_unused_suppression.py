"""GV902's safe fix changes nothing but the comment it edits: never a string, never the
code around it, never which line holds what the compiler or interpreter reads."""

import io
import tokenize
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lintgv.config import Config
from lintgv.edits import apply_edits
from lintgv.engine import check
from lintgv.fixing.settle import settle
from lintgv.model import FileResult, Language, SourceFile
from lintgv.parsing.cpp import parse_cpp

ROOT = Path("/project")


def _checker(language: Language):  # type: ignore[no-untyped-def]  # a settle Checker
    path = ROOT / ("a.py" if language == Language.PYTHON else "a.cc")

    def checker(text: str) -> FileResult:
        return check(SourceFile(path, language, text), Config(root=ROOT), whole=True)

    return checker


def _fixed(text: str, language: Language) -> str:
    return settle(text, language, _checker(language), unsafe=False).text


PY, CPP = Language.PYTHON, Language.CPP


@pytest.mark.parametrize(
    ("language", "text", "fixed"),
    [
        # A line comment continued by a splice: the comment's second line stays in it.
        (
            CPP,
            "// see C:\\path\\\n// lintgv: ignore[GV999]\nint b = 2;\n",
            "// see C:\\path\\\n\nint b = 2;\n",
        ),
        # A macro's continued lines: deleting the comment's line would end the macro late.
        (
            CPP,
            "#define M \\\n  a + \\\n// lintgv: ignore[GV999]\nint b = 2;\n",
            "#define M \\\n  a + \\\n\nint b = 2;\n",
        ),
        # Block comments between tokens leave a blank between them.
        (
            CPP,
            "int f(int x) {\n  return/*lintgv: ignore[GV999]*/x;\n}\n",
            "int f(int x) {\n  return x;\n}\n",
        ),
        (CPP, "#define A/*lintgv: ignore[GV999]*/(x) x\n", "#define A (x) x\n"),
        (CPP, "int a = b /* lintgv: ignore[GV999] */ + c;\n", "int a = b + c;\n"),
        # The first two lines of a Python file stay where they are: a coding declaration
        # on line 3 must not move up into them.
        (
            PY,
            "#!/usr/bin/env python\n# lintgv: ignore[GV999]\n# -*- coding: latin-1 -*-\n",
            "#!/usr/bin/env python\n\n# -*- coding: latin-1 -*-\n",
        ),
        (PY, "# -*- coding: utf-8 -*- lintgv: ignore[GV999]\nx = 1\n", None),
        (PY, "x = 1\n# lintgv: ignore[GV999]\ny = 2\n", "x = 1\n\ny = 2\n"),
        (PY, "x = 1\ny = 2\n# lintgv: ignore[GV999]\nz = 3\n", "x = 1\ny = 2\nz = 3\n"),
        # Only whole words are directives, and several in one comment leave no `#` behind.
        (PY, "x = 1  # nolintgv: ignore[GV101]\n", None),
        (PY, "x = 1  # lintgv: ignore[GV101] lintgv: ignore[GV999]\n", "x = 1\n"),
        (PY, "x = 1  # lintgv: ignore[GV101] # lintgv: ignore[GV999]\n", "x = 1\n"),
        (PY, "x = 1  # lintgv: ignore[GV1, lintgv: ignore[GV2]]\n", "x = 1\n"),
        (PY, "x = 1  # noqa: E501  # lintgv: ignore[GV999]\n", "x = 1  # noqa: E501\n"),
        (PY, "x = 1  # lintgv: ignore[GV999]  # noqa: E501\n", "x = 1  # noqa: E501\n"),
        (CPP, "int x;  // lintgv: ignore[GV101] // lintgv: ignore[GV999]\n", "int x;\n"),
    ],
)
def test_the_fix_changes_only_the_comment(language: Language, text: str, fixed: str | None) -> None:
    assert _fixed(text, language) == (text if fixed is None else fixed)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        (CPP, 'const char* u = "http://example.com/lintgv: ignore[GV101]";\n'),
        (CPP, 'const char* s = "// lintgv: ignore[GV999]";\n'),
        (CPP, 'const char* r = R"x(// lintgv: ignore[GV999])x";\n'),
        (CPP, 'char c = \'"\'; const char* s = "a\\\n// lintgv: ignore[GV999]";\n'),
        (PY, 'x = f"{"# lintgv: ignore[GV101]"}"\n'),
        (PY, "y = f'{'#' + 'lintgv: ignore[GV101]'\n}'\nz = '# lintgv: ignore[GV999]'\n"),
    ],
)
def test_directive_text_in_a_string_is_no_suppression(language: Language, text: str) -> None:
    result = _checker(language)(text)
    assert [f.code for f in result.findings] == []


def test_a_comment_is_reported_once_in_a_file_with_an_unclosed_bracket() -> None:
    text = "x = 1  # lintgv: ignore[GV101]\ny = (\n"
    result = check(SourceFile(ROOT / "a.py", PY, text), Config(root=ROOT))
    assert [f.code for f in result.findings if f.code == "GV902"] == ["GV902"]


def test_no_fix_where_the_comments_are_not_certain() -> None:
    # After an unterminated character literal, compilers differ on where code resumes.
    text = "int x;  // lintgv: ignore[GV999]\n#error don't\n"
    result = _checker(CPP)(text)
    assert [(f.code, f.fix) for f in result.findings] == [("GV902", None)]


@pytest.mark.parametrize(
    "text",
    [
        # `??/` is a backslash to a compiler with trigraphs (C++14 and before, C): it
        # continues the comment over the next line there, and not elsewhere.
        "int a = 1;  // lintgv: ignore[GV999] ??/\nint a = 2;\n",
        "int a = 1;  // lintgv: ignore[GV999] ??/  \nint a = 2;\n",
        "// ??/\n// lintgv: ignore[GV999]\nint b = 2;\n",
    ],
)
def test_no_fix_where_a_trigraph_may_splice_lines(text: str) -> None:
    result = _checker(CPP)(text)
    (unused,) = [f for f in result.findings if f.code == "GV902"]
    if unused.fix is not None:  # the third: the comment's line may stay, emptied
        (edit,) = unused.fix.edits
        assert edit.span.start_line == edit.span.end_line == 2
        assert apply_edits(text, [edit]).count("\n") == text.count("\n")
    else:
        assert unused.span.start_line == 1


# --- property: code tokens never change ------------------------------------------------

_DIRECTIVE = st.sampled_from(
    [
        "lintgv: ignore[GV999]",
        "lintgv: ignore[GV101]",
        "lintgv: ignore[GV101, GV998]",
        "nolintgv: ignore[GV999]",
        "lintgv: ignore[GV999] lintgv: ignore[GV998]",
    ]
)
_WORDS = st.sampled_from(["", "note ", "# ", "noqa: E501 "])
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def _python_text(draw: st.DrawFn) -> str:
    shebang, unused = "#!/usr/bin/env python", "# lintgv: ignore[GV999]"
    headers = [[], [shebang], ["# -*- coding: ascii -*-"], [unused], [shebang, unused]]
    lines = list(draw(st.sampled_from(headers)))
    for number in range(draw(st.integers(1, 6))):
        directive = draw(_DIRECTIVE)
        comment = f"# {draw(_WORDS)}{directive}{draw(st.sampled_from(['', ' #', ' end']))}"
        prefix, quote = draw(st.sampled_from([("", "'"), ("", '"'), ("f", "'"), ("rb", '"')]))
        quote = draw(st.sampled_from([quote, quote * 3]))
        literal = f"{prefix}{quote}{comment}{quote}"
        shape = draw(st.integers(0, 4))
        if shape == 0:
            lines.append(comment)
        elif shape == 1:
            lines.append(f"x{number} = {literal}  {comment}")
        elif shape == 2:
            lines += [f"x{number} = (  {comment}", f"    {literal},", ")"]
        elif shape == 3:
            lines += [f"x{number} = 1 + \\", f"    2  {comment}"]
        else:
            lines.append(f"x{number} = {literal}")
    if draw(st.booleans()):  # a declaration that must stay out of the first two lines
        lines.insert(min(2, len(lines)), "# -*- coding: latin-1 -*-")
    return "\n".join(lines) + "\n"


def _python_code(text: str) -> tuple[list[tuple[int, str]], str]:
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    code = [(t.type, t.string) for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL)]
    encoding, _ = tokenize.detect_encoding(io.BytesIO(text.encode()).readline)
    return code, encoding


@SETTINGS
@given(_python_text())
def test_python_code_tokens_and_encoding_never_change(text: str) -> None:
    assert _python_code(_fixed(text, PY)) == _python_code(text)


@st.composite
def _cpp_text(draw: st.DrawFn) -> str:
    lines = []
    for number in range(draw(st.integers(1, 6))):
        directive = draw(_DIRECTIVE)
        line_comment = f"// {draw(_WORDS)}{directive}"
        block = f"/*{draw(_WORDS)}{directive}*/"
        string = draw(st.sampled_from(['"{}"', 'R"d({})d"', 'u8"{}"']))
        literal = string.format(line_comment.replace('"', ""))
        shape = draw(st.integers(0, 5))
        if shape == 0:
            lines.append(line_comment)
        elif shape == 1:
            lines.append(f"const char* s{number} = {literal};  {line_comment}")
        elif shape == 2:
            lines.append(f"int f{number}(int x) {{ return{block}x; }}")
        elif shape == 3:
            lines += ["// a comment continued \\", line_comment, f"int x{number};"]
        elif shape == 4:
            lines.append(f"{block} int y{number} = 1'000;")
        else:
            lines.append(f"char c{number} = '\"'; {line_comment}")
    return "\n".join(lines) + "\n"


def _cpp_code(text: str) -> list[tuple[str, str]]:
    found = []
    parsed = parse_cpp(text)
    stack = list(reversed(parsed.root.children))
    while stack:
        node = stack.pop()
        if node.child_count == 0 and node.type != "comment":
            found.append((node.type, parsed.text(node)))
        stack.extend(reversed(node.children))
    return found


@SETTINGS
@given(_cpp_text())
def test_cpp_code_tokens_never_change(text: str) -> None:
    assert _cpp_code(_fixed(text, CPP)) == _cpp_code(text)


@pytest.mark.parametrize(
    ("text", "reported"),
    [
        # `match` has cases and no body: the header of a compound statement it is not.
        (
            "import tvm\n\n\ndef f(mod, x):\n    match x:\n        case _:\n            pass\n"
            '    gv = tvm.ir.GlobalVar("a")\n    mod[gv] = 1  # lintgv: ignore[GV101]\n',
            [("GV101", 8), ("GV902", 9)],
        ),
        (
            "import tvm\n\n\ndef f(mod, x):\n    match (\n        x\n    ):\n        case _:\n"
            '            gv = tvm.ir.GlobalVar("a")  # lintgv: ignore[GV101]\n'
            '            mod[gv] = 1\n    other = tvm.ir.GlobalVar("b")\n',
            [("GV101", 11)],
        ),
    ],
)
def test_suppressions_in_a_file_with_a_match_statement(
    text: str, reported: list[tuple[str, int]]
) -> None:
    result = check(SourceFile(ROOT / "a.py", PY, text), Config(root=ROOT))
    assert result.errors == ()
    assert [(f.code, f.span.start_line) for f in result.findings] == reported
