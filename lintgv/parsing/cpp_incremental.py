"""Reparsing a C++ document after an edit: tree-sitter told what changed, from an
editor's changes or from comparing the two texts."""

from bisect import bisect_right
from collections.abc import Sequence

import tree_sitter

# An edit of a document as an editor sends it: (start, end, new text), in code points of
# the text it applies to. A list of them leads from one version to the next.
TextChange = tuple[int, int, str]
# Past this many changes between two parses, one comparison of the texts costs less.
_MAX_CHANGES = 64


def edited(
    tree: tree_sitter.Tree, old: bytes, old_starts: Sequence[int], data: bytes, starts: list[int]
) -> tree_sitter.Tree:
    """Return a copy of `tree` (the parse of `old`, whose lines start at `old_starts`)
    told which bytes differ in `data`: one edit from the first differing byte to the
    last, found by comparing the two texts."""
    start = _common_prefix(old, data)
    end = _common_prefix(old[start:][::-1], data[start:][::-1])
    old_end, new_end = len(old) - end, len(data) - end
    tree = tree.copy()
    tree.edit(
        start_byte=start,
        old_end_byte=old_end,
        new_end_byte=new_end,
        start_point=_point(old_starts, start),
        old_end_point=_point(old_starts, old_end),
        new_end_point=_point(starts, new_end),
    )
    return tree


def changed(
    tree: tree_sitter.Tree, old: bytes, changes: Sequence[TextChange], data: bytes
) -> tree_sitter.Tree | None:
    """Return a copy of `tree` (the parse of `old`) told of each of `changes` in turn, or
    None when they do not lead from `old` to `data` (then the texts are compared)."""
    if len(changes) > _MAX_CHANGES:
        return None
    text = old.decode("utf-8")
    tree = tree.copy()
    for start, end, new in changes:
        if not 0 <= start <= end <= len(text):
            return None
        before = text[:start]
        start_byte = len(before.encode("utf-8"))
        tree.edit(
            start_byte=start_byte,
            old_end_byte=start_byte + len(text[start:end].encode("utf-8")),
            new_end_byte=start_byte + len(new.encode("utf-8")),
            start_point=_text_point(before),
            old_end_point=_text_point(text[:end]),
            new_end_point=_text_point(before + new),
        )
        text = before + new + text[end:]
    return tree if text.encode("utf-8") == data else None


def _text_point(before: str) -> tuple[int, int]:
    """Return tree-sitter's (row, byte column) of the end of `before`."""
    line_start = before.rfind("\n") + 1
    return before.count("\n"), len(before[line_start:].encode("utf-8"))


def _common_prefix(a: bytes, b: bytes) -> int:
    """Return the length of the longest common prefix (slice comparisons run in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _point(line_starts: Sequence[int], offset: int) -> tuple[int, int]:
    row = bisect_right(line_starts, offset) - 1
    return row, offset - line_starts[row]
