"""Project paths: glob matching, shared by discovery, per-file settings and the engine;
and how reports show a path (`display_path`, escaped by `printable`).

Patterns follow .gitignore syntax (see gitignore.py). A tree walk asks thousands of times,
so patterns are merged into a few regular expressions rather than tested one by one.
"""

import os
import re
from collections.abc import Callable, Sequence
from functools import cache, cached_property
from pathlib import Path

from lintgv.gitignore import FOLDERS, translate


class Matcher:
    """Tells whether a POSIX path (a folder ends with "/") matches a set of patterns."""

    def __init__(
        self, patterns: Sequence[str], on_invalid: Callable[[int, str], None] | None = None
    ) -> None:
        """Merge `patterns`; one git can use for nothing raises ValueError, or, with
        `on_invalid`, is told to it (its line number from 1, the pattern) and skipped."""
        compiled = []
        for number, pattern in enumerate(patterns, 1):
            try:
                source, include = translate(pattern)
            except ValueError:
                if on_invalid is None:
                    raise
                on_invalid(number, pattern)
                continue
            if source is not None:
                compiled.append((source, bool(include)))
        # Consecutive patterns of one polarity merge into one group; the last group that
        # matches decides, as the last matching pattern does in git. A pattern without a
        # slash matches the last path component at any depth, so it is tested against
        # that component alone: "^(?:.+/)?x" over a whole path backtracks at every slash.
        groups: list[tuple[list[str], list[str], bool]] = []
        for source, include in compiled:
            if not groups or groups[-1][2] != include:
                groups.append(([], [], include))
            rest = source[len("^" + FOLDERS) :]
            if source.startswith("^" + FOLDERS) and _within_a_name(rest):
                groups[-1][0].append("^" + rest)
            else:
                groups[-1][1].append(source)
        self._sources = groups
        # Most paths of a tree match no pattern at all: one test against every pattern
        # at once answers them, instead of one test per group (a .gitignore with many
        # negations has many groups).
        self._any_name = _merge([n for names, _, _ in groups for n in names])
        self._any_path = _merge([p for _, paths, _ in groups for p in paths])
        self.is_empty = not compiled
        # Whether a folder or one above it matches, by folder: the files of a folder
        # share the answer (see matches_any).
        self._folders: dict[str, bool] = {}

    @staticmethod
    def is_valid(pattern: str) -> bool:
        """Tell whether `pattern` is a pattern git can use (a trailing lone `\\` is not)."""
        try:
            translate(pattern)
        except ValueError:
            return False
        return True

    def matches(self, path: str) -> bool:
        """Tell whether `path` is matched (the last matching pattern decides)."""
        return bool(self.decide(path))

    def decide(self, path: str) -> bool | None:
        """Return what the last pattern matching `path` says (True: ignore it, False: a
        negation takes it back), or None when no pattern matches."""
        if self.is_empty:
            return None
        name = path[path.rstrip("/").rfind("/") + 1 :]
        if not (
            (self._any_name and self._any_name.match(name))
            or (self._any_path and self._any_path.match(path))
        ):
            return None
        for by_name, by_path, include in self._groups:
            if (by_name and by_name.match(name)) or (by_path and by_path.match(path)):
                return include
        return None

    def covers_folder(self, folder: str) -> bool:
        """Tell whether the POSIX `folder` (without its trailing slash: "" is the "/" of an
        absolute path) or a folder above it matches, worked out once per folder."""
        known = self._folders.get(folder)
        if known is None:
            above, slash, _ = folder.rpartition("/")
            known = (bool(slash) and self.covers_folder(above)) or self.matches(folder + "/")
            self._folders[folder] = known
        return known

    @cached_property
    def _groups(self) -> list[tuple[re.Pattern[str] | None, re.Pattern[str] | None, bool]]:
        # Compiled when a path first matches a pattern (most paths match none): compiling
        # a few hundred patterns costs a small tree's walk as much again.
        return [
            (_merge(names), _merge(paths), include)
            for names, paths, include in reversed(self._sources)
        ]


