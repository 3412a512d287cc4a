"""Which of a project's texts hold a name or match a pattern, remembered while the
texts stay the same.

A migration plans again after every change it makes, and each plan asks which files
name each function it threads or each copy it replaces: every time, a search of every
file of the project. Only the texts changed since a name was last looked for need it.
"""

import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path


class Holding:
    """Which of a project's texts hold a name, and which match a pattern, remembered
    from one plan to the next: each plan asks again about every function it threads,
    and the question reads every file of the project (for Python, on TVM v0.16's
    migration, most of the plans after the first). Only the texts changed since a name
    was last looked for are searched."""

    def __init__(self) -> None:
        self._know(None)

    def _know(self, paths: Sequence[Path] | None) -> None:
        """Start knowing nothing, of `paths`."""
        self._paths = paths
        # Each file's text as last read (the object the read gave: a text changed is a
        # new one), with the count of changes seen when it was read.
        self._texts: dict[Path, tuple[str, int]] = {}
        self._changes = 0
        # By name: the count of changes seen when it was last looked for, and the files
        # that held it then.
        self._names: dict[str, tuple[int, set[Path]]] = {}
        # By pattern and file: when the text it was searched in was read (the count of
        # changes then, which no other text of the file shares), and whether it matched.
        self._matched: dict[tuple[re.Pattern[str], Path], tuple[int, bool]] = {}

    def search(
        self, name: str, paths: Sequence[Path], read: Callable[[Path], str | None]
    ) -> Iterator[tuple[Path, str | None]]:
        """Yield, in the order of `paths`, those whose current text holds `name`
        (anywhere: a substring), with that text; and those that cannot be read, with
        None. Asked about other paths than last time, it starts again; an equal list
        (a caller that makes its list anew for each plan) is the same paths."""
        for path, text, _ in self._search(name, paths, read):
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
        matched = self._matched  # this search's, should another start over meanwhile
        for path, text, read_at in self._search(needle, paths, read):
            if text is None:
                yield path, None
                continue
            known = matched.get((pattern, path))
            if known is None or known[0] != read_at:
                known = matched[pattern, path] = (read_at, pattern.search(text) is not None)
            if known[1]:
                yield path, text

    def _search(
        self, name: str, paths: Sequence[Path], read: Callable[[Path], str | None]
    ) -> Iterator[tuple[Path, str | None, int]]:
        """`search`, with when each text was read (the count of changes then)."""
        if paths is not self._paths:
            if paths != self._paths:
                self._know(paths)
            self._paths = paths
        since, found = self._names.get(name, (-1, set()))
        texts = self._texts
        start, made = self._changes, 0
        for path in paths:
            text = read(path)
            if text is None:
                # Readable again later, it is looked at again, whatever the object.
                texts.pop(path, None)
                yield path, None, 0
                continue
            known = texts.get(path)
            if known is None or known[0] is not text:
                self._changes += 1
                made += 1
                known = texts[path] = (text, self._changes)
            if known[1] > since:
                if name in text:
                    found.add(path)
                else:
                    found.discard(path)
            if path in found:
                yield path, text, known[1]
        # Only once every file was looked at: a caller that stops early leaves `since`
        # as it was, and the files it did not reach are searched next time. And only as
        # of what this search saw: another one run while it was suspended may have read
        # newer texts of files it had passed (those are searched next time), or started
        # over on other paths (then this one's answers are not theirs).
        if texts is self._texts:
            self._names[name] = (self._changes if self._changes == start + made else start, found)
