"""Paths on the command line to the files lintgv checks, each with the config that governs it.

The walk is on the hot path of every run (5,000 files in a compiler tree, and a warm
run does little else), so it works on plain strings and `os.scandir` entries, and
remembers each folder's config.
"""

import errno
import logging
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from lintgv.config import CONFIG_FILES, Config, apply_settings, is_config_file, load_config
from lintgv.errors import ConfigError
from lintgv.model import Language
from lintgv.paths import Matcher, matcher, printable, project_markers, project_root_of
from lintgv.reading import read_bounded
from lintgv.records import frozen

log = logging.getLogger(__name__)


def _broken_link(path: str) -> str:
    """Return why a symbolic link leads to no file: a loop of links, or nothing."""
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop; not followed"
    return "symbolic link to nothing"


_UNREADABLE = "cannot be read: "


def _missing(path: Path) -> str | None:
    """Return why a path given on the command line names nothing to check, or None."""
    try:
        os.stat(path)
    except OSError as exc:
        if os.path.islink(path):
            return _broken_link(str(path))
        if isinstance(exc, FileNotFoundError | NotADirectoryError):
            return "no such file or folder"
        return f"{_UNREADABLE}{exc.strerror or exc}"  # a name too long to look up, say
    return None


Signature = tuple[int, int, int, int]


def signature(path: str) -> Signature | None:
    """Return the state of `path` a warm run trusts, following links; None when it is
    absent: (size, mtime_ns, ctime_ns, inode).

    A folder's mtime and ctime change whenever an entry is added, removed or renamed in
    it. The ctime also moves on a change of permissions, and cannot be set back by hand
    or by an archive that restores mtimes, as an mtime can.
    """
    try:
        status = os.stat(path)
    except OSError:
        return None
    return state_of(status)


def state_of(status: os.stat_result) -> Signature:
    return (status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)


# Whether a file may be read is asked of the process's effective ids, as open() asks.
_EFFECTIVE = os.access in os.supports_effective_ids


def unreadable(paths: Iterable[Path]) -> list[Path]:
    """Return the files among `paths` this process may not read (or that are gone): a
    call in one would be left behind by a change across files, as in a folder the walk
    could not see into. Asked of the file system only, one call per file."""
    return [p for p in paths if not os.access(p, os.R_OK, effective_ids=_EFFECTIVE)]


@frozen
class Candidate:
    path: Path
    language: Language
    config: Config
    module_name: str


@frozen
class _Ignore:
    base: str  # folder of the .gitignore, ending with "/", as bytes (see _as_bytes)
    matcher: Matcher


def _as_bytes(text: str) -> str:
    """Return `text` with one character per byte of its UTF-8 (a name the system gave
    in another encoding, byte for byte): git matches ignore patterns byte by byte, so
    `?` takes one byte of "é" and `[é]` is a set of two bytes, matching neither "é"."""
    if text.isascii():
        return text
    return text.encode("utf-8", "surrogateescape").decode("latin-1")