def _merge(sources: list[str]) -> re.Pattern[str] | None:
    # DOTALL: a file name may hold a line break, which `a/**` covers as git does.
    return re.compile("|".join(f"(?:{s})" for s in sources), re.DOTALL) if sources else None


@cache
def matcher(patterns: tuple[str, ...]) -> Matcher:
    """Return the (cached) Matcher of `patterns`."""
    return Matcher(patterns)


def _within_a_name(rest: str) -> bool:
    """Tell whether an expression after FOLDERS matches within one path component
    (a slash only in what excludes one, `[^/]` or `(?!/)`, or in the folder ending)."""
    inner = rest.removesuffix("/?$").removesuffix("/$").replace("[^/", "").replace("(?!/)", "")
    return "/" not in inner


def matches_any(relative: str, patterns: Sequence[str]) -> bool:
    """Tell whether the root-relative POSIX path of a file, or a folder above it, matches
    gitignore-style patterns (`src/relay/` takes in src/relay/a.cc)."""
    if not patterns:
        return False
    found = matcher(tuple(patterns))
    folder, slash, _ = relative.rpartition("/")
    return (bool(slash) and found.covers_folder(folder)) or found.matches(relative)


def relative_to_root(path: Path, root: Path) -> str:
    """Return `path` relative to `root` in POSIX form, or its absolute form when outside."""
    # `..` is resolved lexically: `check ../pr` from inside pr names pr's own files.
    absolute = Path(os.path.normpath(path if path.is_absolute() else Path.cwd() / path))
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return absolute.as_posix()


def relative_path(path: Path) -> str:
    """Return `path` relative to the current folder when below it, else as given."""
    cwd = Path.cwd()  # asked once: a report names hundreds of paths
    try:
        return (path if path.is_absolute() else cwd / path).relative_to(cwd).as_posix()
    except ValueError:
        return path.as_posix()


# Characters that would break a report's lines or a terminal: C0 and C1 controls, DEL,
# and the Unicode line and paragraph separators.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def printable(name: str) -> str:
    """Return a file name as text any report can carry: each byte that is not UTF-8 (kept
    by Python as a lone surrogate) as `\\xe9`, each control character escaped (`\\n`),
    and a backslash doubled, so that a name spelling `\\xe9` shows apart from the byte."""
    text = os.fsencode(name.replace("\\", "\\\\")).decode("utf-8", "backslashreplace")
    return _CONTROL.sub(lambda m: m[0].encode("unicode_escape").decode("ascii"), text)


def display_path(path: Path) -> str:
    """Return how every report names a file: relative to the current folder when below
    it, else as given; made printable (a name cannot forge a line of a report)."""
    return printable(relative_path(path))


_VCS = (".git", ".hg", ".svn")
_BUILD_FILES = ("CMakeLists.txt", "pyproject.toml", "setup.py")


def _chain(folder: Path) -> list[Path]:
    current = Path(os.path.abspath(folder))
    return [c for c in (current, *current.parents) if not is_too_wide(c)]


def is_too_wide(folder: Path) -> bool:
    """Tell whether an absolute `folder` is too wide to be a project's root: a home
    folder, or the file system's root."""
    return folder in (Path(folder.anchor), Path(os.path.expanduser("~")))


def project_markers(folder: Path) -> list[Path]:
    """Return every path project_root_of looks at for `folder`: a change to any of them
    may move the project's root."""
    return [c / marker for c in _chain(folder) for marker in (*_VCS, *_BUILD_FILES)]


def project_root_of(folder: Path) -> Path | None:
    """Return the root of the project holding `folder`, from what marks one without
    running anything: the innermost folder at or above it that a version control system
    keeps (`.git`, `.hg`, `.svn`), else the outermost one with a build file
    (`CMakeLists.txt`, `pyproject.toml`, `setup.py`: an exported tree has no `.git`);
    None when nothing marks it. A home folder or the file system's root is no project
    (dotfiles kept in git, a stray build file)."""
    chain = _chain(folder)
    for candidate in chain:
        if any(os.path.lexists(candidate / marker) for marker in _VCS):
            return candidate
    built = [c for c in chain if any(os.path.isfile(c / name) for name in _BUILD_FILES)]
    return built[-1] if built else None
