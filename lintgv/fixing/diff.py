"""A fix run's changes as unified diffs, in time n·log n in the number of lines.

difflib's `SequenceMatcher` is quadratic or worse when many changes alternate with kept
lines (a function of 4,000 rewritten sites takes seconds), and a file under review may be
built to make it so. The lines are matched in three steps instead:

1. A pair of line ranges small enough (`DIFFLIB_CELLS`, the product of their lengths) is
   left to difflib whole, so an ordinary file's diff is difflib's.
2. Otherwise the anchors are the lines that occur once in each text, in the longest run
   that keeps their order in both (patience diff: a longest increasing subsequence, by
   patience sorting with binary search).
3. Each gap between anchors loses the lines it shares at its start and end, and what is
   left goes to difflib if small; a large gap is shown as removed and added lines, which
   is still a correct diff, only a longer one.

Each step costs O(n) or O(n·log n), and difflib runs only on ranges of at most
`DIFFLIB_CELLS` cells that do not overlap, so its share grows linearly with the file. The
anchoring is not repeated inside a gap: nested rounds could each find one anchor and
together cost O(n²). Hunks are then grouped with 3 lines of context and written as
difflib's `unified_diff` writes them.
"""

import difflib
import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Sequence

from lintgv.fixing.file_fix import FileFix
from lintgv.paths import display_path

# Pairs of line ranges up to this many cells (length times length) go to difflib, whose
# worst case on such a pair stays in milliseconds.
DIFFLIB_CELLS = 40_000
CONTEXT = 3

# (tag, start and end in the old lines, start and end in the new), as difflib's opcodes.
Opcode = tuple[str, int, int, int, int]
# (start in the old lines, start in the new, length) of lines kept as they are.
Block = tuple[int, int, int]


def render_diff(fixes: Sequence[FileFix]) -> str:
    """Return a unified diff of every changed file (paths as `a/...` and `b/...`)."""
    return "".join(
        unified_diff(fix.before, fix.after, display_path(fix.path)) for fix in fixes if fix.changed
    )


