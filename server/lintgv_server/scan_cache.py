"""What a workspace scan keeps between runs: each file's result, with the state and
settings it was checked under (scan.py fills it; the server state holds it)."""

from pathlib import Path

from lintgv.cache import FileState
from lintgv.discovery import Candidate
from lintgv.lines import LineIndex
from lintgv.model import FileResult
from lintgv.records import frozen


@frozen
class Scanned:
    """One file of a scan: its result and the text it was checked in (for positions)."""

    path: Path
    result: FileResult
    index: LineIndex


@frozen
class ScanKey:
    stat: FileState | None
    fingerprint: str
    helpers: frozenset[str]
    module_name: str  # relative imports resolve through it
    thin: frozenset[str] = frozenset()

    @classmethod
    def of(
        cls,
        candidate: Candidate,
        helpers: frozenset[str],
        stat: FileState | None,
        thin: frozenset[str] = frozenset(),
    ) -> "ScanKey":
        """Return the key of a check of `candidate` in the state `stat` (None: an open
        document, never cached) with the helper names `helpers` and thin wrappers
        `thin` of the workspace."""
        return cls(stat, candidate.config.fingerprint, helpers, candidate.module_name, thin)


class ScanCache:
    """Results of earlier scans, reused while a file's state and settings stay the same."""

    def __init__(self) -> None:
        self.entries: dict[Path, tuple[ScanKey, Scanned]] = {}

    def get(self, path: Path, key: ScanKey) -> Scanned | None:
        entry = self.entries.get(path)
        return entry[1] if entry is not None and entry[0] == key and key.stat else None

    def put(self, key: ScanKey, scanned: Scanned) -> None:
        self.entries[scanned.path] = (key, scanned)
