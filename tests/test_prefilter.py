"""The literal guards in front of trigger regexes never hide a match."""

import re
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lintgv.prefilter import LINE_START, combined, guard_of

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
