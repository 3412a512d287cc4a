"""A C++ document parsed incrementally from its previous version gets the tree a fresh
parse gives, whatever the edit."""

from pathlib import Path

import pytest
import tree_sitter
from hypothesis import given, settings
from hypothesis import strategies as st
from lintgv_server.memory import ChangeLog, DocumentMemory

from lintgv.config import Config
from lintgv.engine import check
from lintgv.errors import ParseError
from lintgv.model import Language, SourceFile
from lintgv.parsing import cpp as cpp_parsing
from lintgv.parsing.cpp import language, parse_cpp

BASE = """#include <tvm/ir/module.h>
namespace tvm {
// café: a non-ASCII comment shifts byte columns
GlobalVar Make(IRModule mod) {
  GlobalVar gv("main");
  mod->Add(gv, f);
  return gv;
}
}  // namespace tvm
"""
PIECES = ['GlobalVar x("f");', "\n", "{", "}", "é", "  ", "#define M(x) x\n", "int y;", ")"]


def _same(text: str, previous: str) -> None:
    try:
        before = parse_cpp(previous)
    except ParseError:
        return  # nothing to start from
    try:
        fresh = parse_cpp(text)
    except ParseError as refused:
        with pytest.raises(ParseError) as also:
            parse_cpp(text, before)
        assert str(also.value) == str(refused)
        return
    incremental = parse_cpp(text, before)
    assert str(incremental.root) == str(fresh.root)
    assert incremental.root.end_point == fresh.root.end_point


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, len(BASE)),
    st.integers(0, 40),
    st.lists(st.sampled_from(PIECES), max_size=4),
)
def test_an_edited_version_parses_as_a_fresh_parse_does(
    start: int, cut: int, pieces: list[str]
) -> None:
    edited = BASE[:start] + "".join(pieces) + BASE[start + cut :]
    _same(edited, BASE)
    _same(BASE, edited)


def test_a_document_s_memory_keeps_its_last_parse(tmp_path: Path) -> None:
    memory = DocumentMemory()
    first = memory.parse_cpp(BASE)
    second = memory.parse_cpp(BASE.replace('"main"', '"other"'))
    assert memory.parsed_cpp is second and first is not second
    fresh = parse_cpp(BASE.replace('"main"', '"other"'))
    assert second.text(second.root) == fresh.text(fresh.root)


def test_findings_of_an_incremental_check_match_a_fresh_check(tmp_path: Path) -> None:
    config = Config(root=tmp_path)
    memory = DocumentMemory()
    path = tmp_path / "a.cc"
    versions = [BASE, BASE.replace("  mod->Add", '  GlobalVar g2("x");\n  mod->Add'), BASE]
    for text in versions:
        source = SourceFile(path, Language.CPP, text)
        assert check(source, config, reuse=memory) == check(source, config)


ROUGH = ["#ifdef X\n", "#endif\n", "{", "}", "(", ")", "auto f = [&](const A&)", "\n", "int x;"]
ROUGH += ["namespace n {", "void F() {", " << a", "TVM(x)", '"s"', ";", "class C {", "return"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ROUGH), min_size=1, max_size=10).map("".join))
def test_a_file_is_refused_exactly_when_most_of_it_is_in_syntax_errors(text: str) -> None:
    tree = tree_sitter.Parser(language()).parse(text.encode())
    whole = len(text.encode())
    broken = 0
    stack = [tree.root_node]
    while stack:  # MISSING nodes, and what ERROR nodes span outside constructs
        node = stack.pop()
        if node.is_error:
            kept = [c for c in node.children if not _loose(c)]
            broken += node.end_byte - node.start_byte
            broken -= sum(c.end_byte - c.start_byte for c in kept)
            stack.extend(c for c in kept if c.children)
        elif node.is_missing:
            broken += node.end_byte - node.start_byte
        else:
            stack.extend(node.children)
    try:
        parse_cpp(text)
    except ParseError:
        assert broken / whole > 0.6
    else:
        assert broken / whole <= 0.6


