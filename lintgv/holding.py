"""What plans over the same files keep from one to the next, while the texts stay the
same: which texts hold a name or match a pattern (Holding), and the C++ files' parses
(CppParses).

A migration plans again after every change it makes, and each plan asks which files
name each function it threads or each copy it replaces: every time, a search of every
file of the project. Only the texts changed since a name was last looked for need it.
"""

import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from lintgv.errors import ParseError
from lintgv.parsing.cpp import ParsedCpp, parse_cpp


class Holding:
    """Which of a project's texts hold a name, and which match a pattern, remembered
    from one plan to the next: each plan asks again about every function it threads,
    and the question reads every file of the project (for Python, on TVM v0.16's
    migration, most of the plans after the first). Only the texts changed since a name
    was last looked for are searched."""

    def __init__(self) -> None:
        # Counts every text read, across starts over: no two texts share a count.
        self._changes = 0
        self._know(None)

    def _know(self, paths: Sequence[Path] | None) -> None:
        """Start knowing nothing, of `paths`."""
        self._paths = paths
        count = len(paths) if paths is not None else 0
        # What is known of each file is kept by its place in `paths`, where an equal list
        # has the same file: the loop over them hashes no path (a Path's hash is Python
        # code, asked hundreds of thousands of times a migration). Each file's text as
        # last read (the object the read gave: a text changed is a new one; None: not
        # read, or unreadable then), and the count of changes seen when it was read.
        self._texts: list[str | None] = [None] * count
        self._read_at: list[int] = [0] * count
        # By name: the count of changes seen when it was last looked for, and whether
        # each file held it then.
        self._names: dict[str, tuple[int, bytearray]] = {}
        # By pattern and file: when the text it was searched in was read (the count of
        # changes then, which no other text of the file shares), and whether it matched.
        self._matched: dict[tuple[re.Pattern[str], int], tuple[int, bool]] = {}

    def search(
        self, name: str, paths: Sequence[Path], read: Callable[[Path], str | None]
    ) -> Iterator[tuple[Path, str | None]]:
        """Yield, in the order of `paths`, those whose current text holds `name`
        (anywhere: a substring), with that text; and those that cannot be read, with
        None. Asked about other paths than last time, it starts again; an equal list
        (a caller that makes its list anew for each plan) is the same paths."""
        for _, path, text, _ in self._search(name, paths, read):
            yield path, text

    def matches(
        self,
        pattern: re.Pattern[str],
        needle: str,
        paths: Sequence[Path],
        read: Callable[[Path], str | None],
    ) -> Iterator[tuple[Path, str | None]]:
        """Yield, in the order of `paths`, those whose current text matches `pattern`,
        which only a text holding `needle` can, with that text; and those that cannot be
        read, with None. Each text is searched once for each pattern while it stays the
        same and the paths asked about stay equal: the planners ask the same patterns (a
        class's definition, a name as a word) in each of their plans, and a pattern scans
        the whole of every file holding its needle."""
        self._adopt(paths)
        matched = self._matched  # this search's, should another start over meanwhile
        for place, path, text, read_at in self._search(needle, paths, read):
            if text is None:
                yield path, None
                continue
            known = matched.get((pattern, place))
            if known is None or known[0] != read_at:
                known = matched[pattern, place] = (read_at, pattern.search(text) is not None)
            if known[1]:
                yield path, text

    def _adopt(self, paths: Sequence[Path]) -> None:
        """Know `paths` from now on: the same files as before when the list is equal,
        else nothing of them yet."""
        if paths is not self._paths:
            if paths != self._paths:
                self._know(paths)
            self._paths = paths

    def _search(
        self, name: str, paths: Sequence[Path], read: Callable[[Path], str | None]
    ) -> Iterator[tuple[int, Path, str | None, int]]:
        """`search`, with each file's place in `paths` and when its text was read (the
        count of changes then)."""
        self._adopt(paths)
        since, held = self._names.get(name, (-1, None))
        if held is None:
            held = bytearray(len(paths))
        texts, read_at = self._texts, self._read_at
        start, made = self._changes, 0
        for place, path in enumerate(paths):
            text = read(path)
            if text is None:
                # Readable again later, it is looked at again, whatever the object.
                texts[place] = None
                yield place, path, None, 0
                continue
            if texts[place] is not text:
                self._changes += 1
                made += 1
                texts[place], read_at[place] = text, self._changes
            if read_at[place] > since:
                held[place] = name in text
            if held[place]:
                yield place, path, text, read_at[place]
        # Only once every file was looked at: a caller that stops early leaves `since`
        # as it was, and the files it did not reach are searched next time. And only as
        # of what this search saw: another one run while it was suspended may have read
        # newer texts of files it had passed (those are searched next time), or started
        # over on other paths (then this one's answers are not theirs).
        if texts is self._texts:
            self._names[name] = (self._changes if self._changes == start + made else start, held)


class CppParses:
    """The parses of a run's C++ files, each of the text it was last read with: a run
    plans again after every change, and most files have not changed since (on TVM
    v0.16, eight plans parsed 3,617 texts, 454 of them different)."""

    def __init__(self) -> None:
        # A text tree-sitter cannot make sense of is kept with why, not parsed again.
        self._kept: dict[Path, tuple[str, ParsedCpp | tuple[str, int | None, int | None]]] = {}
        self._used: set[Path] = set()
        self.holding = Holding()  # which files name a function, for the same reason

    def of(self, path: Path, text: str) -> ParsedCpp:
        """Return the parse of `text`, the current text of `path`; raise ParseError."""
        self._used.add(path)
        kept = self._kept.get(path)
        if kept is None or kept[0] != text:
            try:
                kept = self._kept[path] = (text, parse_cpp(text))
            except ParseError as exc:  # kept without its traceback, which holds the parse
                kept = self._kept[path] = (text, (str(exc), exc.line, exc.column))
        if isinstance(kept[1], tuple):
            raise ParseError(*kept[1])
        return kept[1]

    def keep_used(self) -> None:
        """Forget the parses no plan asked for since the last call: the next plan reads
        what this one did, but for the change between them, and the run holds no more
        than one plan did (a parse holds many times its text)."""
        self._kept = {path: self._kept[path] for path in self._used if path in self._kept}
        self._used = set()
