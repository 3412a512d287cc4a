"""Properties of the engine on generated Python and C++: a GlobalVar built by hand among
arbitrary surrounding code is always found, nothing in the surrounding code is, a
suppression comment always wins, and applying the fixes round after round (with the
`choose` and `apply` that `lintgv fix` uses) gives text that parses, is stable, keeps every
byte outside the edits, and no longer holds the finding; `settle` itself agrees.
"""

from dataclasses import dataclass
from pathlib import Path

import libcst as cst
from hypothesis import given
from hypothesis import strategies as st

from lintgv.codemods.includes import without_unused_import
from lintgv.config import Config
from lintgv.edits import offsets_of
from lintgv.engine import check
from lintgv.fixing.settle import apply, choose, settle
from lintgv.lines import LineIndex
from lintgv.model import FileResult, Finding, Language, SourceFile
from lintgv.parsing.cpp import parse_cpp

ROOT = Path("/project")
CONFIG = Config(root=ROOT)
CODE = "GV101"
MAX_ROUNDS = 10

PY_KEYWORDS = {"if", "in", "is", "as", "or", "and", "def", "for", "not", "del", "try", "with"}
names = st.from_regex(r"[a-z][a-z0-9_]{0,7}", fullmatch=True).filter(
    lambda n: n not in PY_KEYWORDS and n not in {"tvm", "relay", "mod", "func", "gv", "f"}
)
global_names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,10}", fullmatch=True)


@dataclass(frozen=True)
class Snippet:
    """Generated source: the flagged construction sits on `line`; `kept` is the
    surrounding code, which no fix may change."""

    text: str
    line: int
    kept: tuple[str, ...]
    language: Language


def _check(text: str, language: Language) -> FileResult:
    path = ROOT / ("gen.py" if language == Language.PYTHON else "gen.cc")
    return check(SourceFile(path, language, text, "gen"), CONFIG, whole=True)


def _ours(result: FileResult) -> list[Finding]:
    return [f for f in result.findings if f.code == CODE]


# --- Python ------------------------------------------------------------------------


@st.composite
def python_statement(draw: st.DrawFn) -> str:
    """One statement of a function body (indented four spaces), never a GlobalVar."""
    name, other = draw(names), draw(names)
    number = draw(st.integers(0, 999))
    return draw(
        st.sampled_from(
            [
                f"    {name} = {number}\n",
                f"    {name} = [{number},\n        {other}]\n",
                f"    if {name}:\n        {other} = {name} + 1\n",
                f"    for {name} in range({number}):\n        pass\n",
                f"    # GlobalVar({other!r}) in a comment\n",
                f"    {name} = 'GlobalVar({other})'\n",
                f'    {name} = """\n    relay.GlobalVar("{other}")\n    """\n',
                f"    def {name}({other}):\n        return {other}\n",
                f"    {name} = isinstance({other}, relay.GlobalVar)\n",
                f"    {name} = {other}.name_hint\n",
            ]
        )
    )


@st.composite
def python_top_level(draw: st.DrawFn) -> str:
    name, other = draw(names), draw(names)
    return draw(
        st.sampled_from(
            [
                f"{name.upper()} = {draw(st.integers(0, 99))}\n",
                f"\n\ndef {name}({other}):\n    return {other}\n",
                f"\n\nclass {name.title()}:\n    {other} = None\n",
                f"# top-level note about GlobalVar({other!r})\n",
                f"{name} = {{'{other}': 1}}\n",
            ]
        )
    )


PY_CONSTRUCTIONS = [
    'relay.GlobalVar("{n}")',
    "tvm.ir.GlobalVar('{n}')",
    'GV("{n}")',
    'relay.GlobalVar(\n        "{n}"\n    )',
]


