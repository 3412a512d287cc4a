"""Per-file results kept between runs, keyed by file state, content, config and version.

One pickle per config: loading 5,000 entries from one file is far cheaper than opening
5,000 small ones. A corrupt or unreadable cache is ignored and rebuilt.

The cache folder lives in the checked project, so it is not trusted:
- the folder must be a real directory: where `.lintgv_cache` is a symbolic link or not a
  folder, the cache is off for the run (one warning) and nothing is written through it;
  its files are opened relative to the folder, never through a link;
- every file carries a digest of its content, checked before anything is unpickled: a
  truncated or altered file is ignored and rebuilt;
- it is read by an unpickler that builds only lintgv's own frozen values and a few
  built-in types; a file holding anything else is treated as corrupt;
- entries are keyed by each file's size, modification time and inode, which a clone of a
  tree with a cache committed in it does not reproduce.
The key includes a stamp of lintgv's own source files, so an edited rule never answers
from results of its older self.
"""

import contextlib
import io
import logging
import os
import pickle
import stat
import sys
from dataclasses import field
from functools import cache
from pathlib import Path

from lintgv import __version__
from lintgv.digest import blake2b
from lintgv.model import FileResult
from lintgv.records import frozen, mutable

log = logging.getLogger(__name__)
FORMAT = 4

# (size, mtime_ns, ctime_ns, inode): the state of a file a warm run trusts.
FileState = tuple[int, int, int, int]

