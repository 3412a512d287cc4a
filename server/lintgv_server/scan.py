"""A scan of every workspace folder, file by file, so that it can report progress and
stop between two files when cancelled: open documents on the lint thread, and many
closed files at once in `lintgv check`'s worker processes.

It walks with the core's Discovery and checks with the core's engine, in the two passes
`lintgv check` makes, choosing the files and names of the second as it does (SecondPass:
calls of unique-name helpers defined elsewhere, findings thin wrappers clear).
The first pass alone builds the helper index, in the background when a session starts;
saved and watched files update it one at a time. Results are kept in memory per file state: a
second scan re-checks only what changed.
"""

import asyncio
import functools
import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from lsprotocol import types

from lintgv.cache import stat_key
from lintgv.checking import Workers
from lintgv.config import apply_settings
from lintgv.discovery import Candidate
from lintgv.engine import check
from lintgv.errors import ConfigError
from lintgv.helper_index import SecondPass
from lintgv.lines import LineIndex
from lintgv.model import FileError, FileResult, ProjectFacts, SourceFile
from lintgv.reading import read_source
from lintgv.registry import select
from lintgv_server.progress import Progress
from lintgv_server.scan_cache import ScanCache, ScanKey, Scanned
from lintgv_server.state import LintgvServer

log = logging.getLogger(__name__)

Report = Callable[[str, int], None]  # message, percentage
IsCancelled = Callable[[], bool]
# The unique-name helpers and thin wrappers a check is given: none in the first pass.
Names = tuple[frozenset[str], frozenset[str]]
FIRST: Names = (frozenset(), frozenset())
# The lines kept of a file without diagnostics: none are needed.
_NO_LINES = LineIndex("")


def _targets(ls: LintgvServer, errors: list[str]) -> list[Candidate]:
    """Return every file of the workspace folders that lintgv checks."""
    found: dict[Path, Candidate] = {}
    for folder in ls.folders():
        for candidate in folder_targets(ls, folder, errors):
            found.setdefault(candidate.path, candidate)
    return sorted(found.values(), key=lambda t: t.path.as_posix())


def folder_targets(
    ls: LintgvServer,
    folder: Path,
    errors: list[str],
    unseen: list[Path] | None = None,
    *,
    enabled_only: bool = True,
) -> Iterator[Candidate]:
    """Yield every file under `folder` that lintgv checks, with the config a diagnostic
    of it uses: its config file with the editor's settings laid over it. Folders and
    configs that cannot be read go to `errors`, and to `unseen` what may hide files the
    walk could not see (see Discovery.discover; a file whose config cannot be made too).
    `enabled_only` leaves out the files of folders whose settings disable lintgv."""
    walk_errors: list[tuple[Path, str]] = []
    hidden = unseen if unseen is not None else []
    for candidate in ls.discovery.discover([folder], walk_errors, hidden):
        # The walk knows the language and module (client settings change neither).
        try:
            config = ls.config_for(candidate.path)
        except ConfigError as exc:
            errors.append(str(exc))
            hidden.append(candidate.path)
            continue
        if not enabled_only or ls.settings_for(candidate.path).enable:
            yield replace(candidate, config=config)
    errors.extend(f"{path}: {why}" for path, why in walk_errors)


def _check_file(
    ls: LintgvServer,
    target: Candidate,
    names: Names,
    cache: ScanCache,
    remember: bool = True,
) -> Scanned | None:
    """Check one file with the helper and thin-wrapper `names` of a pass, from the
    editor's buffer when it is open, else from disk; keep the result in `cache` unless
    told not to (a check with fewer rules). None: a second pass (names given) has nothing
    to look for in it, and its first check stands."""
    helpers, thin = names
    document = ls.current_document(target.path.as_uri())
    state = None if document is not None else stat_key(target.path)
    key = ScanKey.of(target, helpers, state, thin)
    known = cache.get(target.path, key)
    if known is not None:
        return known
    if document is not None:
        text = document.source
    else:
        loaded = read_source(target.path, target.config.max_file_size)
        if isinstance(loaded, FileError):
            return Scanned(target.path, FileResult(target.path, errors=(loaded,)), _NO_LINES)
        text = loaded.text
    if (helpers or thin) and not SecondPass.mentioned(text, helpers, thin):
        return None
    result = check(
        SourceFile(target.path, target.language, text, target.module_name),
        target.config,
        ProjectFacts(helpers, thin),
    )
    scanned = Scanned(target.path, result, _index_of(text, result))
    if remember:
        cache.put(key, scanned)
    return scanned


