"""The fix loop: rounds until stable, and the proof every round must pass."""

import ast
import re
from pathlib import Path

from lintgv.fixing.settle import Checker, settle
from lintgv.model import (
    Applicability,
    Edit,
    FileError,
    FileResult,
    Finding,
    Fix,
    Language,
    Severity,
    Span,
)

PATH = Path("a.py")


def _checker(
    pattern: str,
    replacement: str,
    applicability: Applicability = Applicability.SAFE,
    language: Language = Language.PYTHON,
) -> Checker:
    """Report every match of `pattern` (on one line) with a fix writing `replacement`; as
    lintgv's check does, Python that does not parse gets a file error instead."""

    def run(text: str) -> FileResult:
        try:
            if language == Language.PYTHON:
                ast.parse(text)
        except SyntaxError as exc:
            error = FileError(PATH, f"Python syntax error: {exc.msg}", exc.lineno)
            return FileResult(PATH, errors=(error,))
        found = []
        for number, line in enumerate(text.split("\n"), 1):
            for match in re.finditer(pattern, line):
                span = Span(number, match.start(), number, match.end())
                edit = Edit(span, replacement, match.group())
                fix = Fix("Replace", applicability, (edit,))
                found.append(Finding("GV999", "test", PATH, span, "bad", Severity.WARNING, fix))
        return FileResult(PATH, tuple(found))

    return run


def test_every_fix_is_applied_and_the_loop_ends() -> None:
    settled = settle("a = BAD\nb = BAD\n", Language.PYTHON, _checker("BAD", "good"), unsafe=False)
    assert settled.text == "a = good\nb = good\n"
    assert len(settled.applied) == 2
    assert settled.stable


def test_a_fix_that_breaks_the_syntax_is_rejected_with_its_reason() -> None:
    settled = settle("a = BAD\n", Language.PYTHON, _checker("BAD", "("), unsafe=False)
    assert settled.text == "a = BAD\n"
    [rejected] = settled.rejected
    assert (
        rejected.reason
        == "the result does not parse: Python syntax error: '(' was never closed (line 1)"
    )


def test_a_fix_that_leaves_its_site_reported_is_rejected() -> None:
    settled = settle("a = BAD\n", Language.PYTHON, _checker("BAD", "BAD2"), unsafe=False)
    assert settled.text == "a = BAD\n"
    assert [r.reason for r in settled.rejected] == ["the site is still reported after the fix"]


def test_a_rejected_fix_does_not_hold_back_the_others() -> None:
    def checker(text: str) -> FileResult:
        good = _checker("BAD", "good")(text)
        broken = _checker("WORSE", "(")(text)
        return FileResult(PATH, good.findings + broken.findings, good.errors)

    settled = settle("a = BAD\nb = WORSE\n", Language.PYTHON, checker, unsafe=False)
    assert settled.text == "a = good\nb = WORSE\n"
    assert len(settled.rejected) == 1


def test_cpp_fixes_may_not_add_syntax_errors() -> None:
    checker = _checker("BAD", "{", language=Language.CPP)
    settled = settle("int a = BAD;\n", Language.CPP, checker, unsafe=False)
    assert settled.text == "int a = BAD;\n"
    assert "more syntax error" in settled.rejected[0].reason


def test_cpp_errors_already_there_do_not_block_a_fix() -> None:
    text = "int a = BAD;\nint b = ((;\n"
    settled = settle(text, Language.CPP, _checker("BAD", "1", language=Language.CPP), unsafe=False)
    assert settled.text == "int a = 1;\nint b = ((;\n"


def test_unsafe_fixes_wait_for_unsafe() -> None:
    checker = _checker("BAD", "good", Applicability.UNSAFE)
    assert settle("a = BAD\n", Language.PYTHON, checker, unsafe=False).text == "a = BAD\n"
    assert settle("a = BAD\n", Language.PYTHON, checker, unsafe=True).text == "a = good\n"


def test_display_fixes_are_never_applied() -> None:
    checker = _checker("BAD", "good", Applicability.DISPLAY)
    assert settle("a = BAD\n", Language.PYTHON, checker, unsafe=True).text == "a = BAD\n"


def test_fixes_sharing_an_identical_edit_go_in_together() -> None:
    def checker(text: str) -> FileResult:
        found = []
        for number, line in enumerate(text.split("\n"), 1):
            if "BAD" in line:
                col = line.index("BAD")
                span = Span(number, col, number, col + 3)
                header = Edit(Span(1, 0, 1, 0), "import good\n", "")
                fix = Fix("Replace", Applicability.SAFE, (Edit(span, "good", "BAD"), header))
                found.append(Finding("GV999", "t", PATH, span, "bad", Severity.WARNING, fix))
        return FileResult(PATH, tuple(found))

    calls = []

    def counting(text: str) -> FileResult:
        calls.append(text)
        return checker(text)

    settled = settle("a = BAD\nb = BAD\n", Language.PYTHON, counting, unsafe=False)
    assert settled.text == "import good\na = good\nb = good\n"
    assert len(calls) == 2  # one round, then the check that proves it


def test_fixes_that_never_settle_are_reported_unstable() -> None:
    def chain(text: str) -> FileResult:
        # Each fix of one site makes a new site on a new last line.
        lines = text.split("\n")
        found = []
        for number, line in enumerate(lines, 1):
            if line == "BAD":
                span = Span(number, 0, number, 3)
                end = Span(len(lines), 0, len(lines), 0)
                edits = (Edit(span, "ok", "BAD"), Edit(end, "BAD\n", ""))
                fix = Fix("Chain", Applicability.SAFE, edits)
                found.append(Finding("GV999", "t", PATH, span, "bad", Severity.WARNING, fix))
        return FileResult(PATH, tuple(found))

    settled = settle("BAD\n", Language.PYTHON, chain, unsafe=False, max_rounds=3)
    assert not settled.stable
    assert len(settled.applied) == 3


def test_a_fix_whose_edit_finds_other_text_is_refused_and_nothing_else_changes() -> None:
    def checker(text: str) -> FileResult:
        found = []
        for number, line in enumerate(text.split("\n"), 1):
            if "BAD" in line:
                col = line.index("BAD")
                span = Span(number, col, number, col + 3)
                # A position one line off, as a wrong line model would make it.
                wrong = Span(number + 1, col, number + 1, col + 3)
                fix = Fix("Replace", Applicability.SAFE, (Edit(wrong, "good", "BAD"),))
                found.append(Finding("GV999", "t", PATH, span, "bad", Severity.WARNING, fix))
        return FileResult(PATH, tuple(found))

    text = "a = BAD\nkeep = 1\n"
    settled = settle(text, Language.PYTHON, checker, unsafe=False)
    assert settled.text == text
    assert settled.applied == ()
    (rejected,) = settled.rejected
    assert rejected.reason.startswith("refused: at 2:5 the edit expected 'BAD'")