# What a cache file may build: the values of lintgv.model and the types they hold.
_ALLOWED = frozenset(
    {
        ("lintgv.model", name)
        for name in (
            "Applicability",
            "Blocker",
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


_MAGIC = b"lintgv-cache\n"
_DIGEST_SIZE = 32


class CorruptCache(Exception):
    """A cache file that is not what lintgv wrote."""


def _load(data: bytes) -> object:
    """Return the value a cache file holds, after checking its digest."""
    head, digest = data[: len(_MAGIC)], data[len(_MAGIC) : len(_MAGIC) + _DIGEST_SIZE]
    payload = data[len(_MAGIC) + _DIGEST_SIZE :]
    if head != _MAGIC or blake2b(payload, digest_size=_DIGEST_SIZE).digest() != digest:
        raise CorruptCache("its digest does not match its content")
    return _ModelUnpickler(io.BytesIO(payload)).load()


def _dump(value: object) -> bytes:
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return _MAGIC + blake2b(payload, digest_size=_DIGEST_SIZE).digest() + payload


def _open_folder(folder: Path, create: bool) -> int | None:
    """Return a descriptor of `folder`, a real directory (never a link), or None."""
    try:
        status = os.lstat(folder)
    except FileNotFoundError:
        if not create:
            return None
        try:
            os.mkdir(folder)
        except OSError as exc:
            log.warning("cache folder %s could not be made (%s); results are not kept", folder, exc)
            return None
        status = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(status.st_mode):
        kind = "a symbolic link" if stat.S_ISLNK(status.st_mode) else "not a folder"
        _warn_once(f"cache folder {folder} is {kind}; the cache is off for this run")
        return None
    try:
        return os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None


@cache
def _warn_once(message: str) -> None:
    log.warning("%s", message)


def _read(path: Path) -> bytes | None:
    """Return the bytes of cache file `path`: a regular file in a real cache folder, opened
    without following links; None when there is none."""
    folder = _open_folder(path.parent, create=False)
    if folder is None:
        return None
    try:
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        handle = os.open(path.name, flags, dir_fd=folder)
    except FileNotFoundError:
        return None
    finally:
        os.close(folder)
    with os.fdopen(handle, "rb") as stream:
        if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            raise CorruptCache("it is not a regular file")
        return stream.read()


@cache
def code_stamp() -> str:
    """Return a digest of lintgv's own source files (names, sizes, modification times)
    and of the Python running them, whose parser reads the files GV301 and GV302 check."""
    package = Path(__file__).parent
    parts = [f"python {sys.version_info.major}.{sys.version_info.minor}"]
    for source in sorted(package.rglob("*.py")):
        try:
            status = source.stat()
        except OSError:
            continue
        parts.append(f"{source.relative_to(package)}:{status.st_size}:{status.st_mtime_ns}")
    return blake2b("\n".join(parts).encode(), digest_size=12).hexdigest()


@frozen
class Entry:
    stat_key: FileState
    digest: str
    result: FileResult


# On disk an entry is a plain tuple, and a clean file's result is None: unpickling 5,000
# dataclasses holding Paths costs more than the whole rest of a warm run. A result holds
# for the file's module name too: relative imports resolve through it.
_Stored = tuple[FileState, str, str, FileResult | None]


# What the second pass (calls of the unique-name helpers the run found anywhere) made of
# a file, under the helper names it looked for: its digest and its new result, or "" and
# None when the file names none of them and its first result stands.
_Second = tuple[FileState, str, str, str, FileResult | None]


@mutable
class ResultCache:
    """Results of one config's files; `get` and `put` in memory, `save` writes once."""

    path: Path
    stored: dict[str, _Stored] = field(default_factory=dict)
    second: dict[str, _Second] = field(default_factory=dict)
    dirty: bool = False

    @classmethod
    def open(cls, folder: Path, fingerprint: str) -> "ResultCache":
        """Load the cache for `fingerprint` from `folder`, or start an empty one."""
        stamp = f"{FORMAT}\n{__version__}\n{code_stamp()}\n{fingerprint}"
        key = blake2b(stamp.encode(), digest_size=12)
        path = folder / f"results-{key.hexdigest()}.pickle"
        cache = cls(path)
        try:
            data = _read(path)
            loaded = _load(data) if data is not None else None
            if isinstance(loaded, tuple) and len(loaded) == 2:
                stored, second = loaded
                if isinstance(stored, dict) and isinstance(second, dict):
                    cache.stored, cache.second = stored, second
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

    def hit(
        self, path: Path, stat_key: FileState, module_name: str = ""
    ) -> tuple[FileResult, str] | None:
        """Return the cached result and its digest when the file's size, mtime and inode,
        and its module name, are unchanged (one lookup: a warm run asks for every file)."""
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
        return (stored[3] if stored[3] is not None else FileResult(path)), stored[2]

    def put(
        self,
        path: Path,
        stat_key: FileState,
        digest: str,
        result: FileResult,
        module_name: str = "",
    ) -> None:
        """Remember the result for `path` as module `module_name`."""
        clean = not (
            result.findings or result.errors or result.defined_helpers or result.thin_helpers
        )
        self.stored[str(path)] = (stat_key, module_name, digest, None if clean else result)
        self.dirty = True

    def second_pass(
        self, path: Path, stat_key: FileState, module_name: str, names: str
    ) -> tuple[str, FileResult | None] | None:
        """Return (digest, result) the second pass kept for `path` looking for `names`
        (see `names_key`): result None when the file names none of them. None when the
        file, its module name or the names have changed since."""
        kept = self.second.get(str(path))
        if (
            not isinstance(kept, tuple)
            or len(kept) != 5
            or kept[:3]
            != (
                stat_key,
                module_name,
                names,
            )
        ):
            return None
        return kept[3], kept[4]

    def put_second(
        self,
        path: Path,
        stat_key: FileState,
        module_name: str,
        names: str,
        digest: str,
        result: FileResult | None,
    ) -> None:
        """Remember what the second pass made of `path` (see `second_pass`)."""
        self.second[str(path)] = (stat_key, module_name, names, digest, result)
        self.dirty = True

    def save(self) -> None:
        """Write the cache atomically; a failure is logged, never raised."""
        if self.dirty:
            _write(self.path, (self.stored, self.second))


def names_key(helpers: frozenset[str], thin: frozenset[str]) -> str:
    """Return a stable key for the helper and thin-wrapper names a second pass looks for."""
    text = "\n".join(sorted(helpers)) + "\0" + "\n".join(sorted(thin))
    return blake2b(text.encode(), digest_size=12).hexdigest()


@frozen
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
        key = blake2b(stamp.encode(), digest_size=12)
        return cls(folder / f"walk-{key.hexdigest()}.pickle")

    def load(self) -> tuple[dict[str, object], list[tuple[object, ...]]] | None:
        """Return (paths read with their states, files found), or None."""
        try:
            data = _read(self.path)
            if data is None:
                return None
            loaded = _load(data)
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
    """Pickle `value` to `path` atomically, inside a real cache folder and never through a
    link; a failure is logged, never raised."""
    folder = _open_folder(path.parent, create=True)
    if folder is None:
        return
    try:
        _create(folder, ".gitignore", b"*\n", replace=False)
        _create(folder, path.name, _dump(value), replace=True)
    except OSError as exc:
        log.warning("cache %s could not be written (%s); results are not kept", path, exc)
    finally:
        os.close(folder)


def _create(folder: int, name: str, data: bytes, *, replace: bool) -> None:
    """Write `name` in the folder open as `folder`: through a new temporary file renamed
    over it (`replace`), or only when no such name exists yet."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    temporary = f".tmp-{os.getpid()}-{os.urandom(6).hex()}" if replace else name
    try:
        handle = os.open(temporary, flags, 0o644, dir_fd=folder)
    except FileExistsError:
        if replace:
            raise
        return  # the .gitignore is there already
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        if replace:
            os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        if replace:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=folder)
        raise


def stat_key(path: Path) -> FileState | None:
    """Return (size, mtime_ns, ctime_ns, inode) of `path`, or None when it cannot be
    stat'ed (see discovery.signature for why the ctime too)."""
    try:
        status = os.stat(path)  # not Path.stat: a warm run stats every file, and it is slower
    except OSError:
        return None
    return (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)


def digest_of(data: bytes) -> str:
    """Return the content digest used as the cache's second key."""
    return blake2b(data, digest_size=16).hexdigest()
