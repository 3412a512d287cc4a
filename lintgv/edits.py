"""Apply fixes to text: the one applier of lintgv, for `fix`, the examples and the server.

Edits that do not overlap are applied all at once, from their offsets in the text as it
is; each carries the text it replaces, and an edit whose span does not hold that text is
refused (StaleEdit) rather than applied: a wrong position can never delete code.
"""

import difflib
from collections.abc import Iterable, Sequence

from lintgv.lines import LineIndex, lines_with_breaks
from lintgv.model import Applicability, Edit, Finding, Fix, Span
from lintgv.records import frozen

_RANK = {Applicability.SAFE: 0, Applicability.UNSAFE: 1, Applicability.DISPLAY: 2}


class StaleEdit(ValueError):
    """An edit whose span no longer holds the text it was made to replace."""

    def __init__(self, edit: Edit, found: str) -> None:
        span = edit.span
        super().__init__(
            f"at {span.start_line}:{span.start_col + 1} the edit expected "
            f"{_short(edit.old_text)} but the file holds {_short(found)}; nothing applied"
        )
        self.edit = edit


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def offsets_of(index: LineIndex, span: Span) -> tuple[int, int]:
    """Return the offsets `span` covers in the indexed text."""
    return (
        index.offset(span.start_line, span.start_col),
        index.offset(span.end_line, span.end_col),
    )


def located(index: LineIndex, edit: Edit) -> tuple[int, int]:
    """Return the offsets of `edit` in the indexed text; raise StaleEdit when its span
    does not hold the text the edit replaces."""
    start, end = offsets_of(index, edit.span)
    found = index.text[start:end]
    if found != edit.old_text:
        raise StaleEdit(edit, found)
    return start, end


def is_applicable(fix: Fix, unsafe: bool) -> bool:
    """Tell whether `fix` may be applied, given whether unsafe fixes are allowed."""
    allowed = {Applicability.SAFE, Applicability.UNSAFE} if unsafe else {Applicability.SAFE}
    return fix.applicability in allowed


@frozen
class Applied:
    text: str
    applied: tuple[Finding, ...]
    skipped: tuple[Finding, ...]  # overlapping another fix this round; tried again next round
    # Fixes whose edits did not find the text they replace, with why: never applied.
    refused: tuple[tuple[Finding, str], ...] = ()


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Return `text` with `edits` applied, all at once; they must not overlap (ValueError)
    and each must find the text it replaces (StaleEdit), else nothing is applied."""
    index = LineIndex(text)
    placed = sorted((*located(index, e), e.text) for e in edits)
    pieces = []
    cursor = 0
    for start, end, new in placed:
        if start < cursor:
            raise ValueError("overlapping edits")
        pieces.append(text[cursor:start])
        pieces.append(new)
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def edits_between(before: str, after: str) -> list[Edit]:
    """Return edits of whole lines that turn `before` into `after` (apply_edits undoes
    nothing: applied to `before` they give `after`), each with the text it replaces."""
    old = lines_with_breaks(before)
    new = lines_with_breaks(after)
    starts = [0]
    for line in old:
        starts.append(starts[-1] + len(line))
    index = LineIndex(before)
    edits = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        start, end = starts[i1], starts[i2]
        span = Span(*index.position(start), *index.position(end))
        edits.append(Edit(span, "".join(new[j1:j2]), before[start:end]))
    return edits


def apply_fixes(text: str, findings: Sequence[Finding], unsafe: bool) -> Applied:
    """Apply every applicable fix that does not overlap an earlier one (by position); a
    fix with an edit that does not find the text it replaces is refused."""
    index = LineIndex(text)
    chosen: list[Finding] = []
    skipped: list[Finding] = []
    refused: list[tuple[Finding, str]] = []
    taken: list[tuple[int, int]] = []
    # A change across files is applied as a whole by the stage that planned it, never
    # edit by edit to one file (lintgv.fixing.groups).
    candidates = [
        f
        for f in findings
        if f.fix is not None
        and is_applicable(f.fix, unsafe)
        and all(e.path is None for e in f.fix.edits)
    ]
    candidates.sort(key=lambda f: (_RANK[f.fix.applicability] if f.fix else 0, f.span))
    for finding in candidates:
        assert finding.fix is not None
        try:
            ranges = [located(index, e) for e in finding.fix.edits]
        except StaleEdit as exc:
            refused.append((finding, str(exc)))
            continue
        if any(_overlaps(r, t) for r in ranges for t in taken):
            skipped.append(finding)
            continue
        taken.extend(ranges)
        chosen.append(finding)
    edits = _dedupe(e for f in chosen if f.fix for e in f.fix.edits)
    return Applied(apply_edits(text, edits), tuple(chosen), tuple(skipped), tuple(refused))


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