async def index_workspace(
    ls: LintgvServer,
    cache: ScanCache,
    report: Report,
    is_cancelled: IsCancelled,
    *,
    helpers_only: bool = False,
) -> tuple[list[Candidate], dict[Path, Scanned]] | None:
    """Check every file of the workspace once, and record the unique-name helpers each
    defines in the server's index; return the files and results, or None when cancelled
    (the index then keeps what it had). With `helpers_only`, each file is checked with
    the rules that learn its helpers and thin wrappers (see _finding_helpers), unless a
    full result of it is kept: the results then hold only those rules' findings, and are
    not kept."""
    errors: list[str] = []
    targets = await ls.run_on_lint_thread(lambda: _targets(ls, errors))
    for error in errors:
        ls.log_message(error, types.MessageType.Warning)
    results: dict[Path, Scanned] = {}
    checked = targets
    if helpers_only:
        for target in targets:
            kept = _kept(ls, target, cache)
            if kept is not None:
                results[target.path] = kept
        checked = [
            narrowed
            for t in targets
            if t.path not in results and (narrowed := _finding_helpers(ls, t)) is not None
        ]
    remember = not helpers_only
    rest = checked
    closed = [t for t in checked if _needs_check(ls, t, cache)]
    if WORKERS > 1 and len(closed) >= WORKERS_FROM:
        workers = Workers(WORKERS)
        try:
            ran = await _in_workers(workers, closed, cache, results, report, is_cancelled, remember)
        finally:
            workers.close()
        if not ran:
            return None
        rest = [t for t in checked if t.path not in results]
    first = [(t, FIRST) for t in rest]
    if not await _pass(ls, first, cache, results, report, is_cancelled, remember):
        return None
    ls.helper_index.replace({p: s.result for p, s in results.items()})
    return targets, results


# A first pass over this many unchecked closed files runs in worker processes, one a core:
# the lint thread stays free for the open documents.
WORKERS_FROM = 200
WORKERS = os.cpu_count() or 1


def _kept(ls: LintgvServer, target: Candidate, cache: ScanCache) -> Scanned | None:
    """Return the full first-pass result a scan kept of a closed file, if still current."""
    if ls.current_document(target.path.as_uri()) is not None:
        return None
    return cache.get(target.path, ScanKey.of(target, frozenset(), stat_key(target.path)))


def _finding_helpers(ls: LintgvServer, target: Candidate) -> Candidate | None:
    """Return `target` checked by the fewest rules that learn what a whole check learns of
    it: the first its config enables that finds unique-name helpers, and the first that
    notes thin wrappers (GV201 does both); None when its config enables neither."""
    config = target.config
    narrowed = ls.helper_configs.get(id(config))
    if narrowed is None or narrowed[0] is not config:
        rules = select(config)
        helpers = [r.META.code for r in rules if r.META.finds_helpers]
        thin = [r.META.code for r in rules if r.META.finds_thin_wrappers]
        enabled = sorted({*helpers[:1], *thin[:1]})
        only = apply_settings(config, {"select": enabled}, None) if enabled else None
        narrowed = ls.helper_configs[id(config)] = (config, only)
    return replace(target, config=narrowed[1]) if narrowed[1] is not None else None


def _needs_check(ls: LintgvServer, target: Candidate, cache: ScanCache) -> bool:
    """Tell whether `target` is a closed file a first pass has no current result for."""
    if ls.current_document(target.path.as_uri()) is not None:
        return False
    return cache.get(target.path, ScanKey.of(target, frozenset(), stat_key(target.path))) is None


