"""Regions of a C++ file: top-level declarations that share lines, the unit in which an
editor's next version of a document reuses what rules worked out (RegionMemo)."""

from collections.abc import Hashable, Sequence
from typing import NamedTuple


class Region(NamedTuple):  # a tuple: a file has hundreds, made on every edit
    """Top-level declarations that share lines (with the comment just above them): the
    unit in which an editor's next version of a document reuses what rules worked out
    (see RegionMemo)."""

    start_byte: int
    end_byte: int
    first_line: int  # 1-based, like a Span's
    last_line: int
    # Equal keys: equal text at an equal column, parsed into equal shapes.
    key: Hashable


class RegionTable:
    """One purpose's values in a RegionMemo: those of the version it last ran on, and of
    the one before, whose values it may reuse."""

    def __init__(self, version: int, last: dict[Hashable, object]) -> None:
        self.version = version
        self.now: dict[Hashable, object] = {}
        self._last = last

    def get(self, key: Hashable) -> object | None:
        """Return what was stored under `key`, or None."""
        value = self.now.get(key)
        if value is None:
            value = self._last.get(key)
            if value is not None:
                self.now[key] = value
        return value

    def put(self, key: Hashable, value: object) -> None:
        self.now[key] = value


class RegionMemo:
    """What rules worked out for the regions of a document's last versions, by region key.

    Values must not depend on where the region lies: lines count from its first line.
    Each rule (a `purpose`) keeps what it used or added in the last version it ran on,
    so the memo stays the document's size, and a rule that did not run on some versions
    (its trigger was gone for a while) still finds its values. Used by one thread at a
    time (the language server's lint thread).
    """

    def __init__(self) -> None:
        self._version = 0
        self._tables: dict[str, RegionTable] = {}

    def next_version(self) -> None:
        """Start a new version of the document."""
        self._version += 1

    def table(self, purpose: str) -> RegionTable:
        """Return the values of `purpose` for this version of the document."""
        table = self._tables.get(purpose)
        if table is None or table.version != self._version:
            last = table.now if table is not None else {}
            table = self._tables[purpose] = RegionTable(self._version, last)
        return table


def joined_ranges(regions: Sequence[Region], chosen: Sequence[int]) -> list[tuple[int, int]]:
    """Return the byte ranges of the regions at the `chosen` indices (ascending),
    neighbouring regions joined: one query pass over both costs less than two."""
    ranges: list[tuple[int, int]] = []
    for position, index in enumerate(chosen):
        if position and chosen[position - 1] == index - 1:
            ranges[-1] = (ranges[-1][0], regions[index].end_byte)
        else:
            ranges.append((regions[index].start_byte, regions[index].end_byte))
    return ranges
