"""One file's text in, its fixed text out: fixes are applied round after round until the
text is stable, and every round is proved before it is kept.

Once stable, a Python file loses the import of a name its fixes replaced (GV101's
`GlobalVar`, see RuleMeta.fix_replaces_name) if it no longer needs it (proved the same way).

The proof of a round: the new text parses (for Python, the check's own whole parse; for
C++, tree-sitter finds no more ERROR or MISSING nodes than before), the check of the new
text does not fail where the old one did not, and no fixed site is reported again with
the same code. The checker must therefore parse a Python text whole and return a text
that does not parse with a file error (no code), as lintgv's check does; the first
round may start from a check already made of the text (a partial parse gives the same
findings and fixes). A fix
that fails is left out, with its reason, and the round is retried without it.
"""

from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Sequence

from lintgv.codemods.includes import without_unused_import
from lintgv.edits import StaleEdit, apply_edits, is_applicable, located, offsets_of
from lintgv.errors import ParseError
from lintgv.fixing import MAX_ROUNDS
from lintgv.lines import LineIndex
from lintgv.model import Applicability, Edit, FileResult, Finding, Language
from lintgv.parsing.cpp import parse_cpp
from lintgv.records import frozen, mutable
from lintgv.registry import codes_where, rule_meta

_RANK = {Applicability.SAFE: 0, Applicability.UNSAFE: 1}

Checker = Callable[[str], FileResult]


@frozen
class Rejected:
    finding: Finding
    reason: str


@frozen
class Settled:
    text: str
    applied: tuple[Finding, ...]
    rejected: tuple[Rejected, ...]
    result: FileResult  # the check of `text`: what remains
    initial: FileResult  # the check of the original text
    stable: bool  # False: fixes were still pending after MAX_ROUNDS


@frozen
class _Located:
    start: int
    end: int
    text: str


def _located(index: LineIndex, edit: Edit) -> _Located:
    """Return where `edit` goes; StaleEdit when its span lacks the text it replaces."""
    start, end = located(index, edit)
    return _Located(start, end, edit.text)


class _Places:
    """Where each edit goes in one text, worked out once however often a round asks:
    the stale edits, the choice, the application and the proof each placed every edit
    (88,000 placements in a round of 4,000 GV101 fixes, of 16,000 edits)."""

    def __init__(self, text: str) -> None:
        self.index = LineIndex(text)
        self._found: dict[Edit, _Located | StaleEdit] = {}

    def of(self, edit: Edit) -> _Located:
        """Return where `edit` goes; StaleEdit when its span lacks the text it replaces."""
        found = self._found.get(edit)
        if found is None:
            try:
                found = _located(self.index, edit)
            except StaleEdit as exc:
                found = exc
            self._found[edit] = found
        if isinstance(found, StaleEdit):
            raise found
        return found


def stale(
    text: str, findings: Sequence[Finding], unsafe: bool, places: _Places | None = None
) -> list[Rejected]:
    """Return the applicable fixes with an edit whose span does not hold the text it
    replaces: refused, never applied. `places` are the edits' places in `text`, if known."""
    places = _Places(text) if places is None else places
    refused = []
    for finding in findings:
        if finding.fix is None or not is_applicable(finding.fix, unsafe):
            continue
        try:
            for edit in finding.fix.edits:
                places.of(edit)
        except StaleEdit as exc:
            refused.append(Rejected(finding, f"refused: {exc}"))
    return refused


def choose(
    text: str, findings: Sequence[Finding], unsafe: bool, places: _Places | None = None
) -> list[Finding]:
    """Return the applicable fixes that can go in together: no two overlap, except that
    fixes may share an identical edit (one inserted supply or include serves them all).
    Fixes with a stale edit (see `stale`) are left out."""
    places = _Places(text) if places is None else places
    refused = {id(r.finding) for r in stale(text, findings, unsafe, places)}
    candidates = [
        f
        for f in findings
        if f.fix is not None and is_applicable(f.fix, unsafe) and id(f) not in refused
    ]
    candidates.sort(key=lambda f: (_RANK[f.fix.applicability] if f.fix else 0, f.span))
    taken = _Taken()
    chosen = []
    for finding in candidates:
        assert finding.fix is not None
        located = [places.of(e) for e in finding.fix.edits]
        if any(taken.conflicts(edit) for edit in located):
            continue
        for edit in located:
            taken.add(edit)
        chosen.append(finding)
    return chosen


