"""CppParses: supply threading plans again after every change; a C++ file's parse is
kept for as long as its text is the same, and made again when it changes."""

from pathlib import Path

import pytest

from lintgv.errors import ParseError
from lintgv.holding import CppParses
from lintgv.parsing.cpp import ParsedCpp, parse_cpp


def test_a_cpp_parse_is_kept_for_its_text_and_made_again_for_a_new_one() -> None:
    parses = CppParses()
    path = Path("src/a.cc")
    first = parses.of(path, "int f() { return 1; }\n")
    # An equal text read again (a new object) is the same text.
    assert parses.of(path, "".join(["int f() { return 1; }\n", ""])) is first
    changed = parses.of(path, "int f(int x) { return x; }\n")
    assert changed is not first
    assert changed.text(changed.tree.root_node).startswith("int f(int x)")
    assert parses.of(Path("src/b.cc"), "int f() { return 1; }\n") is not first


def test_a_text_that_does_not_parse_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import lintgv.holding

    parsed: list[str] = []

    def counting(text: str) -> ParsedCpp:
        parsed.append(text)
        return parse_cpp(text)

    monkeypatch.setattr(lintgv.holding, "parse_cpp", counting)
    parses = CppParses()
    broken = ")))) ]]]] }}}} " * 40
    raised = []
    for _ in range(3):
        with pytest.raises(ParseError) as caught:
            parses.of(Path("src/a.cc"), broken)
        raised.append((str(caught.value), caught.value.line, caught.value.column))
    assert len(parsed) == 1
    assert raised[0][0].startswith("C++ could not be parsed") and raised.count(raised[0]) == 3
