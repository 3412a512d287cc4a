"""Discovery, reading, caching and parallel checking of a whole run of files.

Files are checked in two passes. The first finds, besides findings, the names of
unique-name helpers each file defines; when a helper with an unknown name turns up, the
second pass re-checks the files that mention it so its call sites are reported too.
"""

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import field, replace
from functools import partial
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING

from lintgv.cache import FileState, ResultCache, digest_of, names_key, stat_key
from lintgv.collector import spare_the_collector
from lintgv.discovery import Candidate, Discovery
from lintgv.helper_index import HelperIndex, SecondPass
from lintgv.model import FileError, FileResult, ProjectFacts, SourceFile
from lintgv.reading import read_source
from lintgv.records import frozen
from lintgv.remembered import CacheHome, remembered_walk

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

# Below this many files, starting worker processes costs more than it saves.
_PARALLEL_THRESHOLD = 40
# The files a worker is handed at once. Each hand-over costs the parent about half a
# millisecond (a future, pipes, and its threads waking each other), which in chunks of 16
# was a twentieth of TVM v0.16's check: the walk's files go in large chunks. But files
# that need a parse cluster in a few folders of a compiler tree, so the last files go in
# small ones, and neither worker ends long after the other (the language server's index,
# which can be told to stop at any time, hands out small ones only).
_CHUNK = 128
_SMALL_CHUNK = 16
_LAST_FILES = 512


@frozen
class RunResult:
    results: tuple[FileResult, ...]
    errors: tuple[FileError, ...]
    # The files the run found, with their configs: a fix reuses them rather than walk again.
    candidates: tuple[Candidate, ...] = ()
    # The content digest of the text each result is of, where the run knows it (see
    # `run`'s `digests`): a fix reuses the result for a file still holding that text.
    digests: Mapping[Path, str] = field(default_factory=dict)
    # Folders (and paths given) the walk could not see into (Discovery.discover's
    # `unseen`): a change across files may miss a call there.
    unseen: tuple[Path, ...] = ()

    @property
    def findings_count(self) -> int:
        return sum(len(r.findings) for r in self.results)

    @property
    def all_errors(self) -> tuple[FileError, ...]:
        return self.errors + tuple(e for r in self.results for e in r.errors)


@frozen
class _Task:
    candidate: Candidate
    helper_names: frozenset[str]
    known_digest: str | None
    whole: bool
    # Whether the caller keeps the file's state and digest (a cache, or a fix that reuses
    # the result): without either, the worker neither stats nor hashes the file.
    remembered: bool = True
    thin_names: frozenset[str] = frozenset()


@frozen
class _Done:
    """What a worker sends back for a task. The caller pairs it with its own task: sent
    back, the candidate (its path, its whole config) would be unpickled once per file."""

    stat: FileState | None
    digest: str
    result: FileResult | None  # None: content unchanged since `known_digest`, or clean
    clean: bool = False  # checked and found clean: the caller makes its empty result

    def result_for(self, candidate: Candidate) -> FileResult | None:
        return FileResult(candidate.path) if self.clean else self.result


def _done(stat: FileState | None, digest: str, result: FileResult) -> _Done:
    """Return the answer for a checked file; most are clean, and go back as a flag."""
    if result == FileResult(result.path):
        return _Done(stat, digest, None, clean=True)
    return _Done(stat, digest, result)


def _work(task: _Task) -> _Done:
    candidate = task.candidate
    stat = stat_key(candidate.path) if task.remembered else None
    loaded = read_source(candidate.path, candidate.config.max_file_size)
    if isinstance(loaded, FileError):
        return _Done(None, "", FileResult(candidate.path, errors=(loaded,)))
    digest = digest_of(loaded.data) if task.remembered else ""
    if digest == task.known_digest:
        return _Done(stat, digest, None)
    from lintgv.engine import check  # imported on first use: see lintgv/__init__.py

    source = SourceFile(candidate.path, candidate.language, loaded.text, candidate.module_name)
    result = check(
        source,
        candidate.config,
        ProjectFacts(task.helper_names, task.thin_names),
        whole=task.whole,
    )
    return _done(stat, digest, result)