class _Taken:
    """The edits chosen so far, sorted, so that a conflict is found by bisection: two
    edits conflict when they overlap, or are different edits of one place (two insertions
    at one point); the same edit twice is shared."""

    def __init__(self) -> None:
        self.edits: set[_Located] = set()
        self.places: set[tuple[int, int]] = set()
        # (start, end), sorted: as the edits do not overlap, the ends never decrease.
        self.spans: list[tuple[int, int]] = []

    def conflicts(self, edit: _Located) -> bool:
        if edit in self.edits:
            return False
        if (edit.start, edit.end) in self.places:
            return True
        # Of the edits starting before this one ends, the last ends latest.
        before_end = bisect_left(self.spans, (edit.end, -1))
        return before_end > 0 and self.spans[before_end - 1][1] > edit.start

    def add(self, edit: _Located) -> None:
        if edit in self.edits:
            return
        self.edits.add(edit)
        self.places.add((edit.start, edit.end))
        insort(self.spans, (edit.start, edit.end))


def apply(text: str, findings: Sequence[Finding], places: _Places | None = None) -> str:
    """Return `text` with the fixes of `findings` applied (shared edits once)."""
    edits: list[Edit] = []
    places = _Places(text) if places is None else places
    seen: set[tuple[int, int, str]] = set()
    for finding in findings:
        assert finding.fix is not None
        for edit in finding.fix.edits:
            where = places.of(edit)
            key = (where.start, where.end, where.text)
            if key not in seen:
                seen.add(key)
                edits.append(edit)
    return apply_edits(text, edits)


def _cpp_syntax_problem(text: str, errors_before: int) -> str | None:
    """Return why C++ `text` fails the parse proof, or None when it passes."""
    try:
        errors = len(parse_cpp(text).error_nodes())
    except ParseError as exc:
        return f"the result does not parse: {exc}"
    if errors > errors_before:
        return f"the result has {errors - errors_before} more syntax error(s) than the original"
    return None


def syntax_errors(text: str, language: Language) -> int:
    """Return the number of tree-sitter ERROR/MISSING nodes (0 for Python)."""
    if language == Language.PYTHON:
        return 0
    try:
        return len(parse_cpp(text).error_nodes())
    except ParseError:
        return 1 << 30


class _OffsetMap:
    """Maps offsets of a text to offsets after a set of non-overlapping edits."""

    def __init__(self, places: _Places, findings: Sequence[Finding]) -> None:
        self.index = places.index
        unique = {}
        for finding in findings:
            assert finding.fix is not None
            for edit in finding.fix.edits:
                where = places.of(edit)
                unique[(where.start, where.end, where.text)] = where
        self.edits = sorted(unique.values(), key=lambda e: (e.start, e.end))
        self.ends = [e.end for e in self.edits]
        # The shift of offsets past the first k edits, for every k.
        self.shifts = [0]
        for placed in self.edits:
            self.shifts.append(self.shifts[-1] + len(placed.text) - (placed.end - placed.start))

    def offset(self, line: int, column: int) -> int:
        return self.index.offset(line, column)

    def map(self, offset: int, at_end: bool) -> int:
        # Sorted edits that do not overlap have non-decreasing ends: those wholly before
        # `offset` are a prefix, found by bisection; an insertion at `offset` counts
        # before it only for an end offset. The next edit may hold `offset`.
        count = bisect_right(self.ends, offset)
        while not at_end and count > 0 and self.edits[count - 1].start == offset:
            count -= 1
        if count < len(self.edits):
            edit = self.edits[count]
            if edit.start <= offset < edit.end:
                return edit.start + self.shifts[count] + (len(edit.text) if at_end else 0)
        return offset + self.shifts[count]


def still_reported(
    old: _Places, applied: Sequence[Finding], new_text: str, result: FileResult
) -> list[Finding]:
    """Return the applied findings whose site is reported again, with the same code
    (`old`: the places of their edits in the text they were applied to)."""
    mapping = _OffsetMap(old, applied)
    new_index = LineIndex(new_text)
    new_at = sorted(
        (new_index.offset(f.span.start_line, f.span.start_col), f.code) for f in result.findings
    )
    offsets = [o for o, _ in new_at]
    failed = []
    for finding in applied:
        span = finding.span
        low = mapping.map(mapping.offset(span.start_line, span.start_col), at_end=False)
        high = mapping.map(mapping.offset(span.end_line, span.end_col), at_end=True)
        index = bisect_right(offsets, low - 1)
        while index < len(new_at) and new_at[index][0] <= max(high - 1, low):
            if new_at[index][1] == finding.code:
                failed.append(finding)
                break
            index += 1
    return failed


def _key(finding: Finding, index: LineIndex) -> tuple[object, ...]:
    text = index.text
    start, end = offsets_of(index, finding.span)
    fix = finding.fix
    edits = tuple(e.text for e in fix.edits) if fix else ()
    return (finding.code, text[start:end], fix.title if fix else "", edits)