class Discovery:
    """Walks folders once, loading nested configs and .gitignore files on the way."""

    def __init__(
        self,
        overrides: Mapping[str, object],
        config_file: Path | None = None,
        *,
        force_exclude: bool = False,
        tracked: frozenset[str] = frozenset(),
    ) -> None:
        self.overrides = dict(overrides)
        self.force_exclude = force_exclude
        # Real paths of files git tracks (those --diff-base knows changed), and of the
        # folders holding them: no ignore file hides them, as git ignores no tracked file
        # (a pull request adding a file and a pattern for it must not hide the file).
        self.tracked = tracked | {
            os.path.join(folder, "") for path in tracked for folder in _folders_of(path)
        }
        self._loaded: dict[str | None, Config] = {}
        self._keys: dict[int, str | None] = {}
        # Every path the walk's outcome depends on, with its state then (None: absent):
        # folders for their listings, config and .gitignore files, markers looked for.
        self.read: dict[str, Signature | None] = {}
        self.fixed: Config | None = None
        if config_file is not None:
            self._note(str(config_file))
            # A config given by path governs trees it does not sit in (a base branch's
            # for a pull request's checkout): its globs are relative to the working
            # folder, as ruff has it, not to the folder it happens to be kept in.
            self.fixed = self._load(config_file, root=Path.cwd().resolve())
        self._configs: dict[str, Config] = {}
        self._packages: dict[str, str | None] = {}

    def _note(self, path: str) -> None:
        self.read.setdefault(os.path.abspath(path), signature(path))

    def _load(self, path: Path | None, root: Path | None = None) -> Config:
        key = str(path) if path is not None else None
        if key not in self._loaded:
            base = load_config(path, root) if path is not None else Config()
            config = apply_settings(base, self.overrides, None) if self.overrides else base
            self._loaded[key] = config
            self._keys[id(config)] = key
        return self._loaded[key]

    def config_key(self, config: Config) -> str | None:
        """Return what `config` was loaded from (a config file's path; None: defaults)."""
        return self._keys[id(config)]

    def config_by_key(self, key: str | None) -> Config:
        """Return the config loaded from `key` (see config_key)."""
        return self.fixed if self.fixed is not None else self._load(Path(key) if key else None)

    def config_for(self, folder: Path) -> Config:
        """Return the config governing files in `folder` (the nearest config file upward)."""
        return self._config_of(os.path.abspath(folder))

    def _config_of(self, folder: str, config_listed: bool = True) -> Config:
        """Return the config governing files in the absolute `folder`. `config_listed`
        False: the walk's listing of it holds no config file's name, in any case (a file
        system may not tell case apart), so none is looked up; each is noted absent, as a
        lookup would have noted it."""
        if self.fixed is not None:  # --config governs every file
            return self.fixed
        known = self._configs.get(folder)
        if known is not None:
            return known
        if not config_listed:
            for name in CONFIG_FILES:
                self.read.setdefault(os.path.join(folder, name), None)
            found = None
        else:
            for name in CONFIG_FILES:
                self._note(os.path.join(folder, name))
            found = _config_file_in(folder)
        if found is not None:
            config = self._load(Path(found))
        else:
            parent = os.path.dirname(folder)
            config = self._load(None) if parent == folder else self._config_of(parent)
        self._configs[folder] = config
        return config

    def language_of(self, name: str, config: Config) -> Language | None:
        """Return the language of a file by its suffix, or None when lintgv does not check it."""
        suffix = os.path.splitext(name)[1]
        if suffix in config.python_extensions:
            return Language.PYTHON
        if suffix in config.cpp_extensions:
            return Language.CPP
        return None

    def module_name(self, path: str) -> str:
        """Return the dotted module name of a Python file from the packages around it."""
        return self._module_in(*os.path.split(os.path.abspath(path)))

    def _module_in(self, folder: str, name: str) -> str:
        """Return the dotted module name of the file `name` in the absolute `folder`."""
        package = self._package(folder)
        stem = os.path.splitext(name)[0]
        if stem == "__init__":
            return package or ""
        return f"{package}.{stem}" if package else stem

    def _package(self, folder: str) -> str | None:
        if folder not in self._packages:
            parent = os.path.dirname(folder)
            marker = os.path.join(folder, "__init__.py")
            self._note(marker)
            if os.path.isfile(marker):
                outer = self._package(parent) if parent != folder else None
                name = os.path.basename(folder)
                self._packages[folder] = f"{outer}.{name}" if outer else name
            else:
                self._packages[folder] = None
        return self._packages[folder]

    def discover(
        self,
        paths: Sequence[Path],
        errors: list[tuple[Path, str]],
        unseen: list[Path] | None = None,
    ) -> Iterator[Candidate]:
        """Yield every file to check under `paths`; unreadable paths go to `errors`, and
        to `unseen` those that may hide files the walk could not see: a folder it could
        not read, or whose config is broken, and a path given that cannot be looked up
        (not a link loop, a broken link or a path that does not exist)."""
        seen: set[str] = set()
        hidden = unseen if unseen is not None else []
        for given in paths:
            self._note(str(given))
            why = _missing(given)
            if why is not None:
                errors.append((given, why))
                if why.startswith(_UNREADABLE):
                    hidden.append(given)
            elif given.is_dir():
                yield from self._walk(given, errors, seen, hidden)
            else:
                # A file named on the command line is checked even when excluded, as in
                # ruff, unless force_exclude says otherwise (pre-commit names every file).
                config = self.config_for(given.parent)
                language = self.language_of(given.name, config)
                real = os.path.realpath(given)
                if self.force_exclude and self._is_excluded(given, config):
                    continue
                if language is None:
                    errors.append((given, f"not a Python or C++ file (suffix {given.suffix!r})"))
                elif real not in seen:
                    seen.add(real)
                    yield self._candidate(str(given), language, config)

    def _candidate(self, path: str, language: Language, config: Config) -> Candidate:
        module = self.module_name(path) if language == Language.PYTHON else ""
        return Candidate(Path(path), language, config, module)

    def _walk(
        self, top: Path, errors: list[tuple[Path, str]], seen: set[str], unseen: list[Path]
    ) -> Iterator[Candidate]:
        visited: set[tuple[int, int]] = set()
        inside = os.path.realpath(top) + "/"
        stack: list[tuple[str, tuple[_Ignore, ...]]] = [(str(top), self._outer_ignores(top))]
        while stack:
            folder, ignores = stack.pop()
            absolute = os.path.abspath(folder)
            try:
                status = os.stat(folder)
                if (status.st_dev, status.st_ino) in visited:
                    # A link back into a folder above it is a loop; a link to a folder
                    # walked elsewhere only names its files again (checked once).
                    real = os.path.realpath(folder)
                    if (os.path.realpath(os.path.dirname(absolute)) + "/").startswith(real + "/"):
                        errors.append((Path(folder), "symbolic link loop; not followed again"))
                    continue
                visited.add((status.st_dev, status.st_ino))
                # The first state noted stands: a memo must not hold a state that is
                # newer than what was read before it (see remembered._unchanged).
                self.read.setdefault(absolute, state_of(status))
                with os.scandir(folder) as scan:
                    entries = sorted(scan, key=lambda e: e.name)
            except OSError as exc:
                errors.append((Path(folder), f"{_UNREADABLE}{exc.strerror or exc}"))
                unseen.append(Path(folder))
                continue
            try:
                config = self._config_of(
                    absolute, any(e.name.lower() in _CONFIG_NAMES for e in entries)
                )
            except ConfigError as exc:
                errors.append((Path(folder), str(exc)))
                unseen.append(Path(folder))
                continue
            if (
                config.respect_gitignore
                and folder != str(top)
                and any(e.name == ".git" for e in entries)
            ):
                # A repository inside the tree (a submodule, a clone) is walked, as
                # ripgrep and ruff walk it, under its own ignore files alone: git reads
                # none of the outer repository's there.
                ignores = self._repository_ignores(absolute)
            if config.respect_gitignore and any(e.name == ".gitignore" for e in entries):
                self._note(os.path.join(absolute, ".gitignore"))
                ignore = _read_gitignore(os.path.join(absolute, ".gitignore"))
                if ignore is not None:
                    ignores = (*ignores, ignore)
            excluded = matcher(config.exclude + config.extend_exclude)
            root = str(config.root).rstrip("/") + "/"
            here = Path(folder)  # each file's path is made from it: a parse of its name only
            subfolders = []
            for entry in entries:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                full = os.path.join(absolute, entry.name)
                if is_dir:
                    if entry.is_symlink() and not (os.path.realpath(full) + "/").startswith(inside):
                        # A link to a folder outside the one named is not the tree's: `-> /`
                        # would have the walk check the whole machine, as ripgrep and ruff
                        # do not either.
                        log.warning(
                            "%s: a symbolic link to a folder outside %s; not followed",
                            printable(os.path.join(folder, entry.name)),
                            printable(str(top)),
                        )
                    elif not self._is_skipped(
                        full + "/", entry.name + "/", root, excluded, ignores
                    ):
                        subfolders.append((os.path.join(folder, entry.name), ignores))
                    continue
                language = self.language_of(entry.name, config)
                if language is None or self._is_skipped(full, entry.name, root, excluded, ignores):
                    continue
                if entry.is_symlink():
                    if not os.path.exists(full):
                        errors.append((Path(full), _broken_link(full)))
                        continue
                    full = os.path.realpath(full)
                if full not in seen:
                    seen.add(full)
                    module = (
                        self._module_in(absolute, entry.name) if language == Language.PYTHON else ""
                    )
                    yield Candidate(here / entry.name, language, config, module)
            stack.extend(reversed(subfolders))

    def _is_excluded(self, given: Path, config: Config) -> bool:
        """Tell whether a file named on the command line lies in an excluded place."""
        full = os.path.abspath(given)
        root = str(config.root).rstrip("/") + "/"
        excluded = matcher(config.exclude + config.extend_exclude)
        ignores = self._outer_ignores(given) if config.respect_gitignore else ()
        parts = full[len(root) :].split("/") if full.startswith(root) else [given.name]
        # An excluded folder anywhere above the file excludes it, as in a walk.
        folders = [root + "/".join(parts[: i + 1]) + "/" for i in range(len(parts) - 1)]
        return any(
            self._is_skipped(
                folder, os.path.basename(folder.rstrip("/")) + "/", root, excluded, ignores
            )
            for folder in folders
        ) or self._is_skipped(full, given.name, root, excluded, ignores)

    def _is_skipped(
        self, full: str, name: str, root: str, excluded: Matcher, ignores: tuple[_Ignore, ...]
    ) -> bool:
        """Tell whether the config's excludes or the ignore files skip `full` (a folder
        ends with "/"); ignore files never skip a tracked path."""
        if excluded.matches(full[len(root) :] if full.startswith(root) else name):
            return True  # a path outside the root (`check ../other`) by its name alone
        if not _is_ignored(full, ignores):
            return False
        if not self.tracked:
            return True
        real = os.path.realpath(full)
        return (real + "/" if full.endswith("/") else real) not in self.tracked

    def _outer_ignores(self, top: Path) -> tuple[_Ignore, ...]:
        """Return the ignore files that govern `top` from above, outermost first: the
        .gitignore files of the folders above it up to its repository's root, and that
        repository's .git/info/exclude; outside a repository, up to its project's root
        (an exported tree, see project_root_of). None from outside either: a home folder
        kept in git with `*` in its .gitignore must not hide the checkouts below it."""
        here = Path(os.path.abspath(top))
        start = here if here.is_dir() else here.parent
        for marker in project_markers(start):  # where the ceiling is depends on them
            self._note(str(marker))
        ceiling = project_root_of(start)
        found: list[_Ignore] = []
        for folder in (here, *here.parents):
            self._note(str(folder / ".git"))
            if folder != here:  # the walk reads top's own .gitignore
                self._note(str(folder / ".gitignore"))
                ignore = _read_gitignore(str(folder / ".gitignore"))
                if ignore is not None:
                    found.append(ignore)
            if (folder / ".git").exists():
                found.extend(self._repository_ignores(str(folder)))
                break
            if folder == ceiling or ceiling is None:
                break
        return tuple(reversed(found))

    def _repository_ignores(self, root: str) -> tuple[_Ignore, ...]:
        """Return the ignore file a repository keeps beside its history: its
        .git/info/exclude. A submodule's `.git` is a file naming its history elsewhere,
        which is not followed: none is read for it."""
        history = os.path.join(root, ".git")
        self._note(history)
        if os.path.islink(history) or not os.path.isdir(history):
            return ()
        exclude = os.path.join(history, "info", "exclude")
        self._note(exclude)
        ignore = _read_gitignore(exclude, base=root)
        return () if ignore is None else (ignore,)


