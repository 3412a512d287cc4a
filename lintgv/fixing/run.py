"""`lintgv fix` without the printing: check every file, settle the ones with fixes, and
write each result atomically (or only report it, for `--diff`).

The first pass is an ordinary cached `check`; only files that hold a finding of a rule
with fixes are read again, parsed whole (fixes need the full scope) and settled.
"""

import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from lintgv.codemods.unique_names import HELPER_NAMES, Skipped
from lintgv.config import Config
from lintgv.discovery import Candidate, Discovery
from lintgv.fixing import MAX_ROUNDS
from lintgv.fixing.across import copy_files, copy_names, fixes_unique_names
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
from lintgv.fixing.groups import GroupFix, Workspace, apply_change, fix_groups
from lintgv.fixing.proof import NameProof
from lintgv.fixing.python_calls import Parses
from lintgv.fixing.settle import Rejected, settle
from lintgv.fixing.thread_edits import NOTHING_IN_SCOPE, Site, excluded_files
from lintgv.fixing.threading import plan_threading
from lintgv.fixing.threading_python import plan_python_threading
from lintgv.model import Applicability, FileError, FileResult, Finding, Language, SourceFile
from lintgv.paths import display_path, project_root_of
from lintgv.reading import read_source
from lintgv.registry import rule_codes
from lintgv.runner import run

log = logging.getLogger(__name__)
_HEADERS = frozenset({".h", ".hpp", ".hh", ".cuh", ".hxx"})

# Below this many files to fix, worker processes cost more than they save.
_PARALLEL_THRESHOLD = 16

Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class FixRun:
    fixes: tuple[FileFix, ...]  # files that were settled or changed, by path
    untouched: tuple[FileResult, ...]  # files with findings or errors that had nothing to fix
    errors: tuple[FileError, ...]  # paths that could not be walked
    checked: int
    write: bool
    groups: tuple[GroupFix, ...] = ()  # changes across files (unique-name copies)
    groups_left: tuple[Skipped, ...] = ()  # copies no change was planned for, and why

    @property
    def remaining(self) -> list[Finding]:
        found = [f for fix in self.fixes for f in fix.left]
        return found + [f for r in self.untouched for f in r.findings]

    @property
    def all_errors(self) -> list[FileError]:
        found = list(self.errors) + [e for fix in self.fixes for e in fix.errors]
        return found + [e for r in self.untouched for e in r.errors]


@dataclass(frozen=True)
class _Task:
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


@dataclass(frozen=True)
class _Settled:
    path: Path
    text: str  # the settled text, with \n line ends
    stored: StoredText | None
    digest: str
    fix: FileFix


def _fixable_codes() -> frozenset[str]:
    return frozenset(
        code
        for code, rules in rule_codes().items()
        if any(r.META.fix != Applicability.NONE for r in rules)
    )


def _settle_file(task: _Task) -> _Settled:
    """Read one file and settle its fixes (runs in a worker process)."""
    try:
        return _settle_one(task)
    except Exception as exc:  # one file's failure must not stop the others
        log.debug("fixing %s failed", task.candidate.path, exc_info=True)
        error = FileError(task.candidate.path, f"could not be fixed: {type(exc).__name__}: {exc}")
        return _Settled(
            task.candidate.path, "", None, "", FileFix(task.candidate.path, "", "", errors=(error,))
        )


