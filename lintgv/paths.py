"""Glob matching of project paths, shared by discovery, per-file settings and the engine."""

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import pathspec


@cache
def _spec(patterns: tuple[str, ...]) -> pathspec.PathSpec:
    return pathspec.PathSpec.from_lines("gitignore", patterns)


def matches_any(relative: str, patterns: Sequence[str]) -> bool:
    """Tell whether the root-relative POSIX path matches any gitignore-style pattern."""
    return bool(patterns) and _spec(tuple(patterns)).match_file(relative)


def relative_to_root(path: Path, root: Path) -> str:
    """Return `path` relative to `root` in POSIX form, or its absolute form when outside."""
    absolute = path if path.is_absolute() else Path.cwd() / path
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return absolute.as_posix()