def unified_diff(before: str, after: str, path: str) -> str:
    """Return the unified diff that turns `before` into `after`, "" when they are equal."""
    old, new = diff_lines(before), diff_lines(after)
    hunks = _hunks(_opcodes(_matching_blocks(old, new), len(old), len(new)))
    if not hunks:
        return ""
    out = [f"--- a/{path}\n", f"+++ b/{path}\n"]
    for hunk in hunks:
        _, i1, _, j1, _ = hunk[0]
        _, _, i2, _, j2 = hunk[-1]
        out.append(f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n")
        for tag, a1, a2, b1, b2 in hunk:
            if tag == "equal":
                out.extend(_marked(" ", old[a1:a2]))
            else:
                out.extend(_marked("-", old[a1:a2]))
                out.extend(_marked("+", new[b1:b2]))
    return "".join(out)


def diff_lines(text: str) -> list[str]:
    """Return the lines of `text` as `patch` and git count them: ended by `\n` only (a
    form feed or a lone `\r` stays inside its line), each with its ending."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def _marked(sign: str, lines: Sequence[str]) -> Iterator[str]:
    for line in lines:
        # A last line without a newline gets the marker patch(1) expects.
        yield (
            sign + line if line.endswith("\n") else f"{sign}{line}\n\\ No newline at end of file\n"
        )


def _range(start: int, stop: int) -> str:
    # As difflib writes a hunk's range: "3" for one line, "2,0" for none after line 2.
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


def _matching_blocks(old: Sequence[str], new: Sequence[str]) -> list[Block]:
    if _is_small(len(old), len(new)):
        return _difflib_blocks(old, new, 0, len(old), 0, len(new))
    blocks: list[Block] = []
    i = j = 0
    for a, b in _anchors(old, new):
        blocks += _gap_blocks(old, new, i, a, j, b)
        blocks.append((a, b, 1))
        i, j = a + 1, b + 1
    return blocks + _gap_blocks(old, new, i, len(old), j, len(new))


def _anchors(old: Sequence[str], new: Sequence[str]) -> list[tuple[int, int]]:
    """Return the pairs of lines unique in both texts that keep their order in both, as
    many as possible."""
    old_counts, new_counts = Counter(old), Counter(new)
    new_at = {line: j for j, line in enumerate(new) if old_counts[line] == new_counts[line] == 1}
    pairs = [(i, new_at[line]) for i, line in enumerate(old) if line in new_at]
    # Patience sorting: tails[k] is the smallest `new` index ending an increasing run of
    # length k + 1; back[p] is the pair before pair p in the run it ends.
    tails: list[int] = []
    ends: list[int] = []
    back: list[int] = []
    for p, (_, j) in enumerate(pairs):
        k = bisect_left(tails, j)
        back.append(ends[k - 1] if k else -1)
        if k == len(tails):
            tails.append(j)
            ends.append(p)
        else:
            tails[k], ends[k] = j, p
    run = []
    p = ends[-1] if ends else -1
    while p >= 0:
        run.append(pairs[p])
        p = back[p]
    return run[::-1]


def _gap_blocks(
    old: Sequence[str], new: Sequence[str], i1: int, i2: int, j1: int, j2: int
) -> list[Block]:
    start = 0
    while i1 + start < i2 and j1 + start < j2 and old[i1 + start] == new[j1 + start]:
        start += 1
    end = 0
    while (
        i2 - end > i1 + start and j2 - end > j1 + start and old[i2 - end - 1] == new[j2 - end - 1]
    ):
        end += 1
    blocks = [(i1, j1, start)]
    i1, j1, i2, j2 = i1 + start, j1 + start, i2 - end, j2 - end
    if _is_small(i2 - i1, j2 - j1):
        blocks += _difflib_blocks(old, new, i1, i2, j1, j2)
    return [*blocks, (i2, j2, end)]


def _is_small(old_count: int, new_count: int) -> bool:
    return old_count * new_count <= DIFFLIB_CELLS


def _difflib_blocks(
    old: Sequence[str], new: Sequence[str], i1: int, i2: int, j1: int, j2: int
) -> list[Block]:
    matcher = difflib.SequenceMatcher(None, old[i1:i2], new[j1:j2])
    return [(i1 + a, j1 + b, size) for a, b, size in matcher.get_matching_blocks()]


def _opcodes(blocks: Sequence[Block], old_count: int, new_count: int) -> list[Opcode]:
    """Return difflib's opcodes for matching blocks in order; blocks that touch make one
    kept run, as in difflib."""
    codes: list[Opcode] = []
    i = j = 0
    for a, b, size in [*(block for block in blocks if block[2]), (old_count, new_count, 0)]:
        if i < a or j < b:
            tag = "replace" if i < a and j < b else "delete" if i < a else "insert"
            codes.append((tag, i, a, j, b))
        elif size and codes:  # the kept run before ends where this one starts
            _, a, _, b, _ = codes.pop()
            size += i - a
        if size:
            codes.append(("equal", a, a + size, b, b + size))
        i, j = a + size, b + size
    return codes


def _hunks(codes: Sequence[Opcode]) -> list[list[Opcode]]:
    """Group opcodes into hunks with `CONTEXT` kept lines around each change, as
    difflib's `get_grouped_opcodes` does."""
    hunks: list[list[Opcode]] = []
    hunk: list[Opcode] = []
    for index, (tag, i1, i2, j1, j2) in enumerate(codes):
        if tag != "equal":
            hunk.append((tag, i1, i2, j1, j2))
            continue
        keep_head = index > 0  # context after the change before
        keep_tail = index < len(codes) - 1  # context before the change after
        if keep_head and keep_tail and i2 - i1 <= 2 * CONTEXT:
            hunk.append((tag, i1, i2, j1, j2))
            continue
        if keep_head:
            n = min(CONTEXT, i2 - i1)
            hunks.append([*hunk, (tag, i1, i1 + n, j1, j1 + n)])
        hunk = []
        if keep_tail:
            n = min(CONTEXT, i2 - i1)
            hunk.append((tag, i2 - n, i2, j2 - n, j2))
    if any(code[0] != "equal" for code in hunk):
        hunks.append(hunk)
    return hunks