async def _in_workers(
    workers: Workers,
    targets: list[Candidate],
    cache: ScanCache,
    results: dict[Path, Scanned],
    report: Report,
    is_cancelled: IsCancelled,
    remember: bool,
) -> bool:
    """Check closed files in worker processes (lintgv check's own), from a thread that
    waits on them, keeping the results in `cache` if told to; tell whether it ran to
    the end."""
    loop = asyncio.get_running_loop()
    step = max(1, len(targets) // 50)

    def work() -> bool:
        for index, (candidate, stat, result) in enumerate(workers.check(targets)):
            if is_cancelled():
                return False
            lines = _read_index(candidate, result) if remember else _NO_LINES
            scanned = Scanned(candidate.path, result, lines)
            if remember:
                cache.put(ScanKey.of(candidate, frozenset(), stat), scanned)
            results[candidate.path] = scanned
            if index % step == 0:
                message = f"checking {index + 1}/{len(targets)} files"
                loop.call_soon_threadsafe(report, message, 100 * index // len(targets))
        return True

    return await asyncio.to_thread(work)


def _index_of(text: str, result: FileResult) -> LineIndex:
    """The lines of a file with diagnostics (their positions are converted with them)."""
    return LineIndex(text) if result.findings or result.errors else _NO_LINES


def _read_index(target: Candidate, result: FileResult) -> LineIndex:
    """The lines of a checked file with diagnostics, read again within its max-file-size
    (a file a worker could not read gets none: its error is placed on line 1)."""
    if not result.findings and not result.errors:
        return _NO_LINES
    loaded = read_source(target.path, target.config.max_file_size)
    return _NO_LINES if isinstance(loaded, FileError) else _index_of(loaded.text, result)


async def scan(
    ls: LintgvServer,
    cache: ScanCache,
    report: Report,
    is_cancelled: IsCancelled,
) -> dict[Path, Scanned] | None:
    """Check every file of the workspace; return None when cancelled."""
    indexed = await index_workspace(ls, cache, report, is_cancelled)
    if indexed is None:
        return None
    targets, results = indexed
    second_pass = SecondPass.of(ls.helper_index)
    again = [
        (t, names)
        for t in targets
        if t.path in results
        and (names := second_pass.names_for(results[t.path].result)) is not None
    ]
    if again:
        second: dict[Path, Scanned] = {}
        if not await _pass(ls, again, cache, second, report, is_cancelled):
            return None
        # A second check that finds nothing replaces the first too: knowing a thin
        # wrapper clears the findings about its name.
        results.update(second)
    return results


async def index_in_background(ls: LintgvServer) -> None:
    """Build the helper index when a session starts, with progress the person can
    cancel; open documents are checked again if it finds helpers."""
    progress = Progress(ls, None)
    await progress.begin("lintgv: indexing the workspace")
    indexed = None
    try:
        indexed = await index_workspace(
            ls, ls.scan_cache, progress.report, progress.is_cancelled, helpers_only=True
        )
    finally:
        found = len(ls.helper_names)
        progress.end(
            "cancelled" if indexed is None else f"{found} unique-name helper{'s' * (found != 1)}"
        )


async def reindex(ls: LintgvServer, changed: list[Path], deleted: list[Path]) -> bool:
    """Bring the index up to date for files saved, changed on disk or deleted; tell
    whether the helpers it knows changed."""
    moved = False
    for path in deleted:
        moved = ls.helper_index.forget(path) or moved
    for path in changed:
        document = ls.current_document(path.as_uri())
        if document is not None:
            # An open document (a save): the editor's check of this version knows it.
            result = (await ls.analyse(document)).result
        else:
            try:
                target = ls.target_for(path)
            except ConfigError:
                continue  # its config is reported where it is used
            if target is None:
                continue
            work = functools.partial(_check_file, ls, target, FIRST, ls.scan_cache)
            scanned = await ls.run_on_lint_thread(work)
            assert scanned is not None  # a first check (no helpers) always checks
            result = scanned.result
        moved = ls.helper_index.record(path, result) or moved
    return moved


async def _pass(
    ls: LintgvServer,
    targets: list[tuple[Candidate, Names]],
    cache: ScanCache,
    results: dict[Path, Scanned],
    report: Report,
    is_cancelled: IsCancelled,
    remember: bool = True,
) -> bool:
    """Check each target with its names on the lint thread, keeping what it finds in
    `results`; tell whether it ran to the end."""
    step = max(1, len(targets) // 50)
    stage = "checking" if all(names == FIRST for _, names in targets) else "helper calls"
    for index, (target, names) in enumerate(targets):
        if is_cancelled():
            return False
        work = functools.partial(_check_file, ls, target, names, cache, remember)
        scanned = await ls.run_on_lint_thread(work)
        if scanned is not None:
            results[target.path] = scanned
        if index % step == 0:
            report(f"{stage} {index + 1}/{len(targets)} files", 100 * index // len(targets))
    return True
