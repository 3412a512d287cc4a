"""The one cross-file fact lintgv keeps: which unique-name helpers each file defines.

GV201 finds a helper by its structure in the file that defines it; GV202 and GV203 then
report its declarations and calls in every other file. `lintgv check` fills the index in
its first pass over the tree and checks again the files that mention a name in it; the
language server fills it in the background when a session starts and keeps it current
file by file, on save and on watched-file changes.
"""

from collections.abc import Iterable, Mapping
from pathlib import Path


class HelperIndex:
    """The helpers each file defines (qualified names), and their union."""

    def __init__(self) -> None:
        self._by_file: dict[Path, frozenset[str]] = {}
        self._names: frozenset[str] = frozenset()

    @property
    def names(self) -> frozenset[str]:
        """Every helper defined anywhere in the files recorded."""
        return self._names

    def record(self, path: Path, helpers: Iterable[str]) -> bool:
        """Note the helpers `path` defines now; tell whether the union changed."""
        found = frozenset(helpers)
        if found:
            self._by_file[path] = found
        else:
            self._by_file.pop(path, None)
        return self._refresh()

    def forget(self, path: Path) -> bool:
        """Drop a file that is gone; tell whether the union changed."""
        self._by_file.pop(path, None)
        return self._refresh()

    def replace(self, files: Mapping[Path, Iterable[str]]) -> bool:
        """Start again from `files` (a whole pass over the tree); tell whether the union
        changed."""
        self._by_file = {path: frozenset(h) for path, h in files.items() if h}
        return self._refresh()

    def _refresh(self) -> bool:
        names = frozenset(name for helpers in self._by_file.values() for name in helpers)
        changed = names != self._names
        self._names = names
        return changed