def _settle_one(task: _Task) -> _Settled:
    from lintgv.engine import check  # imported on first use: see lintgv/__init__.py

    candidate = task.candidate
    loaded = read_source(candidate.path, candidate.config.max_file_size)
    if isinstance(loaded, FileError):
        fix = FileFix(candidate.path, "", "", errors=(loaded,))
        return _Settled(candidate.path, "", None, "", fix)
    stored = stored_text(loaded.text, loaded.data)
    digest = digest_of(loaded.data)
    # The first pass checked the text as read; a settle of CRLF text checks it with \n.
    same = task.checked_digest == digest and stored.text == loaded.text

    def checker(text: str) -> FileResult:
        source = SourceFile(candidate.path, candidate.language, text)
        return check(
            source,
            candidate.config,
            module_name=candidate.module_name,
            helper_names=task.helper_names,
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
    return _Settled(candidate.path, after, stored, digest, fix)


def _execute(tasks: Sequence[_Task], jobs: int, progress: Progress | None) -> Iterable[_Settled]:
    """Yield the settled files as they finish, in parallel when there are many."""
    if jobs <= 1 or len(tasks) < _PARALLEL_THRESHOLD:
        for done, task in enumerate(tasks, 1):
            yield _settle_file(task)
            if progress is not None:
                progress("fixing", done, len(tasks))
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        futures: list[Future[_Settled]] = [pool.submit(_settle_file, t) for t in tasks]
        for done, future in enumerate(as_completed(futures), 1):
            yield future.result()
            if progress is not None:
                progress("fixing", done, len(tasks))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _write(settled: _Settled, tree: Tree) -> FileFix:
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


def fix_paths(
    paths: Sequence[Path],
    overrides: Mapping[str, object],
    *,
    config_file: Path | None = None,
    unsafe: bool = False,
    write: bool = True,
    use_cache: bool = True,
    cache_dir: Path | None = None,
    jobs: int | None = None,
    max_rounds: int = MAX_ROUNDS,
    progress: Progress | None = None,
    prove_names: bool = False,
    unsandboxed: bool = False,
) -> FixRun:
    """Fix every file under `paths`; see the module docstring. With `prove_names`, the C++
    unique-name copies that multi-file changes replace are run in the sandbox
    (lintgv.fixing.proof); otherwise no code of the tree runs."""
    workers = jobs or os.cpu_count() or 1
    if progress is not None:
        progress("checking", 0, 0)
    first = run(
        paths,
        overrides,
        config_file=config_file,
        use_cache=use_cache,
        cache_dir=cache_dir,
        jobs=jobs,
        digests=True,
    )
    fixable = _fixable_codes()
    wanted = {r.path for r in first.results if any(f.code in fixable for f in r.findings)}
    helpers = frozenset(name for r in first.results for name in r.defined_helpers)
    candidates = {c.path: c for c in first.candidates}
    tree = Tree.of(paths)
    # A file fix may not write is still checked (its findings stand) but never fixed, in
    # --diff mode too: what the diff shows is what a run would write.
    refused = {p: why for p in wanted if (why := tree.refusal(p)) is not None}
    by_path = {r.path: r for r in first.results}
    tasks = [
        _Task(
            candidates[path],
            helpers,
            unsafe,
            max_rounds,
            by_path[path],
            first.digests.get(path, ""),
        )
        for path in sorted(wanted & candidates.keys() - refused.keys(), key=lambda p: p.as_posix())
    ]
    workspace = Workspace(
        max(c.config.max_file_size for c in candidates.values()) if candidates else 0,
        configs={path: c.config for path, c in candidates.items()},
    )
    fixes: dict[Path, FileFix] = {}
    for settled in _execute(tasks, workers, progress):
        fix = _write(settled, tree) if write else settled.fix
        if settled.stored is None:  # not read or crashed: its first findings still stand
            known = by_path[fix.path].findings
            fix = replace(fix, remaining=known, initial=known)
        else:
            _remember(workspace, settled, fix)
        fixes[fix.path] = fix
    groups: list[GroupFix] = []
    groups_left: list[Skipped] = []
    # C++ and Python copies alike (Python ones are rewritten file by file).
    sources = list(candidates.values())
    if any(fixes_unique_names(c.config) for c in sources):
        names = copy_names(first.results, sources, helpers)
        if progress is not None:
            progress("multi-file changes", 0, 0)
        groups, groups_left = fix_groups(
            [c.path for c in sources],
            workspace,
            names,
            within=copy_files(first.results, sources),
            unsafe=unsafe,
            write=write,
            max_rounds=max_rounds,
            prove=_proof(overrides, config_file, unsandboxed) if prove_names else None,
            tree=tree,
        )
        for group in groups:
            for path in group.paths if group.done else ():
                fixes[path] = _after_group(
                    fixes.get(path), path, workspace, candidates[path], helpers, write
                )
    if unsafe:
        project = _project_files(paths, candidates, overrides, config_file)
        groups += _thread_supplies(fixes, candidates, project, workspace, helpers, write, tree)
    untouched = tuple(r for r in first.results if r.path not in fixes and (r.findings or r.errors))
    ordered = tuple(sorted(fixes.values(), key=lambda f: f.path.as_posix()))
    not_fixed = tuple(FileError(path, why) for path, why in sorted(refused.items()))
    return FixRun(
        ordered,
        untouched,
        (*first.errors, *not_fixed),
        len(first.results),
        write,
        tuple(groups),
        tuple(groups_left),
    )


def _thread_supplies(
    fixes: dict[Path, FileFix],
    candidates: Mapping[Path, Candidate],
    project: "_Project",
    workspace: Workspace,
    helpers: frozenset[str],
    write: bool,
    tree: Tree | None,
) -> list[GroupFix]:
    """Thread a supply parameter into each C++ function that builds a GlobalVar with
    nothing in scope to name it (stage three; see fixing/threading.py). Its declarations
    and calls are looked for in every C++ file of the `project` (the roots of the files
    given), not only in those given: a change that must touch a file outside them is not
    made. One change at a time, planned again on the texts the one before left: two
    changes to one file must not be planned on the same old text."""
    done: list[GroupFix] = []
    handled: set[str] = set()
    refusals: dict[str, GroupFix] = {}
    parses = Parses()
    while True:
        # In the files' order, not the order their fixes came back in from the workers:
        # the same tree gives the same changes and the same summary, run after run.
        sites = sorted(
            Site(fix.path, finding.span.start_line, finding.span.start_col)
            for fix in fixes.values()
            for finding in fix.remaining
            if finding.code == "GV101" and finding.reason == NOTHING_IN_SCOPE
        )
        python = [s for s in sites if candidates[s.path].language == Language.PYTHON]
        try:
            changes, refused = plan_threading(
                [s for s in sites if s not in python],
                project.cpp,
                workspace.read,
                workspace.config_of,
                project.excluded,
            )
            more, refused_more = plan_python_threading(
                python,
                project.python,
                workspace.read,
                workspace.config_of,
                files=parses,
                skip=handled | refusals.keys(),
                excluded=project.excluded,
            )
        except Exception as exc:  # a planning bug must not lose the changes already made
            log.debug("planning supply threading failed", exc_info=True)
            why = f"supply threading could not be planned: {type(exc).__name__}: {exc}"
            done.append(GroupFix("(supply parameters)", "", 0, (), False, why, threaded=True))
            break
        changes += more
        refused += refused_more
        for refusal in refused:
            group = GroupFix(refusal.helper, "", 0, (refusal.path,), False, refusal.reason)
            refusals[refusal.helper] = replace(group, threaded=True)  # as of the latest text
        pending = [c for c in changes if c.helper not in handled]
        if not pending:
            break
        change = pending[0]
        handled.add(change.helper)
        outside = sorted(p for p in change.texts if p not in candidates)
        if outside:
            why = f"{display_path(outside[0])} must change too, and is not among the files given"
            files = tuple(sorted(change.texts))
            done.append(GroupFix(change.helper, "", 0, files, False, why, threaded=True))
            continue
        headers = [p for p in sorted(change.texts) if p.suffix in _HEADERS]
        if project.unmarked and headers:
            why = (
                f"it is declared in {display_path(headers[0])}, which any file may include, "
                "and nothing marks the project's root (a config file, a version control "
                "folder, a build file): "
                "its callers outside the folder given cannot be seen"
            )
            done.append(GroupFix(change.helper, "", 0, tuple(headers), False, why, threaded=True))
            continue
        given = [p for p in [*project.cpp, *project.python] if p in candidates]
        group = apply_change(change, workspace, given, HELPER_NAMES, write=write, tree=tree)
        done.append(group)
        for path in group.paths if group.done else ():
            fixes[path] = _after_group(
                fixes.get(path), path, workspace, candidates[path], helpers, write
            )
    return done + [g for helper, g in refusals.items() if helper not in handled]


@dataclass(frozen=True)
class _Project:
    """Every source file of the project of the files given, each spelled as among the
    files given when it is one of them. The project is the folder of the config file
    that governs a path given, or, with none, the path itself (never the working
    folder a run happens to start in)."""

    cpp: list[Path]
    python: dict[Path, str]  # with its dotted module name
    # The files the project's `exclude` and `extend-exclude` leave out (not the default
    # folders, nor what .gitignore ignores), found on first use: a supply threaded past
    # a call in one of them would leave that call broken.
    excluded: Callable[[], list[Path]]
    # A path given whose project nothing marks (no config file, version control folder,
    # build file or package above it): its own folder stands for the project, and
    # callers elsewhere are unseen.
    unmarked: bool = False


def _project_files(
    paths: Sequence[Path],
    candidates: Mapping[Path, Candidate],
    overrides: Mapping[str, object],
    config_file: Path | None,
) -> _Project:
    given = {p.absolute(): p for p in candidates}
    discovery = Discovery(overrides, config_file)
    roots = set()
    unmarked = False
    for path in paths:
        folder = path if path.is_dir() else path.parent
        config = discovery.config_for(folder)
        root = _project_root(folder, config, discovery.fixed is not None)
        unmarked |= root is None
        roots.add(root or folder.absolute())
    if roots == {p.absolute() for p in paths}:  # the run walked the project already
        found = list(candidates.values())
    else:
        found = list(discovery.discover(sorted(roots), []))
    cpp = [given.get(c.path.absolute(), c.path) for c in found if c.language == Language.CPP]
    python = {
        given.get(c.path.absolute(), c.path): c.module_name
        for c in found
        if c.language == Language.PYTHON
    }

    known = [c.path for c in found]
    excluded = cache(lambda: excluded_files(sorted(roots), overrides, config_file, known))
    return _Project(cpp, python, excluded, unmarked)


def _project_root(folder: Path, config: Config, given: bool) -> Path | None:
    """Return the root of the project `folder` belongs to: the outermost of what marks
    one above it: the folder of its config file (found above it, or given with --config
    and kept at or above it), what paths.project_root_of finds (version control, a build
    file), the folder above the Python package holding it; None when nothing marks it.
    The outermost, since a nested config or a package inside a repository is part of
    a larger project: callers outside the folder that a threaded parameter would break
    must be seen, so that the change is refused."""
    absolute = folder.resolve()
    marks = [project_root_of(folder), _package_home(folder)]
    if config.source is not None:
        home = config.source.parent
        if not given or absolute == home or home in absolute.parents:
            marks.append(home)
    holding = [m for m in marks if m is not None and _holds(m, absolute)]
    return min(holding, key=lambda m: len(m.resolve().parts)) if holding else None


def _holds(root: Path, folder: Path) -> bool:
    resolved = root.resolve()
    return folder == resolved or resolved in folder.parents


def _package_home(folder: Path) -> Path | None:
    """Return the folder that holds the outermost package `folder` is part of (where
    its modules are imported from), or None when `folder` is no package."""
    current = folder.absolute()
    if not (current / "__init__.py").is_file():
        return None
    while (current.parent / "__init__.py").is_file() and current.parent != current:
        current = current.parent
    home = current.parent
    # A package kept straight in a home folder (or at /) does not make it a project.
    return None if home in (Path(home.anchor), Path(os.path.expanduser("~"))) else home


def _proof(
    overrides: Mapping[str, object], config_file: Path | None, unsandboxed: bool
) -> NameProof:
    """Return how to prove changes: each copy against its own file's `tvm-version`."""
    discovery = Discovery(overrides, config_file)
    return NameProof(lambda path: discovery.config_for(path.parent).tvm_version, unsandboxed)


def _remember(workspace: Workspace, settled: _Settled, fix: FileFix) -> None:
    assert settled.stored is not None
    stored = settled.stored
    if fix.written:
        workspace.remember(
            fix.path, stored, stored.text, settled.text, digest_of(stored.encode(settled.text))
        )
    elif fix.changed and not fix.errors:  # --diff: the change lives in memory only
        workspace.remember(fix.path, stored, stored.text, settled.text, settled.digest)
    else:
        workspace.remember(fix.path, stored, stored.text, stored.text, settled.digest)


def _after_group(
    fix: FileFix | None,
    path: Path,
    workspace: Workspace,
    candidate: Candidate,
    helpers: frozenset[str],
    write: bool,
) -> FileFix:
    """Return the record of a file a multi-file change touched, checked again."""
    from lintgv.engine import check

    text = workspace.read(path) or ""
    result = check(
        SourceFile(path, candidate.language, text),
        candidate.config,
        module_name=candidate.module_name,
        helper_names=helpers,
    )
    after = workspace.current(path)
    if fix is None:
        return FileFix(
            path, workspace.original(path), after, remaining=result.findings, written=write
        )
    return replace(fix, after=after, remaining=result.findings, written=write or fix.written)