_CONFIG_NAMES = frozenset(name.lower() for name in CONFIG_FILES)


def _config_file_in(folder: str) -> str | None:
    for name in CONFIG_FILES:
        candidate = os.path.join(folder, name)
        if is_config_file(Path(candidate)):
            return candidate
    return None


def _folders_of(path: str) -> Iterator[str]:
    folder = os.path.dirname(path)
    while folder != os.path.dirname(folder):
        yield folder
        folder = os.path.dirname(folder)


def _is_ignored(full: str, ignores: tuple[_Ignore, ...]) -> bool:
    # The deepest ignore file with a pattern for the path decides, as in git: a folder's
    # `!keep.py` takes back what a .gitignore above ignores.
    full = _as_bytes(full)
    for ignore in reversed(ignores):
        if full.startswith(ignore.base):
            decided = ignore.matcher.decide(full[len(ignore.base) :])
            if decided is not None:
                return decided
    return False


# A .gitignore larger than this is not a list of patterns a person wrote.
_GITIGNORE_BYTES = 1024 * 1024


def _read_gitignore(path: str, base: str | None = None) -> _Ignore | None:
    """Read an ignore file whose patterns are relative to `base` (its folder if None)."""
    if os.path.islink(path):  # git does not follow a symbolic link to an ignore file
        if os.path.lexists(path):
            log.warning("%s: a symbolic link; not followed, as git does", path)
        return None
    try:
        data = read_bounded(Path(path), _GITIGNORE_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("%s: cannot be read (%s); its patterns are not applied", path, exc)
        return None
    if len(data) > _GITIGNORE_BYTES:
        # Only whole lines: a cut `*.pyc` must not be read as `*.py`.
        data = data[: data.rfind(b"\n", 0, _GITIGNORE_BYTES) + 1]
        log.warning("%s: larger than 1 MiB; the patterns after it are not applied", path)
    # git skips a byte order mark, splits at "\n" (a "\r" before it goes; not at form
    # feeds) and ends a line at a NUL. Patterns are matched byte by byte, as paths are (_as_bytes).
    lines = data.removeprefix(b"\xef\xbb\xbf").decode("latin-1").split("\n")
    lines = [line.removesuffix("\r").split("\0", 1)[0] for line in lines]

    def skipped(number: int, line: str) -> None:  # git matches nothing with it either
        shown = line.encode("latin-1").decode("utf-8", "replace")
        log.warning("%s:%d: invalid pattern %r is skipped, as git does", path, number, shown)

    folder = base if base is not None else os.path.dirname(os.path.abspath(path))
    return _Ignore(_as_bytes(folder.rstrip("/") + "/"), Matcher(lines, on_invalid=skipped))