@mutable
class _Loop:
    language: Language
    checker: Checker
    unsafe: bool
    errors_before: int

    def trial(
        self, text: str, result: FileResult, findings: Sequence[Finding], places: _Places
    ) -> tuple[str, FileResult, dict[int, str]]:
        """Apply `findings` to `text` (its edits' `places`); return the new text, its
        check, and the reasons (by index in `findings`) of the fixes that failed the
        proof as a group."""
        try:
            new_text = apply(text, findings, places)
        except ValueError as exc:
            return text, result, dict.fromkeys(range(len(findings)), f"edits clash: {exc}")
        new_result, problem = self.checked(new_text, result)
        if problem is not None:
            return text, result, dict.fromkeys(range(len(findings)), problem)
        again = {id(f) for f in still_reported(places, findings, new_text, new_result)}
        failed = {
            i: "the site is still reported after the fix"
            for i, f in enumerate(findings)
            if id(f) in again
        }
        return new_text, new_result, failed

    def checked(self, new_text: str, result: FileResult) -> tuple[FileResult, str | None]:
        """Check `new_text`, which replaces the text `result` is of; return its result and
        why it fails the proof (None when it passes: it parses, and checks no worse)."""
        if self.language != Language.PYTHON:
            problem = _cpp_syntax_problem(new_text, self.errors_before)
            if problem is not None:
                return result, problem
        # A Python check parses the whole text: its parse is the proof (libcst's parse is
        # most of a check's cost, and a file of thousands of sites must not pay it twice).
        new_result = self.checker(new_text)
        known = {(e.code, e.message) for e in result.errors}
        for error in new_result.errors:
            if (error.code, error.message) in known:
                continue
            if error.code is None:
                where = f" (line {error.line})" if error.line is not None else ""
                return result, f"the result does not parse: {error.message}{where}"
            return result, f"the fixed file could not be checked: {error.message}"
        return new_result, None

    def tidy(
        self, original: str, text: str, result: FileResult, name: str
    ) -> tuple[str, FileResult]:
        """Drop a `from X import <name>` that fixes left unused (`original` used it), if
        the file still parses and checks with no more findings than before."""
        tidied = without_unused_import(text, name, original)
        if tidied == text:
            return text, result
        tidied_result, problem = self.checked(tidied, result)
        if problem is not None or len(tidied_result.findings) > len(result.findings):
            return text, result
        return tidied, tidied_result


def settle(
    text: str,
    language: Language,
    checker: Checker,
    *,
    unsafe: bool,
    max_rounds: int = MAX_ROUNDS,
    checked: FileResult | None = None,
) -> Settled:
    """Apply every applicable fix to `text` until nothing changes; see the module
    docstring. `checked` is the checker's result for `text`, when already known."""
    loop = _Loop(language, checker, unsafe, syntax_errors(text, language))
    original = text
    result = initial = checked if checked is not None else checker(text)
    applied: list[Finding] = []
    rejected: dict[tuple[object, ...], Rejected] = {}
    rounds = 0
    while rounds < max_rounds:
        places = _Places(text)
        index = places.index
        pending = [f for f in result.findings if _key(f, index) not in rejected]
        for refusal in stale(text, pending, unsafe, places):
            rejected[_key(refusal.finding, index)] = refusal
        chosen = choose(text, pending, unsafe, places)
        if not chosen:
            for name in _replaced_names(applied) if language == Language.PYTHON else ():
                text, result = loop.tidy(original, text, result, name)
            return Settled(text, tuple(applied), tuple(rejected.values()), result, initial, True)
        new_text, new_result, failed = loop.trial(text, result, chosen, places)
        if not failed:
            applied.extend(chosen)
            text, result = new_text, new_result
            rounds += 1
            continue
        # Every failed round rejects at least one fix, so this ends.
        culprits = 0
        for finding in chosen if len(chosen) > 1 else []:
            _, _, alone = loop.trial(text, result, [finding], places)
            if alone:
                rejected[_key(finding, index)] = Rejected(finding, alone[0])
                culprits += 1
        if not culprits:
            together = " (together with other fixes in this file)" if len(chosen) > 1 else ""
            for number, reason in failed.items():
                finding = chosen[number]
                rejected[_key(finding, index)] = Rejected(finding, reason + together)
    index = LineIndex(text)
    pending = [f for f in result.findings if _key(f, index) not in rejected]
    stable = not choose(text, pending, unsafe)
    return Settled(text, tuple(applied), tuple(rejected.values()), result, initial, stable)


def _replaced_names(applied: list[Finding]) -> list[str]:
    """Return the names the applied fixes replace (their rules' `fix_replaces_name`)."""
    replacing = codes_where(lambda meta: bool(meta.fix_replaces_name))
    return sorted({rule_meta(f.code).fix_replaces_name for f in applied if f.code in replacing})
