"""Per-file results kept between runs, keyed by file state, content, config and version.

One pickle per config: loading 5,000 entries from one file is far cheaper than opening
5,000 small ones. A corrupt or unreadable cache is ignored and rebuilt.

The cache folder lives in the checked project, so its content is not trusted: it is read
by an unpickler that builds only lintgv's own frozen values and a few built-in types, and
a file holding anything else is treated as corrupt. The key includes a stamp of lintgv's
own source files, so an edited rule never answers from results of its older self.
"""

import hashlib
import logging
import os
import pickle
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import IO

from lintgv import __version__
from lintgv.model import FileResult

log = logging.getLogger(__name__)
FORMAT = 2

# What a cache file may build: the values of lintgv.model and the types they hold.
_ALLOWED = frozenset(
    {
        ("lintgv.model", name)
        for name in (
            "Applicability",
            "Edit",
            "FileError",
            "FileResult",
            "Finding",
            "Fix",
            "Language",
            "Severity",
            "Span",
        )
    }
    | {("pathlib", "PosixPath"), ("pathlib", "Path"), ("builtins", "frozenset")}
    | {("builtins", "set"), ("copyreg", "_reconstructor"), ("builtins", "object")}
)


class _ModelUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> type:
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not a lintgv result type")
        found: type = super().find_class(module, name)
        return found


def _load(stream: IO[bytes]) -> object:
    return _ModelUnpickler(stream).load()


@cache
def code_stamp() -> str:
    """Return a digest of lintgv's own source files (names, sizes, modification times)."""
    package = Path(__file__).parent
    parts = []
    for source in sorted(package.rglob("*.py")):
        try:
            status = source.stat()
        except OSError:
            continue
        parts.append(f"{source.relative_to(package)}:{status.st_size}:{status.st_mtime_ns}")
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=12).hexdigest()


@dataclass(frozen=True)
class Entry:
    stat_key: tuple[int, int, int]
    digest: str
    result: FileResult


# On disk an entry is a plain tuple, and a clean file's result is None: unpickling 5,000
# dataclasses holding Paths costs more than the whole rest of a warm run. A result holds
# for the file's module name too: relative imports resolve through it.
_Stored = tuple[tuple[int, int, int], str, str, FileResult | None]


@dataclass
class ResultCache:
    """Results of one config's files; `get` and `put` in memory, `save` writes once."""

    path: Path
    stored: dict[str, _Stored] = field(default_factory=dict)
    dirty: bool = False

    @classmethod
    def open(cls, folder: Path, fingerprint: str) -> "ResultCache":
        """Load the cache for `fingerprint` from `folder`, or start an empty one."""
        stamp = f"{FORMAT}\n{__version__}\n{code_stamp()}\n{fingerprint}"
        key = hashlib.blake2b(stamp.encode(), digest_size=12)
        path = folder / f"results-{key.hexdigest()}.pickle"
        cache = cls(path)
        try:
            with path.open("rb") as stream:
                loaded = _load(stream)
            if isinstance(loaded, dict):
                cache.stored = loaded
        except FileNotFoundError:
            pass
        except Exception as exc:  # any corruption: start afresh rather than fail the run
            log.warning("cache %s is unreadable (%s); rebuilding it", path, exc)
            cache.dirty = True
        return cache

    def entry(self, path: Path, module_name: str = "") -> Entry | None:
        """Return what the cache holds for `path` as module `module_name`, if usable."""
        stored = self.stored.get(str(path))
        if not isinstance(stored, tuple) or len(stored) != 4 or stored[1] != module_name:
            return None
        stat, _, digest, result = stored
        return Entry(stat, digest, result if result is not None else FileResult(path))

    def get(
        self, path: Path, stat_key: tuple[int, int, int], module_name: str = ""
    ) -> FileResult | None:
        """Return the cached result when the file's size, mtime and inode, and its module
        name, are unchanged."""
        stored = self.stored.get(str(path))
        if (
            not isinstance(stored, tuple)
            or len(stored) != 4
            or stored[:2]
            != (
                stat_key,
                module_name,
            )
        ):
            return None
        return stored[3] if stored[3] is not None else FileResult(path)

    def put(
        self,
        path: Path,
        stat_key: tuple[int, int, int],
        digest: str,
        result: FileResult,
        module_name: str = "",
    ) -> None:
        """Remember the result for `path` as module `module_name`."""
        clean = not (result.findings or result.errors or result.defined_helpers)
        self.stored[str(path)] = (stat_key, module_name, digest, None if clean else result)
        self.dirty = True

    def save(self) -> None:
        """Write the cache atomically; a failure is logged, never raised."""
        if self.dirty:
            _write(self.path, self.stored)


@dataclass(frozen=True)
class WalkMemo:
    """What one walk of the tree found, and every path it read with that path's state.

    A warm run spends most of its time walking (a thousand folders, dozens of .gitignore
    files to compile); the walk's outcome depends only on what it read, so while each
    of those paths is unchanged (see discovery.signature) the files it found are reused.
    """

    path: Path

    @classmethod
    def at(cls, folder: Path, fingerprint: str) -> "WalkMemo":
        stamp = f"{FORMAT}\n{__version__}\n{code_stamp()}\n{fingerprint}"
        key = hashlib.blake2b(stamp.encode(), digest_size=12)
        return cls(folder / f"walk-{key.hexdigest()}.pickle")

    def load(self) -> tuple[dict[str, object], list[tuple[object, ...]]] | None:
        """Return (paths read with their states, files found), or None."""
        try:
            with self.path.open("rb") as stream:
                loaded = _load(stream)
        except FileNotFoundError:
            return None
        except Exception as exc:  # any corruption: walk afresh rather than fail the run
            log.warning("cache %s is unreadable (%s); rebuilding it", self.path, exc)
            return None
        if not (isinstance(loaded, tuple) and len(loaded) == 2):
            return None
        read, found = loaded
        if not (isinstance(read, dict) and isinstance(found, list)):
            return None
        return read, found

    def save(self, read: dict[str, object], found: list[tuple[object, ...]]) -> None:
        _write(self.path, (read, found))


def _write(path: Path, value: object) -> None:
    """Pickle `value` to `path` atomically; a failure is logged, never raised."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        gitignore = path.parent / ".gitignore"
        if not gitignore.exists():
            gitignore.write_text("*\n", encoding="utf-8")
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as stream:
                pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError as exc:
        log.warning("cache %s could not be written (%s); results are not kept", path, exc)


def stat_key(path: Path) -> tuple[int, int, int] | None:
    """Return (size, mtime_ns, inode) of `path`, or None when it cannot be stat'ed."""
    try:
        status = path.stat()
    except OSError:
        return None
    return (status.st_size, status.st_mtime_ns, status.st_ino)


def digest_of(data: bytes) -> str:
    """Return the content digest used as the cache's second key."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()
