"""Apply fixes to text: non-overlapping edits, honouring applicability."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lintgv.model import Applicability, Edit, Finding, Fix

_RANK = {Applicability.SAFE: 0, Applicability.UNSAFE: 1, Applicability.DISPLAY: 2}


def line_starts(text: str) -> list[int]:
    """Return the offset where each line of `text` begins."""
    starts = [0]
    index = text.find("\n")
    while index != -1:
        starts.append(index + 1)
        index = text.find("\n", index + 1)
    return starts


def offset_of(starts: Sequence[int], text: str, line: int, column: int) -> int:
    """Return the offset in `text` of the 1-based `line` and 0-based code-point `column`."""
    if line - 1 >= len(starts):
        return len(text)
    return min(starts[line - 1] + column, len(text))


def is_applicable(fix: Fix, unsafe: bool) -> bool:
    """Tell whether `fix` may be applied, given whether unsafe fixes are allowed."""
    allowed = {Applicability.SAFE, Applicability.UNSAFE} if unsafe else {Applicability.SAFE}
    return fix.applicability in allowed


@dataclass(frozen=True)
class Applied:
    text: str
    applied: tuple[Finding, ...]
    skipped: tuple[Finding, ...]  # overlapping another fix this round; tried again next round


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Return `text` with `edits` applied; they must not overlap."""
    starts = line_starts(text)
    located = sorted(
        (
            offset_of(starts, text, e.span.start_line, e.span.start_col),
            offset_of(starts, text, e.span.end_line, e.span.end_col),
            e.text,
        )
        for e in edits
    )
    pieces = []
    cursor = 0
    for start, end, new in located:
        if start < cursor:
            raise ValueError("overlapping edits")
        pieces.append(text[cursor:start])
        pieces.append(new)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def apply_fixes(text: str, findings: Sequence[Finding], unsafe: bool) -> Applied:
    """Apply every applicable fix that does not overlap an earlier one (by position)."""
    starts = line_starts(text)
    chosen: list[Finding] = []
    skipped: list[Finding] = []
    taken: list[tuple[int, int]] = []
    candidates = [f for f in findings if f.fix is not None and is_applicable(f.fix, unsafe)]
    candidates.sort(key=lambda f: (_RANK[f.fix.applicability] if f.fix else 0, f.span))
    for finding in candidates:
        assert finding.fix is not None
        ranges = [
            (
                offset_of(starts, text, e.span.start_line, e.span.start_col),
                offset_of(starts, text, e.span.end_line, e.span.end_col),
            )
            for e in finding.fix.edits
        ]
        if any(_overlaps(r, t) for r in ranges for t in taken):
            skipped.append(finding)
            continue
        taken.extend(ranges)
        chosen.append(finding)
    edits = _dedupe(e for f in chosen if f.fix for e in f.fix.edits)
    return Applied(apply_edits(text, edits), tuple(chosen), tuple(skipped))


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    # Two insertions at one point conflict too: their order would be arbitrary.
    if a == b:
        return True
    return a[0] < b[1] and b[0] < a[1]


def _dedupe(edits: Iterable[Edit]) -> list[Edit]:
    # Fixes of several sites may each add the same import; it is inserted once.
    seen: set[Edit] = set()
    unique = []
    for edit in edits:
        if edit not in seen:
            seen.add(edit)
            unique.append(edit)
    return unique
