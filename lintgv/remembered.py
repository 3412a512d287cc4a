"""What a run takes from the last one: where each file's cache lives, and the files the
last walk of the same folders found, while nothing that walk read has changed."""

import logging
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from lintgv.cache import WalkMemo
from lintgv.config import Config
from lintgv.discovery import Candidate, Discovery, signature
from lintgv.discovery import log as walk_log
from lintgv.errors import ConfigError
from lintgv.model import Language

CACHE_FOLDER = ".lintgv_cache"


class CacheHome:
    """Where a file's cache is kept: `--cache-dir`; else beside the config file found
    above it, at its project's root; else (defaults, or a config given with `--config`)
    in the folder given that holds it. Never in the working folder or beside a config
    kept elsewhere, nor one a symbolic link in the tree leads to: a run writes nothing
    outside what the user named or its project, by real path."""

    def __init__(self, paths: Sequence[Path], cache_dir: Path | None, discovery: Discovery):
        self.cache_dir = cache_dir
        self.discovery = discovery
        # A path that names nothing holds no file: it must not make a home (the parent
        # of `src/../../nope.cc` can be any folder up to the root).
        # (os.path, not Path: a name too long to look up is then no folder, not an OSError.)
        self.homes = [
            os.path.abspath(p if os.path.isdir(p) else p.parent) for p in paths if os.path.exists(p)
        ]
        self.real_homes = [os.path.realpath(h) for h in self.homes]

    def __call__(self, config: Config, path: Path) -> Path:
        if self.cache_dir is not None:
            return self.cache_dir
        found = config.source is not None and self.discovery.fixed is None
        if found and self._is_named(str(config.root)):
            return config.root / CACHE_FOLDER
        where = os.path.abspath(path)
        holding = [h for h in self.homes if _within(where, h)]
        # The innermost folder given that holds the file: `check ../README.md src` keeps
        # the cache of src's files in src, not in the folder above.
        home = max(holding, key=len) if holding else os.path.dirname(where)
        return Path(home) / CACHE_FOLDER

    def _is_named(self, folder: str) -> bool:
        """Tell whether `folder` is, by real path, at or below a folder given, or above
        one (its project). A config found through a symbolic link in the tree, to a
        folder elsewhere holding a lintgv.toml, is neither: its cache would be made there."""
        real = os.path.realpath(folder)
        return any(_within(real, home) or _within(home, real) for home in self.real_homes)


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


class _Warned(logging.Handler):
    """Counts the warnings a walk logs."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def _unchanged(read: dict[str, object]) -> bool:
    """Tell whether every path a walk read is as it was then. A path that was absent is
    not looked for again when the folder it would be in was read unchanged, and read
    first: creating the path after that would have changed the folder's state (most
    paths a walk reads are absent ones, a config or .gitignore looked for in every
    folder). The order matters: the walk notes each path once, in the order it read
    them, so a folder read after a path was found absent may already hold that path."""
    read_before: set[str] = set()
    for path, state in read.items():
        if state is None:
            if os.path.dirname(path) not in read_before and signature(path) is not None:
                return False
        elif signature(path) != state:
            return False
        else:
            read_before.add(path)
    return True


def remembered_walk(
    discovery: Discovery,
    paths: Sequence[Path],
    errors: list[tuple[Path, str]],
    cache_home: CacheHome,
    config_file: Path | None,
    unseen: list[Path] | None = None,
) -> Iterator[Candidate]:
    """Walk `paths`, or reuse the files the last identical walk found when nothing it
    read has changed since (see WalkMemo); yield each file as it is found."""
    if not paths or not all(map(os.path.isdir, paths)):
        yield from discovery.discover(paths, errors, unseen)  # only walks of folders are kept
        return
    try:
        folder = cache_home(discovery.config_for(paths[0]), paths[0])
    except ConfigError:  # a broken config is reported by the walk itself
        yield from discovery.discover(paths, errors, unseen)
        return
    settings = sorted(discovery.overrides.items(), key=lambda item: item[0])
    given = os.path.abspath(config_file) if config_file is not None else None
    fingerprint = repr(
        (
            [os.path.abspath(p) for p in paths],
            settings,
            given,
            discovery.force_exclude,
            os.getcwd(),
            sorted(discovery.tracked),
        )
    )
    memo = WalkMemo.at(folder, fingerprint)
    loaded = memo.load()
    if loaded is not None:
        read, found = loaded
        if _unchanged(read):
            # Thousands of files share a few languages and configs: each is looked up once.
            languages: dict[object, Language] = {}
            configs: dict[object, Config] = {}

            def language_of(name: object) -> Language:
                if name not in languages:
                    languages[name] = Language(str(name))
                return languages[name]

            def config_of(key: object) -> Config:
                if key not in configs:
                    configs[key] = discovery.config_by_key(None if key is None else str(key))
                return configs[key]

            try:
                remembered = [
                    Candidate(Path(str(path)), language_of(language), config_of(key), str(module))
                    for path, language, key, module in found
                ]
            except (TypeError, ValueError, ConfigError):
                pass  # a malformed memo, or a config that now fails: walk afresh
            else:
                yield from remembered
                return
    candidates = []
    warned = _Warned()
    walk_log.addHandler(warned)
    try:
        for candidate in discovery.discover(paths, errors, unseen):
            candidates.append(candidate)
            yield candidate
    finally:
        walk_log.removeHandler(warned)
    # A walk that warned (an invalid .gitignore pattern, say) is walked again next time
    # rather than remembered: reusing it would drop the warning.
    if not errors and not warned.count:
        found = [
            (str(c.path), str(c.language), discovery.config_key(c.config), c.module_name)
            for c in candidates
        ]
        memo.save(dict(discovery.read), found)
