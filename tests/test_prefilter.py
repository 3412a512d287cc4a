"""The literal guards in front of trigger regexes never hide a match."""

import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lintgv.config import Config
from lintgv.engine import _Triggered
from lintgv.fixing.python_members import _ATTRIBUTE_USE
from lintgv.prefilter import LINE_START, Hints, Triggers, combined, guard_of, matches

# (pattern, texts it matches, a text it cannot match)
CASES = [
    (r"GlobalVar\s*\(", ["x = GlobalVar  ('f')"], "gv = supply.fresh_global('f')"),
    (r"nique_?\w{0,24}?[Nn]ame", ["GetUniqueName(", "get_unique_var_name"], "make_unique<T>()"),
    (r"(?:while|for)\s*\((?=[^;]*\.count\()", ["while (m.count(n))"], "while (true) {}"),
    (r"kGlobalSymbol|\"global_symbol\"", ["attr::kGlobalSymbol", '{"global_symbol": f}'], "sym"),
    (r"return[ \t]+(?:x|y)\(", ["return x(1)", "return  y("], "return z(1)"),
    (r"a(?=b+c)", ["abbc"], "ab"),
    (r"(?i)globalvar", ["GLOBALVAR"], ""),
    (r"(?:ab)?cd", ["cd", "abcd"], "ab"),
]


@pytest.mark.parametrize(("pattern", "matching", "other"), CASES)
def test_a_guard_admits_every_text_the_pattern_matches(
    pattern: str, matching: list[str], other: str
) -> None:
    guard = guard_of(pattern)
    for text in matching:
        assert re.search(pattern, text), text
        assert guard.admits(text, {}), text


def test_a_guard_rejects_text_without_its_literals() -> None:
    assert not guard_of(r"GlobalVar\s*\(").admits("gv = supply.fresh_global('f')", {})
    assert not guard_of(r"(?:while|for)\s*\((?=[^;]*\.count\()").admits("while (x) {}", {})


def test_optional_and_case_insensitive_parts_require_nothing() -> None:
    assert guard_of(r"(?i)globalvar").groups == ()
    assert guard_of(r"(?:ab)?cd").groups == (frozenset({"cd"}),)


def test_an_alternation_requires_one_literal_of_each_branch() -> None:
    assert guard_of(r"kGlobalSymbol|\w+").groups == ()
    assert guard_of(r"kGlobalSymbol|x\w+").groups == (frozenset({"kGlobalSymbol", "x"}),)
    assert frozenset({"while", "for"}) in guard_of(r"(?:while|for)\(").groups


# Compiled patterns as callers pass them: flags given at compile time change what their
# literals are (a guard of the pattern's text alone would reject "GLOBALVAR", or require
# the blank of a verbose pattern).
COMPILED = [
    re.compile(r"\bclass\s+\w+\s*\([^)]*\bBase\b"),
    _ATTRIBUTE_USE,
    re.compile("globalvar", re.IGNORECASE),
    re.compile("global var", re.VERBOSE),
    re.compile(r"^def f", re.MULTILINE),
]
PIECES = ["class", "Base", " ", "(", ")", "D", ".", "global_var_supply", "\n", "GLOBALVAR"]
TEXTS = st.lists(st.sampled_from([*PIECES, "globalvar", "def f", "x", "_"]), max_size=12).map(
    "".join
)


@given(st.sampled_from(COMPILED), TEXTS)
def test_matches_is_a_search_of_the_compiled_pattern(pattern: re.Pattern[str], text: str) -> None:
    assert matches(pattern, text) == (pattern.search(text) is not None)


def test_combined_matches_any_of_its_patterns_in_order() -> None:
    pattern = combined(("ab", "a"))
    assert pattern is not None
    assert [m.group() for m in pattern.finditer("ab a")] == ["ab", "a"]
    assert combined(()) is None


def test_combined_matches_any_of_its_patterns_in_order_with_anchored_ones_after() -> None:
    pattern = combined((LINE_START + "for ", "x"))
    assert pattern is not None
    found = [(m.start(), m.group()) for m in pattern.finditer("for x\n  for y\nz for")]
    assert found == [(4, "x"), (0, "for "), (8, "for ")]


@given(st.lists(st.sampled_from(["for ", "while ", " ", "\t", "\n", "x", "#", "\r\n"])))
def test_an_anchored_trigger_matches_on_the_lines_the_plain_regex_matches(
    pieces: list[str],
) -> None:
    text = "".join(pieces)
    patterns = (LINE_START + "for ", LINE_START + r"while[ \t]x")
    triggers = combined(patterns)
    assert triggers is not None
    plain = re.compile("|".join(f"(?:{p})" for p in patterns))

    def lines(matches: Iterable[re.Match[str]]) -> set[int]:
        return {text.count("\n", 0, m.end()) for m in matches}

    assert lines(triggers.finditer(text)) == lines(plain.finditer(text))
    assert (triggers.search(text) is None) == (plain.search(text) is None)


SHAPE = (
    r"(?:while|for)\s*\((?=(?:[^\n]*\n){0,3}?[^\n]*?\.count\()",
    LINE_START + r"return\s+x",
    r"GlobalVar\s*\(",
)
PIECES = ["while (", "for(", "m.count(", "\n", "  return x", "return x", "GlobalVar(", "y", " "]


@given(
    st.lists(st.sampled_from(PIECES), max_size=12).map("".join),
    st.dictionaries(st.sampled_from(SHAPE), st.integers(0, 80)),
    st.integers(0, 80),
)
def test_a_hint_from_the_last_version_never_changes_what_matches(
    text: str, positions: dict[str, int], length: int
) -> None:
    fresh = _Triggered((), Config(root=Path("/p")), text, frozenset(), False)
    hints = Hints(dict(positions), length)
    hinted = _Triggered((), Config(root=Path("/p")), text, frozenset(), False, hints)
    for pattern in SHAPE:
        assert hinted.hit(pattern) == fresh.hit(pattern)
        if fresh.hit(pattern):  # the hint now points at a match of this version
            assert combined((pattern,)).matches_at(text, hints.positions[pattern])  # type: ignore[union-attr]
    assert hints.length == len(text)


def test_a_match_still_in_place_or_moved_by_an_edit_needs_no_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pattern = SHAPE[0]
    before = "int a;\nwhile (m.count(n)) {}\n"
    hints = Hints()
    assert _Triggered((), Config(root=Path("/p")), before, frozenset(), False, hints).hit(pattern)
    assert hints.positions[pattern] == 7

    def no_search(self: object, text: str) -> None:
        raise AssertionError("searched although the hint holds")

    monkeypatch.setattr(Triggers, "search", no_search)
    for after in (before + "int b;\n", "int zz;\n" + before):  # an edit after it, before it
        last = Hints(dict(hints.positions), hints.length)
        assert _Triggered((), Config(root=Path("/p")), after, frozenset(), False, last).hit(pattern)
        assert last.positions[pattern] == after.index("while")
