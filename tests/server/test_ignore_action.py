""" "Ignore GVxxx on this line" only offers a comment that is a comment where it goes: not
after a `\\` that continues a Python line (a syntax error), not inside a C++ string
continued with `\\` or a raw string (where it would change the string)."""

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from lintgv_server.actions import ignore_action
from lintgv_server.analysis import Analysis
from lintgv_server.ignores import ignore_edits
from pygls.workspace.position_codec import PositionCodec
from server_client import apply_text_edits

from lintgv.config import Config
from lintgv.discovery import Candidate
from lintgv.edits import apply_edits
from lintgv.engine import check
from lintgv.model import Language, SourceFile

PYTHON = "import tvm\n\ndef f(mod):\n    gv = {}\n    mod[gv] = 1\n"
CPP = 'void f(IRModule mod) {{\n  GlobalVar gv("a");{}\n  mod->Add(gv, f);\n}}\n'


def _analysis(name: str, text: str) -> Analysis:
    language = Language.PYTHON if name.endswith(".py") else Language.CPP
    target = Candidate(Path("/p") / name, language, Config(root=Path("/p")), "a")
    result = check(SourceFile(target.path, language, text), target.config)
    return Analysis(f"file:///p/{name}", 1, 0, text, target, result)


def _ignored(name: str, text: str) -> str | None:
    """Return the text with the ignore action of its GV101 applied (None: not offered)."""
    analysis = _analysis(name, text)
    [finding] = [f for f in analysis.result.findings if f.code == "GV101"]
    (edit,) = ignore_edits(analysis, [finding])
    action = ignore_action(analysis, PositionCodec(), finding, edit, None, False)
    if action is None:
        return None
    assert action.edit is not None and action.edit.changes is not None
    return apply_text_edits(text, action.edit.changes[analysis.uri])


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("continued.py", PYTHON.format('tvm.ir.GlobalVar("a") + \\\n        1')),
        ("string.cc", CPP.format(' const char* s = "x\\\n  y";')),
        ("raw.cc", CPP.format(' auto s = R"(\n  y)";')),
    ],
)
def test_no_ignore_comment_is_offered_where_it_would_not_be_a_comment(name: str, text: str) -> None:
    assert _ignored(name, text) is None


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("plain.py", PYTHON.format('tvm.ir.GlobalVar("a")')),
        ("plain.cc", CPP.format("")),
        ("closed.cc", CPP.format(' const char* s = "x";')),
    ],
)
def test_an_ignore_comment_that_is_a_comment_silences_the_finding(name: str, text: str) -> None:
    ignored = _ignored(name, text)
    assert ignored is not None and "lintgv: ignore[GV101]" in ignored
    assert [f.code for f in _analysis(name, ignored).result.findings] == []


# Functions that each hold one GlobalVar (GV101), its line's end in a different place.
PYTHON_SITES = (
    '    gv = tvm.ir.GlobalVar("a{n}")\n',
    '    gv = tvm.ir.GlobalVar("a{n}") + \\\n        1\n',  # a continued line
    '    gv = tvm.ir.GlobalVar("a{n}")  # lintgv: ignore[GV102]\n',  # a directive there
    '    gv = tvm.ir.GlobalVar("a{n}"); s = "x"\n',
    '    gv = tvm.ir.GlobalVar(\n        "a{n}")\n',
    '    gv = tvm.ir.GlobalVar("a{n}"); s = """\n    x"""\n',  # ends inside a string
)
CPP_SITES = (
    '  GlobalVar gv("a{n}");\n',
    '  GlobalVar gv("a{n}"); const char* s = "x\\\n  y";\n',  # a continued string
    '  GlobalVar gv("a{n}"); auto s = R"(\n  y)";\n',  # a raw string
    '  GlobalVar gv("a{n}");  // lintgv: ignore[GV102]\n',
    '  GlobalVar gv("a{n}"); /* open\n  still */\n',  # ends inside a comment
    '  GlobalVar gv("a{n}"); \\\n  int k = 0;\n',  # a `\` ends the line
    # A directive broken over two lines, a second site after it.
    '  GlobalVar gv("a{n}");  /* lintgv: ignore[GV201,\n    GV202] */ GlobalVar b("b{n}");\n',
)


def _document(language: Language, sites: list[int]) -> str:
    if language == Language.PYTHON:
        body = [
            f"def f{n}(mod):\n{PYTHON_SITES[s % len(PYTHON_SITES)].format(n=n)}"
            for n, s in enumerate(sites)
        ]
        return "import tvm\n\n" + "\n".join(body)
    body = [
        f"void f{n}(IRModule mod) {{\n{CPP_SITES[s].format(n=n)}}}\n" for n, s in enumerate(sites)
    ]
    return "".join(body)


