"""Paths on the command line to the files lintgv checks, each with the config that governs it."""

import logging
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pathspec

from lintgv.config import Config, apply_settings, find_config_file, load_config
from lintgv.model import Language
from lintgv.paths import matches_any, relative_to_root

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Candidate:
    path: Path
    language: Language
    config: Config
    module_name: str


class Discovery:
    """Walks folders once, loading nested configs and .gitignore files on the way."""

    def __init__(self, overrides: Mapping[str, object], config_file: Path | None = None) -> None:
        self.overrides = dict(overrides)
        self.fixed = self._load(config_file) if config_file is not None else None
        self._configs: dict[Path, Config] = {}
        self._packages: dict[Path, str | None] = {}

    def _load(self, path: Path | None) -> Config:
        base = load_config(path) if path is not None else Config()
        return apply_settings(base, self.overrides, None) if self.overrides else base

    def config_for(self, folder: Path) -> Config:
        """Return the config governing files in `folder`."""
        if self.fixed is not None:
            return self.fixed
        folder = folder.resolve()
        if folder not in self._configs:
            self._configs[folder] = self._load(find_config_file(folder))
        return self._configs[folder]

    def language_of(self, path: Path, config: Config) -> Language | None:
        """Return the language of `path` by its suffix, or None when lintgv does not check it."""
        if path.suffix in config.python_extensions:
            return Language.PYTHON
        if path.suffix in config.cpp_extensions:
            return Language.CPP
        return None

    def module_name(self, path: Path) -> str:
        """Return the dotted module name of a Python file from the packages around it."""
        package = self._package(path.parent.resolve())
        stem = path.stem
        if stem == "__init__":
            return package or ""
        return f"{package}.{stem}" if package else stem

    def _package(self, folder: Path) -> str | None:
        if folder not in self._packages:
            if (folder / "__init__.py").is_file():
                parent = self._package(folder.parent) if folder.parent != folder else None
                self._packages[folder] = f"{parent}.{folder.name}" if parent else folder.name
            else:
                self._packages[folder] = None
        return self._packages[folder]

    def discover(
        self, paths: Sequence[Path], errors: list[tuple[Path, str]]
    ) -> Iterator[Candidate]:
        """Yield every file to check under `paths`; unreadable paths go to `errors`."""
        seen: set[Path] = set()
        for given in paths:
            if not given.exists() and not given.is_symlink():
                errors.append((given, "no such file or folder"))
                continue
            if given.is_dir():
                yield from self._walk(given, errors, seen)
                continue
            # A file named on the command line is checked even when excluded, as in ruff.
            config = self.config_for(given.parent)
            language = self.language_of(given, config)
            if language is None:
                errors.append(
                    (given, f"not a Python or C++ file (suffix {given.suffix or 'none'!r})")
                )
            elif given.resolve() not in seen:
                seen.add(given.resolve())
                yield self._candidate(given, language, config)

    def _candidate(self, path: Path, language: Language, config: Config) -> Candidate:
        module = self.module_name(path) if language == Language.PYTHON else ""
        return Candidate(path, language, config, module)

    def _walk(
        self, top: Path, errors: list[tuple[Path, str]], seen: set[Path]
    ) -> Iterator[Candidate]:
        ignores: list[tuple[Path, pathspec.PathSpec]] = self._parent_gitignores(top)
        real_dirs: set[tuple[int, int]] = set()

        def on_error(exc: OSError) -> None:
            errors.append((Path(exc.filename or top), f"cannot be read: {exc.strerror}"))

        for folder, dirs, files in os.walk(top, onerror=on_error, followlinks=True):
            here = Path(folder)
            try:
                status = here.stat()
            except OSError as exc:
                errors.append((here, f"cannot be read: {exc.strerror}"))
                dirs[:] = []
                continue
            if (status.st_dev, status.st_ino) in real_dirs:
                errors.append((here, "symbolic link loop; not followed again"))
                dirs[:] = []
                continue
            real_dirs.add((status.st_dev, status.st_ino))
            config = self.config_for(here)
            ignores = [(base, spec) for base, spec in ignores if here.is_relative_to(base)]
            if config.respect_gitignore and ".gitignore" in files:
                spec = _read_gitignore(here / ".gitignore")
                if spec is not None:
                    ignores.append((here, spec))
            excluded = config.exclude + config.extend_exclude
            dirs[:] = sorted(
                d for d in dirs if not self._skipped(here / d, True, config, excluded, ignores)
            )
            for name in sorted(files):
                path = here / name
                language = self.language_of(path, config)
                if language is None or self._skipped(path, False, config, excluded, ignores):
                    continue
                real = path.resolve()
                if real not in seen:
                    seen.add(real)
                    yield self._candidate(path, language, config)

    def _skipped(
        self,
        path: Path,
        is_dir: bool,
        config: Config,
        excluded: tuple[str, ...],
        ignores: list[tuple[Path, pathspec.PathSpec]],
    ) -> bool:
        relative = relative_to_root(path.absolute(), config.root) + ("/" if is_dir else "")
        if matches_any(relative, excluded) or matches_any(
            path.name + ("/" if is_dir else ""), excluded
        ):
            return True
        for base, spec in ignores:
            inner = path.absolute().relative_to(base.absolute()).as_posix() + (
                "/" if is_dir else ""
            )
            if spec.match_file(inner):
                return True
        return False

    def _parent_gitignores(self, top: Path) -> list[tuple[Path, pathspec.PathSpec]]:
        found = []
        for folder in top.absolute().parents:
            candidate = folder / ".gitignore"
            if candidate.is_file():
                spec = _read_gitignore(candidate)
                if spec is not None:
                    found.append((folder, spec))
            if (folder / ".git").exists():
                break
        return found


def _read_gitignore(path: Path) -> pathspec.PathSpec | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        log.warning("%s: cannot be read; its patterns are not applied", path)
        return None
    return pathspec.PathSpec.from_lines("gitignore", lines)