@st.composite
def python_snippets(draw: st.DrawFn) -> Snippet:
    """A module whose function builds one GlobalVar and adds it to the module in scope."""
    header = "import tvm\nfrom tvm import relay\nfrom tvm.ir import GlobalVar as GV\n"
    top = "".join(draw(st.lists(python_top_level(), max_size=3)))
    before = "".join(draw(st.lists(python_statement(), max_size=4)))
    after = "".join(draw(st.lists(python_statement(), max_size=4)))
    call = draw(st.sampled_from(PY_CONSTRUCTIONS)).format(n=draw(global_names))
    signature = "\n\ndef build(mod: tvm.IRModule, func):\n"
    head = header + top + signature + before
    text = head + f"    gv = {call}\n" + after + "    mod[gv] = func\n    return mod\n"
    line = head.count("\n") + 1
    return Snippet(text, line, (top, before, after), Language.PYTHON)


# --- C++ ---------------------------------------------------------------------------


@st.composite
def cpp_statement(draw: st.DrawFn) -> str:
    """One statement of a function body, never a GlobalVar construction."""
    name, other = draw(names), draw(names)
    number = draw(st.integers(0, 999))
    return draw(
        st.sampled_from(
            [
                f"  int {name} = {number};\n",
                f'  // GlobalVar("{other}") in a comment\n',
                f'  const char* {name} = "GlobalVar(\\"{other}\\")";\n',
                f"  if ({name}) {{\n    {other}();\n  }}\n",
                f"  for (int {name} = 0; {name} < {number}; ++{name}) {{\n"
                f"    {other} += 1;\n  }}\n",
                f'  ICHECK({name}.defined()) << "{other}";\n',
                f"  Map<GlobalVar, BaseFunc> {name};\n",
                f"  GlobalVar {name};\n",
                f'  GlobalVar {name} = mod->GetGlobalVar("{other}");\n',
                f'  /* GlobalVar {name}("{other}"); */\n',
            ]
        )
    )


@st.composite
def cpp_top_level(draw: st.DrawFn) -> str:
    name, other = draw(names), draw(names)
    return draw(
        st.sampled_from(
            [
                f"static int {name} = {draw(st.integers(0, 99))};\n",
                f"int {name.title()}(int {other}) {{ return {other}; }}\n",
                f"#define {name.upper()} {other}\n",
                f"// note: GlobalVar({other}) is built elsewhere\n",
                f"class {name.title()} {{\n public:\n"
                "  GlobalVar Get(const String& n) const;\n};\n",
            ]
        )
    )


CPP_CONSTRUCTIONS = [
    'GlobalVar gv("{n}");',
    'GlobalVar gv{{"{n}"}};',
    'auto gv = GlobalVar("{n}");',
    'GlobalVar gv = tvm::GlobalVar(\n      "{n}");',
]


@st.composite
def cpp_snippets(draw: st.DrawFn) -> Snippet:
    """A C++ file whose function builds one GlobalVar and adds it to the module in scope."""
    header = "#include <tvm/ir/module.h>\n\n"
    top = "".join(draw(st.lists(cpp_top_level(), max_size=3)))
    before = "".join(draw(st.lists(cpp_statement(), max_size=4)))
    after = "".join(draw(st.lists(cpp_statement(), max_size=4)))
    call = draw(st.sampled_from(CPP_CONSTRUCTIONS)).format(n=draw(global_names))
    signature = "\nIRModule Build(IRModule mod, const Function& f) {\n"
    head = header + top + signature + before
    text = head + f"  {call}\n" + after + "  mod->Add(gv, f);\n  return mod;\n}\n"
    line = head.count("\n") + 1
    return Snippet(text, line, (top, before, after), Language.CPP)


snippets = st.one_of(python_snippets(), cpp_snippets())


# --- detection and suppression -------------------------------------------------------


@given(snippets)
def test_the_construction_is_found_and_nothing_else(snippet: Snippet) -> None:
    result = _check(snippet.text, snippet.language)
    assert result.errors == ()
    assert [f.span.start_line for f in _ours(result)] == [snippet.line]


