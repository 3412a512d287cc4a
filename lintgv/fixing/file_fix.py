"""One file of `lintgv fix` (fixing/run.py): the task that reads and settles it in a worker
process, the pool that runs the tasks, the atomic write of what came back, and the record
of what fixing did to it (FileFix).

Apart from the run's orchestration because a task, its result and the function that
runs it cross into worker processes (pickled by module and name), and because the run
and its supply stage (fixing/supply_stage.py) both keep their records of files here.
"""

import logging
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, as_completed
from dataclasses import replace
from pathlib import Path

from lintgv.checking import Progress
from lintgv.discovery import Candidate
from lintgv.fixing.files import (
    ChangedOnDisk,
    NotWritable,
    StoredText,
    Tree,
    digest_of,
    interrupts_deferred,
    stored_text,
    write_atomically,
)
from lintgv.fixing.groups import Workspace
from lintgv.fixing.settle import Rejected, settle
from lintgv.model import FileError, FileResult, Finding, Language, ProjectFacts, SourceFile
from lintgv.reading import read_source
from lintgv.records import frozen
from lintgv.worker_pool import worker_pool

log = logging.getLogger(__name__)

# Below this many files to fix, worker processes cost more than they save.
_PARALLEL_THRESHOLD = 16


@frozen
class FileFix:
    """What fixing did to one file."""

    path: Path
    before: str  # as stored (own line ends), for diffs
    after: str
    applied: tuple[Finding, ...] = ()
    rejected: tuple[Rejected, ...] = ()
    remaining: tuple[Finding, ...] = ()  # findings of `after`
    initial: tuple[Finding, ...] = ()  # findings of `before`
    errors: tuple[FileError, ...] = ()
    written: bool = False

    @property
    def changed(self) -> bool:
        return self.before != self.after

    @property
    def left(self) -> tuple[Finding, ...]:
        """Return the findings the file holds once the run is over."""
        return self.remaining if self.written or not self.changed else self.initial


@frozen
class SettleTask:
    candidate: Candidate
    helper_names: frozenset[str]
    unsafe: bool
    max_rounds: int
    # The first pass's check of the file and the digest of what it checked: reused when
    # the file still holds that (a file of thousands of sites is not checked again). Its
    # partial parse gives the same findings and fixes as a whole one (tests/
    # test_one_analysis.py), and every round after it is proved on a whole parse.
    checked: FileResult | None = None
    checked_digest: str = ""


@frozen
class SettledFile:
    path: Path
    text: str  # the settled text, with \n line ends
    stored: StoredText | None
    digest: str
    fix: FileFix


def settle_file(task: SettleTask) -> SettledFile:
    """Read one file and settle its fixes (runs in a worker process)."""
    try:
        return _settle_one(task)
    except Exception as exc:  # one file's failure must not stop the others
        log.debug("fixing %s failed", task.candidate.path, exc_info=True)
        error = FileError(task.candidate.path, f"could not be fixed: {type(exc).__name__}: {exc}")
        return SettledFile(
            task.candidate.path, "", None, "", FileFix(task.candidate.path, "", "", errors=(error,))
        )


def _settle_one(task: SettleTask) -> SettledFile:
    from lintgv.engine import check  # imported on first use: see lintgv/__init__.py
    from lintgv.parsing.python import python_error

    candidate = task.candidate
    loaded = read_source(candidate.path, candidate.config.max_file_size)
    if isinstance(loaded, FileError):
        fix = FileFix(candidate.path, "", "", errors=(loaded,))
        return SettledFile(candidate.path, "", None, "", fix)
    stored = stored_text(loaded.text, loaded.data)
    digest = digest_of(loaded.data)
    # The first pass checked the text as read; a settle of CRLF or CR-only text checks
    # it with \n. Its partial parse does not see a syntax error outside the lines it
    # kept, which the whole one reports (and then offers no fix): CPython's parse, far
    # cheaper, tells.
    same = (
        task.checked_digest == digest
        and stored.text == loaded.text
        and (candidate.language != Language.PYTHON or python_error(loaded.text) is None)
    )

    def checker(text: str) -> FileResult:
        source = SourceFile(candidate.path, candidate.language, text, candidate.module_name)
        return check(
            source,
            candidate.config,
            ProjectFacts(task.helper_names),
            whole=True,
        )

    settled = settle(
        stored.text,
        candidate.language,
        checker,
        unsafe=task.unsafe,
        max_rounds=task.max_rounds,
        checked=task.checked if same else None,
    )
    errors = settled.result.errors
    after = settled.text
    if not settled.stable:
        message = f"fixes did not settle after {task.max_rounds} rounds; not written"
        errors = (*errors, FileError(candidate.path, message))
        after = stored.text
    fix = FileFix(
        candidate.path,
        stored.stored(stored.text),
        stored.stored(after),
        settled.applied if settled.stable else (),
        settled.rejected,
        settled.result.findings if settled.stable else settled.initial.findings,
        settled.initial.findings,
        tuple(errors),
    )
    return SettledFile(candidate.path, after, stored, digest, fix)


def settle_files(
    tasks: Sequence[SettleTask], jobs: int, progress: Progress | None
) -> Iterable[SettledFile]:
    """Yield the settled files as they finish, in parallel when there are many."""
    if jobs <= 1 or len(tasks) < _PARALLEL_THRESHOLD:
        for done, task in enumerate(tasks, 1):
            yield settle_file(task)
            if progress is not None:
                progress("fixing", done, len(tasks))
        return
    pool = worker_pool(jobs)
    try:
        futures: list[Future[SettledFile]] = [pool.submit(settle_file, t) for t in tasks]
        for done, future in enumerate(as_completed(futures), 1):
            yield future.result()
            if progress is not None:
                progress("fixing", done, len(tasks))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def write_settled(settled: SettledFile, tree: Tree) -> FileFix:
    """Write one settled file atomically; return its record with the outcome."""
    fix = settled.fix
    if settled.stored is None or not fix.changed:
        return fix
    data = settled.stored.encode(settled.text)
    try:
        with interrupts_deferred():
            write_atomically(fix.path, data, settled.digest, tree)
    except (ChangedOnDisk, NotWritable, OSError) as exc:
        kept = isinstance(exc, ChangedOnDisk | NotWritable)
        reason = str(exc) if kept else f"cannot be written: {exc}"
        error = FileError(fix.path, reason)
        return replace(fix, errors=(*fix.errors, error), written=False)
    return replace(fix, written=True)


def after_group(
    fix: FileFix | None,
    path: Path,
    workspace: Workspace,
    candidate: Candidate,
    helpers: frozenset[str],
    write: bool,
    thin: frozenset[str] = frozenset(),
) -> FileFix:
    """Return the record of a file a multi-file change touched, checked again (with the
    thin wrappers `thin` the run's changes made)."""
    from lintgv.engine import check

    text = workspace.read(path) or ""
    result = check(
        SourceFile(path, candidate.language, text, candidate.module_name),
        candidate.config,
        ProjectFacts(helpers, thin),
    )
    after = workspace.current(path)
    if fix is None:
        return FileFix(
            path, workspace.original(path), after, remaining=result.findings, written=write
        )
    return replace(fix, after=after, remaining=result.findings, written=write or fix.written)