def _loose(node: tree_sitter.Node) -> bool:
    return not node.children and node.type != "comment"


@st.composite
def _changes(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, str]]]:
    """Return a text reached from BASE by a few editor changes, and those changes."""
    text, changes = BASE, []
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 30)))
        new = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=3)))
        changes.append((start, end, new))
        text = text[:start] + new + text[end:]
    return text, changes


@settings(max_examples=150, deadline=None)
@given(_changes())
def test_a_parse_told_the_editor_s_changes_is_a_fresh_parse(
    edited: tuple[str, list[tuple[int, int, str]]],
) -> None:
    text, changes = edited
    before = parse_cpp(BASE)
    # The changes lead from BASE to the text: the tree is told them, not a comparison.
    assert cpp_parsing.changed(before.tree, before.data, changes, text.encode()) is not None
    try:
        fresh = parse_cpp(text)
    except ParseError:
        return
    incremental = parse_cpp(text, before, changes=changes)
    assert str(incremental.root) == str(fresh.root)


def test_changes_that_do_not_lead_to_the_text_are_not_used() -> None:
    before = parse_cpp(BASE)
    text = BASE.replace('"main"', '"other"')
    assert cpp_parsing.changed(before.tree, before.data, [(0, 0, "x")], text.encode()) is None
    assert cpp_parsing.changed(before.tree, before.data, [(5, 2, "")], text.encode()) is None
    assert str(parse_cpp(text, before, changes=[(0, 0, "x")]).root) == str(parse_cpp(text).root)


def test_a_document_s_memory_parses_from_the_client_s_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compared = []
    real = cpp_parsing.edited
    monkeypatch.setattr(cpp_parsing, "edited", lambda *a: compared.append(1) or real(*a))
    memory, log, text = DocumentMemory(), ChangeLog(), BASE
    memory.upcoming = log.copy()
    memory.parse_cpp(text)
    for start, end, new in [(0, 0, "// a\n"), (10, 12, "x"), (len(BASE), len(BASE), "\n")]:
        text = text[:start] + new + text[end:]
        log.add((start, end, new))
        memory.upcoming = log.copy()
        parsed = memory.parse_cpp(text)
        assert str(parsed.root) == str(parse_cpp(text).root)
    assert compared == []
    log.lost()  # a whole-text change: the texts are compared once, then changes again
    memory.upcoming = log.copy()
    memory.parse_cpp(text)
    assert compared == [1]


CR_PIECES = ["\r", "\n", "\r\n", "#include <a.h>\r", 'GlobalVar x("f");', "// c\r"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, len(BASE)), st.integers(0, 8), st.sampled_from(CR_PIECES)),
        min_size=1,
        max_size=3,
    )
)
def test_a_cr_only_document_reparses_as_a_fresh_parse_does(
    steps: list[tuple[int, int, str]],
) -> None:
    # tree-sitter sees each lone \r as a \n (parsing.cpp.parser_view): an edit can make
    # one or unmake one next to it, outside what the editor changed.
    text, changes = BASE.replace("\n", "\r"), []
    before = parse_cpp(text)
    for start, cut, new in steps:
        start = min(start, len(text))
        end = min(len(text), start + cut)
        changes.append((start, end, new))
        text = text[:start] + new + text[end:]
    try:
        fresh = parse_cpp(text)
    except ParseError as refused:
        for told in (changes, None):
            with pytest.raises(ParseError) as also:
                parse_cpp(text, before, changes=told)
            assert str(also.value) == str(refused)
        return
    for incremental in (parse_cpp(text, before, changes=changes), parse_cpp(text, before)):
        assert str(incremental.root) == str(fresh.root)
        assert incremental.line_starts == fresh.line_starts


def test_a_cr_only_file_parses_as_its_lf_version_does() -> None:
    lf, cr = parse_cpp(BASE), parse_cpp(BASE.replace("\n", "\r"))
    assert str(cr.root) == str(lf.root)
    assert cr.line_starts == lf.line_starts