@settings(max_examples=60, deadline=None)
# A raw string's line after three comments (unshifted, its marker would fall in the
# comment of the line before), and a Python syntax error in the batch.
@example(language=Language.CPP, sites=[0, 0, 0, 2])
@example(language=Language.PYTHON, sites=[0, 1, 5, 2])
@given(
    language=st.sampled_from([Language.PYTHON, Language.CPP]),
    sites=st.lists(st.integers(0, 6), min_size=1, max_size=6),
)
def test_ignore_comments_proved_together_are_those_proved_one_by_one(
    language: Language, sites: list[int]
) -> None:
    name = "doc.py" if language == Language.PYTHON else "doc.cc"
    text = _document(language, sites)
    findings = [f for f in _analysis(name, text).result.findings if f.code == "GV101"]
    together = ignore_edits(_analysis(name, text), findings)
    alone = [ignore_edits(_analysis(name, text), [f])[0] for f in findings]
    assert together == alone
    for finding, edit in zip(findings, together, strict=True):
        if edit is None:
            continue
        left = _analysis(name, apply_edits(text, [edit])).result.findings
        # That finding is silenced, and nothing else changes.
        assert [(f.code, f.message) for f in left if f.code == "GV101"] == [
            (f.code, f.message) for f in findings if f is not finding
        ]


def test_a_broken_document_gives_the_comments_proved_one_by_one_and_no_error() -> None:
    # Lines a lexer cannot finish (an unterminated string, a directive left open) beside
    # sites: proved together, the comments once made the text too broken to parse, or
    # overlapped a directive's join.
    text = (
        'void f0(IRModule mod) {\n  GlobalVar gv("a0_0");\n  void f() {\n}\n'
        'void f1(IRModule mod) {\n  GlobalVar gv("a1_0"); \\\n  still */\n'
        '  GlobalVar gv("a1_1"); const char* s = "x\\\n}\n'
        'void f2(IRModule mod) {\n  GlobalVar gv("a2_0"); /* lintgv: ignore[GV102,\n  }\n}\n'
        'void f3(IRModule mod) {\n  GlobalVar gv("a3_0"); const char* s = "x\\\n'
        '  x = "unterminated\n}\n'
        'void f4(IRModule mod) {\n  GlobalVar gv("a4_0"); /* open\n  // line ends \\\n'
        '  const char* s = "x\\\n  GlobalVar gv("a4_1");  // lintgv: ignore[GV102]\n'
        "  /* lintgv: ignore[GV102] */ int z;\n}\n"
    )
    findings = list(_analysis("doc.cc", text).result.findings)
    assert findings
    together = ignore_edits(_analysis("doc.cc", text), findings)
    assert together == [ignore_edits(_analysis("doc.cc", text), [f])[0] for f in findings]


def test_no_comment_follows_a_continued_python_line_in_a_document_with_a_syntax_error() -> None:
    text = 'import tvm\n\ndef f(mod):\n    gv = tvm.ir.GlobalVar("a") + \\\n        1\n\ndef g(:\n'
    assert _ignored("broken.py", text) is None


@pytest.mark.parametrize(
    ("name", "text", "code"),
    [
        ("bare.cc", CPP.format("  // lintgv: ignore"), "GV901"),
        ("unused.cc", CPP.format("  // lintgv: ignore[GV101, GV102]"), "GV902"),
        ("bare.py", PYTHON.format('tvm.ir.GlobalVar("a")  # lintgv: ignore'), "GV901"),
    ],
)
def test_no_ignore_comment_is_offered_for_a_finding_on_a_suppression_comment(
    name: str, text: str, code: str
) -> None:
    # Such a finding is made after the comments are applied: no comment silences it.
    analysis = _analysis(name, text)
    found = [f for f in analysis.result.findings if f.code == code]
    assert found
    assert ignore_edits(analysis, found) == [None] * len(found)


def test_a_python_comment_ending_in_a_backslash_still_gets_an_ignore_comment() -> None:
    # The `\` is the comment's text, not a continued line.
    text = PYTHON.format('tvm.ir.GlobalVar("a")  # C:\\tmp\\')
    ignored = _ignored("comment.py", text)
    assert ignored is not None
    assert 'tvm.ir.GlobalVar("a")  # C:\\tmp\\  # lintgv: ignore[GV101]\n' in ignored
    assert [f.code for f in _analysis("comment.py", ignored).result.findings] == []
