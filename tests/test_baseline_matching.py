"""Baseline fingerprints and matching, without the CLI."""

from pathlib import Path

from lintgv.baseline import Entry, compare, entries_for, fingerprints
from lintgv.model import Finding, Severity, Span

PATH = Path("a.py").absolute()
LINES = ["def f():", "    gv = GlobalVar('x')", "    return gv"]


def _finding(line: int, start: int = 9, end: int = 23, code: str = "GV101") -> Finding:
    return Finding(code, "rule", PATH, Span(line, start, line, end), "m", Severity.WARNING)


def test_fingerprints_ignore_line_numbers_and_indentation() -> None:
    moved = ["", "", "def f():", "        gv   = GlobalVar('x')", "    return gv"]
    assert fingerprints(_finding(2), LINES) == fingerprints(_finding(4, 15, 29), moved)


def test_line_fingerprint_survives_a_changed_neighbour_but_context_does_not() -> None:
    edited = ["def renamed():", *LINES[1:]]
    line, context = fingerprints(_finding(2), LINES)
    line2, context2 = fingerprints(_finding(2), edited)
    assert line == line2 and context != context2


def test_code_is_part_of_the_fingerprint() -> None:
    assert fingerprints(_finding(2), LINES) != fingerprints(_finding(2, code="GV203"), LINES)


def test_each_entry_excuses_one_finding() -> None:
    baseline = entries_for([_finding(2)], {PATH: LINES}, Path.cwd())
    doubled = [*LINES, "    gv = GlobalVar('x')"]
    result = compare([_finding(2), _finding(4)], {PATH: doubled}, baseline, Path.cwd())
    assert (len(result.new), result.known, result.gone) == (1, 1, 0)


def test_unmatched_entries_are_counted_as_gone() -> None:
    stale = Entry("GV101", "a.py", "0", "0")
    result = compare([], {}, [stale], Path.cwd())
    assert (result.new, result.known, result.gone) == ((), 0, 1)
