"""The cross-file facts lintgv keeps: which unique-name helpers each file defines, and
which functions with a helper's name it defines as thin wrappers around a supply.

GV201 finds a helper by its structure in the file that defines it; GV202 and GV203 then
report its declarations and calls in every other file, and GV202 leaves alone the
declaration of a method that its file defines as a thin wrapper. `lintgv check` fills
the index in its first pass over the tree and checks again the files that mention a
name in it (SecondPass says which, for `check` and the language server's workspace scan
alike); the language server fills it in the background when a session starts and keeps
it current file by file, on save and on watched-file changes.
"""

from collections.abc import Iterable, Mapping
from functools import cached_property
from pathlib import Path

from lintgv.identities import bare_name, bare_names
from lintgv.model import FileResult
from lintgv.records import frozen


class _Union:
    """Names recorded by file, and their union."""

    def __init__(self) -> None:
        self.by_file: dict[Path, frozenset[str]] = {}
        self.names: frozenset[str] = frozenset()

    def set(self, path: Path, names: Iterable[str]) -> None:
        found = frozenset(names)
        if found:
            self.by_file[path] = found
        else:
            self.by_file.pop(path, None)

    def refresh(self) -> bool:
        names = frozenset(name for found in self.by_file.values() for name in found)
        changed = names != self.names
        self.names = names
        return changed


class HelperIndex:
    """The helpers each file defines (qualified names), the thin wrappers, and their
    unions."""

    def __init__(self) -> None:
        self._helpers = _Union()
        self._thin = _Union()

    @property
    def names(self) -> frozenset[str]:
        """Every helper defined anywhere in the files recorded."""
        return self._helpers.names

    @property
    def thin(self) -> frozenset[str]:
        """Every function with a helper's name defined as a thin wrapper."""
        return self._thin.names

    def record(self, path: Path, result: FileResult) -> bool:
        """Note what `path` defines now (its check's `result`); tell whether either
        union changed."""
        self._helpers.set(path, result.defined_helpers)
        self._thin.set(path, result.thin_helpers)
        return self._refresh()

    def forget(self, path: Path) -> bool:
        """Drop a file that is gone; tell whether either union changed."""
        self._helpers.set(path, ())
        self._thin.set(path, ())
        return self._refresh()

    def replace(self, results: Mapping[Path, FileResult]) -> bool:
        """Start again from `results` (a whole pass over the tree); tell whether either
        union changed."""
        self._helpers.by_file.clear()
        self._thin.by_file.clear()
        for path, result in results.items():
            self._helpers.set(path, result.defined_helpers)
            self._thin.set(path, result.thin_helpers)
        return self._refresh()

    def _refresh(self) -> bool:
        # Both are refreshed: `or` would skip the second when the first changed.
        helpers, thin = self._helpers.refresh(), self._thin.refresh()
        return helpers or thin


@frozen
class SecondPass:
    """Which files a second pass over the tree checks again, and with which names, once
    the first pass has filled the index: one answer for `lintgv check` and the language
    server's workspace scan, so that both report the same findings."""

    helpers: frozenset[str]
    thin: frozenset[str]

    @classmethod
    def of(cls, index: HelperIndex) -> "SecondPass":
        return cls(index.names, index.thin)

    def __bool__(self) -> bool:
        return bool(self.helpers or self.thin)

    @cached_property
    def _wrappers(self) -> frozenset[str]:
        # Asked of every file of the tree: the thin wrappers' names, worked out once.
        return bare_names(self.thin)

    def names_for(self, first: FileResult) -> tuple[frozenset[str], frozenset[str]] | None:
        """Return the helper and thin-wrapper names a file's second check is given, or
        None when its first check stands. Thin wrappers only take findings away: they are
        given only to a file with a finding about a function of a thin wrapper's name (its
        `subject`), so that a warm run need not check every file that names one."""
        wrappers = self._wrappers
        wrapped = any(f.subject and bare_name(f.subject) in wrappers for f in first.findings)
        if not (self.helpers or wrapped):
            return None
        return self.helpers, self.thin if wrapped else frozenset()

    @staticmethod
    def mentioned(text: str, helpers: frozenset[str], thin: frozenset[str]) -> bool:
        """Tell whether `text` calls for the second check: it mentions a helper by its
        bare name (`e->NameFor(x)` for `Extractor::NameFor`), or both the class and the
        name of a thin wrapper (which it may declare)."""
        if any(name in text for name in bare_names(helpers)):
            return True
        return any(all(part in text for part in identity.split("::")) for identity in thin)