def _mentions(task: _Task) -> _Done:
    """Re-check a file only if it mentions one of the helper names, or both the class
    and the name of a thin wrapper (which it may declare)."""
    loaded = read_source(task.candidate.path, task.candidate.config.max_file_size)
    if isinstance(loaded, FileError):
        return _Done(None, "", None)
    if not SecondPass.mentioned(loaded.text, task.helper_names, task.thin_names):
        return _Done(None, "", None)
    return _work(replace(task, known_digest=None))


class _Pool:
    """The worker processes of one run, shared by its two passes. They are forked as soon
    as the run has enough files to share out (during the walk, not after it), from a
    parent that has just loaded the engine: each inherits it, and only what else the
    parent held at that moment, not the walk's and the first pass's results."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self._executor: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Fork the workers now, unless the run is to stay in this process."""
        if self._executor is not None or self.jobs <= 1:
            return
        # The engine is loaded once, here, for every worker to inherit: the rules and
        # tree-sitter, which each worker would otherwise load again. Not libcst: a worker
        # imports it when a file first needs a libcst parse, which most files with a
        # trigger no longer do (the shape gate, GV301 and GV302 read CPython's parse):
        # mlc-llm's check needs none, and imported it in this process for nothing, a
        # seventh of a second before any file was checked. TVM v0.16's workers each
        # import it, side by side. The pool is imported here too: a warm run never
        # starts workers and need not load multiprocessing.
        import lintgv.engine  # noqa: F401
        from lintgv.allocator import keep_mapping_large_blocks
        from lintgv.worker_pool import worker_pool

        # Kept here, a forked worker inherits it with ctypes loaded (and its own call is
        # then a cached no-op); a worker started anew (spawn, forkserver) keeps it itself.
        keep_mapping_large_blocks()
        self._executor = worker_pool(self.jobs, initializer=keep_mapping_large_blocks)
        self._executor.submit(int)  # with fork, the first task forks every worker

    def map(self, function: Callable[[_Task], _Done], tasks: Iterable[_Task]) -> Iterator[_Done]:
        """Yield the result of each task, in order, as it is done. Tasks are handed out
        in chunks (see _chunks) while `tasks` yields them (while the walk goes on), but
        the first result comes only once `tasks` is exhausted, so a progress bar knows
        the total."""
        pending = iter(tasks)
        first = list(islice(pending, _PARALLEL_THRESHOLD))
        if self.jobs <= 1 or len(first) < _PARALLEL_THRESHOLD:
            every = [*first, *pending]
            yield from (function(t) for t in every)
            return
        self.start()
        assert self._executor is not None
        chunks = _chunks(chain(first, pending), self.jobs)
        for done in self._executor.map(partial(_each, function), chunks):
            yield from done

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)


def _chunks(tasks: Iterable[_Task], jobs: int) -> Iterator[list[_Task]]:
    """Cut `tasks` into the lists workers are handed (see _CHUNK): a chunk of
    _SMALL_CHUNK for each of the `jobs` workers as soon as it is found (a run with few
    files to check, a warm one, would else have its workers wait for the end of the
    walk), chunks of _CHUNK while more than _LAST_FILES remain, then chunks of
    _SMALL_CHUNK."""
    pending: deque[_Task] = deque()
    starts = jobs
    for task in tasks:
        pending.append(task)
        if starts and len(pending) == _SMALL_CHUNK:
            starts -= 1
            yield [pending.popleft() for _ in range(_SMALL_CHUNK)]
        elif len(pending) == _LAST_FILES + _CHUNK:
            yield [pending.popleft() for _ in range(_CHUNK)]
    while pending:
        yield [pending.popleft() for _ in range(min(_SMALL_CHUNK, len(pending)))]


def _each(function: Callable[[_Task], _Done], tasks: list[_Task]) -> list[_Done]:
    """Do `function` for each of a worker's `tasks`."""
    return [function(task) for task in tasks]