def _with_comment(snippet: Snippet, comment: str) -> str:
    lines = snippet.text.split("\n")
    lines[snippet.line - 1] += f"  {comment}"
    return "\n".join(lines)


@given(snippets, st.sampled_from(["GV101", "GV101,GV201", "GV2, GV101", " GV101 "]))
def test_a_suppression_comment_always_wins(snippet: Snippet, codes: str) -> None:
    marker = "#" if snippet.language == Language.PYTHON else "//"
    text = _with_comment(snippet, f"{marker} lintgv: ignore[{codes}]")
    result = _check(text, snippet.language)
    assert _ours(result) == []
    unused = [f for f in result.findings if f.code == "GV902" and "GV101" in f.message]
    assert unused == []


@given(snippets)
def test_a_suppression_for_another_code_does_not_hide_the_finding(snippet: Snippet) -> None:
    marker = "#" if snippet.language == Language.PYTHON else "//"
    result = _check(_with_comment(snippet, f"{marker} lintgv: ignore[GV201]"), snippet.language)
    assert [f.span.start_line for f in _ours(result)] == [snippet.line]


# --- fixes -----------------------------------------------------------------------------


def _parses(text: str, language: Language) -> bool:
    if language == Language.PYTHON:
        try:
            cst.parse_module(text)
        except cst.ParserSyntaxError:
            return False
        return True
    return parse_cpp(text).error_nodes() == []


def _outside_edits_kept(before: str, after: str, findings: tuple[Finding, ...]) -> bool:
    """Tell whether `after` is `before` with only the applied edits' ranges replaced."""
    index = LineIndex(before)
    edits = sorted(
        {
            (
                *offsets_of(index, e.span),
                e.text,
            )
            for f in findings
            if f.fix is not None
            for e in f.fix.edits
        }
    )
    expected, cursor = [], 0
    for start, end, new in edits:
        expected += [before[cursor:start], new]
        cursor = end
    expected.append(before[cursor:])
    return "".join(expected) == after


def _settle(snippet: Snippet) -> tuple[str, list[str]]:
    """Apply every fix, round after round; return the text and one note per round."""
    text = snippet.text
    notes = []
    for _ in range(MAX_ROUNDS):
        chosen = choose(text, _check(text, snippet.language).findings, unsafe=True)
        if not chosen:
            return text, notes
        new_text = apply(text, chosen)
        assert _outside_edits_kept(text, new_text, tuple(chosen)), (text, new_text)
        notes.append(",".join(f.code for f in chosen))
        text = new_text
    raise AssertionError(f"fixes did not settle in {MAX_ROUNDS} rounds: {notes}")


@given(snippets)
def test_fixes_parse_settle_keep_the_rest_and_remove_the_finding(snippet: Snippet) -> None:
    original = _ours(_check(snippet.text, snippet.language))
    assert original and original[0].fix is not None, "a module is in scope: a fix is expected"
    fixed, rounds = _settle(snippet)
    assert rounds, "the fix changed nothing"
    assert _parses(fixed, snippet.language), fixed
    assert choose(fixed, _check(fixed, snippet.language).findings, unsafe=True) == [], (
        "not idempotent"
    )
    proved = settle(
        snippet.text, snippet.language, lambda t: _check(t, snippet.language), unsafe=True
    )
    # The proved loop also drops the GlobalVar import the fixes left unused.
    tidied = without_unused_import(fixed, "GlobalVar", snippet.text)
    assert (proved.text, proved.rejected) == (tidied, ())
    assert _ours(_check(fixed, snippet.language)) == [], fixed
    # Edits may insert lines (a supply declaration) between surrounding lines, but every
    # surrounding line must survive, unchanged and in order.
    remaining = iter(fixed.split("\n"))
    for line in (line for chunk in snippet.kept for line in chunk.split("\n") if line):
        assert any(candidate == line for candidate in remaining), f"changed: {line!r}\n{fixed}"