class Workers:
    """Worker processes that check files for a caller with threads of its own (the
    language server). Each starts as a new interpreter, not a fork (a fork copies
    whatever lock another thread holds at that moment), at a lower priority so that the
    caller's own work (an editor's open documents) comes first."""

    def __init__(self, jobs: int) -> None:
        import multiprocessing

        from lintgv.worker_pool import worker_pool

        self.jobs = jobs
        self._pool = worker_pool(jobs, multiprocessing.get_context("spawn"), _start_worker)

    def check(
        self, candidates: Sequence[Candidate]
    ) -> Generator[tuple[Candidate, FileState | None, FileResult], None, None]:
        """Check `candidates` (a first pass: no helper names) and yield each one's file
        state and result, in order, as it is done."""
        tasks = [_Task(c, frozenset(), None, False) for c in candidates]
        chunk = max(1, min(_SMALL_CHUNK, len(tasks) // (self.jobs * 8)))
        for task, done in zip(tasks, self._pool.map(_work, tasks, chunksize=chunk), strict=True):
            result = done.result_for(task.candidate)
            assert result is not None  # no digest was known, so it was checked
            yield task.candidate, done.stat, result

    def close(self) -> None:
        """Stop: drop the work not yet started, without waiting for the rest."""
        self._pool.shutdown(wait=False, cancel_futures=True)


def _start_worker() -> None:
    # The caller's standard streams may be its protocol (a language server's stdio): a
    # worker must neither write to them nor keep them open once the caller is gone.
    devnull = os.open(os.devnull, os.O_RDWR)
    for stream in (0, 1, 2):
        os.dup2(devnull, stream)
    os.close(devnull)
    os.nice(10)
    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    import lintgv.engine  # noqa: F401  # loaded by each worker once, before its first file
    from lintgv.allocator import keep_mapping_large_blocks

    keep_mapping_large_blocks()
    spare_the_collector()  # a spawned interpreter: nothing it inherits is tuned


def _exit_with(parent: int) -> None:
    """End this worker when its parent has ended without stopping it (an orphan would
    otherwise wait for work forever)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


# (stage, done, in all): what a progress bar is told.
Progress = Callable[[str, int, int], None]


def run(
    paths: Sequence[Path],
    overrides: Mapping[str, object],
    *,
    config_file: Path | None = None,
    use_cache: bool = True,
    cache_dir: Path | None = None,
    jobs: int | None = None,
    whole: bool = False,
    force_exclude: bool = False,
    progress: Progress | None = None,
    digests: bool = False,
    tracked: frozenset[str] = frozenset(),
) -> RunResult:
    """Check every file under `paths` and return all results, sorted by path.

    `force_exclude` applies the excludes to files named in `paths` too; `progress` is
    told (stage, files done, files in all) as files are checked; `digests` has the
    content digest of every file checked kept in the result, as the cache keeps it;
    `tracked` names (by real path) files git tracks, which no ignore file hides.
    """
    discovery = Discovery(overrides, config_file, force_exclude=force_exclude, tracked=tracked)
    discovery_errors: list[tuple[Path, str]] = []
    unseen: list[Path] = []
    cache_home = CacheHome(paths, cache_dir, discovery)
    if use_cache:
        walk = remembered_walk(discovery, paths, discovery_errors, cache_home, config_file, unseen)
    else:
        walk = discovery.discover(paths, discovery_errors, unseen)
    pool = _Pool(jobs or os.cpu_count() or 1)
    try:
        remembered = use_cache or digests
        result = _checked(
            walk, discovery_errors, pool, use_cache, cache_home, whole, progress, remembered
        )
    finally:
        pool.close()
    return replace(result, unseen=tuple(unseen))


def _checked(
    walk: Iterable[Candidate],
    discovery_errors: list[tuple[Path, str]],
    pool: _Pool,
    use_cache: bool,
    cache_home: CacheHome,
    whole: bool,
    progress: Progress | None,
    remembered: bool,
) -> RunResult:
    """Check the files `walk` finds, with `pool`; see `run`."""
    caches: dict[str, ResultCache] = {}
    # A file's cache depends only on its config and its folder: a warm run asks once per
    # folder, not once per file. The walk holds every config, so their ids stay theirs.
    by_folder: dict[tuple[int, str], ResultCache] = {}

    def cache_for(candidate: Candidate) -> ResultCache | None:
        if not use_cache:
            return None
        # With --cache-dir, or a config file found above, the folder does not matter.
        anywhere = cache_home.cache_dir is not None or (
            candidate.config.source is not None and cache_home.discovery.fixed is None
        )
        place = (id(candidate.config), "" if anywhere else os.path.dirname(candidate.path))
        known = by_folder.get(place)
        if known is not None:
            return known
        fingerprint = candidate.config.fingerprint + f"\nwhole={whole}"
        folder = cache_home(candidate.config, candidate.path)
        key = f"{folder}\n{fingerprint}"
        if key not in caches:
            caches[key] = ResultCache.open(folder, fingerprint)
        by_folder[place] = caches[key]
        return caches[key]

    results: dict[Path, FileResult] = {}
    digests: dict[Path, str] = {}
    stats: dict[Path, FileState] = {}  # of the files a cache keeps
    tasks: list[_Task] = []
    candidates: list[Candidate] = []

    def walked() -> Iterator[_Task]:
        """Yield each file the cache cannot answer for, as the walk finds it."""
        for candidate in walk:
            candidates.append(candidate)
            cache = cache_for(candidate)
            module = candidate.module_name
            stat = stat_key(candidate.path) if cache else None
            hit = cache.hit(candidate.path, stat, module) if cache and stat else None
            if hit is not None and stat is not None:
                results[candidate.path], digests[candidate.path] = hit
                stats[candidate.path] = stat
            else:
                entry = cache.entry(candidate.path, module) if cache else None
                known = entry.digest if entry is not None else None
                tasks.append(_Task(candidate, frozenset(), known, whole, remembered))
                yield tasks[-1]

    for count, done in enumerate(pool.map(_work, walked()), 1):
        if progress is not None:
            progress("checking", count, len(tasks))
        candidate = tasks[count - 1].candidate  # results come in the order of the tasks
        path = candidate.path
        cache = cache_for(candidate)
        module = candidate.module_name
        result = done.result_for(candidate)
        previous = cache.entry(path, module) if cache is not None and result is None else None
        if previous is not None:
            results[path] = previous.result
        elif result is not None:
            results[path] = result
        if done.digest:
            digests[path] = done.digest
        if cache is not None and done.stat is not None and done.digest:
            cache.put(path, done.stat, done.digest, results[path], module)
            stats[path] = done.stat

    index = HelperIndex()
    index.replace(results)
    second_pass = SecondPass.of(index)
    if second_pass:
        second: list[_Task] = []
        looked_for: dict[Path, str] = {}  # the names key of each file's task
        keys: dict[frozenset[str], str] = {}
        for candidate in candidates:
            names = second_pass.names_for(results[candidate.path])
            if names is None:
                continue
            helpers, thin = names
            if thin not in keys:  # the same names for every file: one key each way
                keys[thin] = names_key(helpers, thin)
            key = keys[thin]
            # A warm run knows what this pass made of an unchanged file, under the same
            # names: it neither reads the file again nor starts workers for it.
            cache, stat = cache_for(candidate), stats.get(candidate.path)
            kept = (
                cache.second_pass(candidate.path, stat, candidate.module_name, key)
                if cache is not None and stat is not None
                else None
            )
            if kept is not None:
                digest, result = kept
                if result is not None:
                    results[candidate.path], digests[candidate.path] = result, digest
                continue
            second.append(_Task(candidate, helpers, None, whole, remembered, thin))
            looked_for[candidate.path] = key
        for count, done in enumerate(pool.map(_mentions, second), 1):
            if progress is not None:
                progress("calls of helpers found", count, len(second))
            candidate = second[count - 1].candidate
            path = candidate.path
            result = done.result_for(candidate)
            if result is not None:
                results[path] = result
                digests[path] = done.digest
            cache, stat = cache_for(candidate), stats.get(path)
            if cache is not None and stat is not None:
                module = candidate.module_name
                cache.put_second(path, stat, module, looked_for[path], done.digest, result)
    for cache in caches.values():
        cache.save()
    errors = tuple(FileError(path, message) for path, message in discovery_errors)
    ordered = tuple(results[c.path] for c in sorted(candidates, key=lambda c: c.path.as_posix()))
    return RunResult(ordered, errors, tuple(candidates), digests)
