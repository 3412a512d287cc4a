"""`lintgv fix` without the printing: check every file, settle the ones with fixes, and
write each result atomically (or only report it, for `--diff`).

The first pass is an ordinary cached `check`; only files that hold a finding of a rule
with fixes are read again, parsed whole (fixes need the full scope) and settled, each by
a task of fixing/file_fix.py. Then come the multi-file changes (fixing/groups.py) and,
with --unsafe, the supply stage (fixing/supply_stage.py).
"""

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from lintgv.checking import Progress, run
from lintgv.codemods.unique_names import Skipped
from lintgv.discovery import Discovery
from lintgv.fixing import MAX_ROUNDS
from lintgv.fixing.across import copy_files, copy_names, fixes_unique_names
from lintgv.fixing.file_fix import (
    FileFix,
    SettledFile,
    SettleTask,
    after_group,
    settle_files,
    write_settled,
)
from lintgv.fixing.files import Tree, digest_of, not_fixed
from lintgv.fixing.groups import GroupFix, Workspace, fix_groups
from lintgv.fixing.proof import NameProof
from lintgv.fixing.supply_stage import project_files, thread_supplies
from lintgv.identities import cpp_identity
from lintgv.model import Applicability, FileError, FileResult, Finding
from lintgv.records import frozen
from lintgv.registry import rule_codes


@frozen
class FixRun:
    fixes: tuple[FileFix, ...]  # files that were settled or changed, by path
    untouched: tuple[FileResult, ...]  # files with findings or errors that had nothing to fix
    errors: tuple[FileError, ...]  # paths that could not be walked
    checked: int
    write: bool
    groups: tuple[GroupFix, ...] = ()  # changes across files (unique-name copies)
    groups_left: tuple[Skipped, ...] = ()  # copies no change was planned for, and why
    # What the walks of the run and of the project could not see into (a folder that is
    # unreadable or whose config is broken, a file that is unreadable) when changes across
    # files were due: none was made, since a call there would be left behind.
    unseen: tuple[Path, ...] = ()

    @property
    def remaining(self) -> list[Finding]:
        found = [f for fix in self.fixes for f in fix.left]
        return found + [f for r in self.untouched for f in r.findings]

    @property
    def all_errors(self) -> list[FileError]:
        found = list(self.errors) + [e for fix in self.fixes for e in fix.errors]
        return found + [e for r in self.untouched for e in r.errors]


def _fixable_codes() -> frozenset[str]:
    return frozenset(
        code
        for code, rules in rule_codes().items()
        if any(r.META.fix != Applicability.NONE for r in rules)
    )


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
        SettleTask(
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
    for settled in settle_files(tasks, workers, progress):
        fix = write_settled(settled, tree) if write else settled.fix
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
    # A folder the walk could not see into, or a file it may not read, may hold calls of
    # what a change across files renames or gives a parameter: such a change is not made
    # (the server does the same).
    unseen = first.unseen
    across = any(fixes_unique_names(c.config) for c in sources)
    project = None
    if (across or unsafe) and not unseen:
        # Declarations and calls are looked for in the whole project of the files given,
        # whose walk may meet such a folder too, and whose files (those given among them)
        # are asked whether they may be read; a change that must touch a file outside the
        # files given is not made.
        project = project_files(paths, candidates, overrides, config_file)
        unseen = project.unseen
    if across and project is not None and not unseen:
        names = copy_names(first.results, sources, helpers)
        if progress is not None:
            progress("multi-file changes", 0, 0)
        within = copy_files(first.results, sources)
        groups, groups_left = fix_groups(
            [*project.cpp, *project.python],
            workspace,
            names,
            within=within if within is not None else set(candidates),
            unsafe=unsafe,
            write=write,
            max_rounds=max_rounds,
            prove=_proof(overrides, config_file, unsandboxed) if prove_names else None,
            tree=tree,
            given=candidates.keys(),
            excluded=project.excluded,
        )
        # The copies made wrappers are thin wrappers now: their declarations and calls in
        # the files a change touched are no copy's (GV202, GV203).
        wrapped = frozenset(cpp_identity(g.helper) for g in groups if g.done and g.wrapped)
        for group in groups:
            for path in group.paths if group.done else ():
                fixes[path] = after_group(
                    fixes.get(path), path, workspace, candidates[path], helpers, write, wrapped
                )
    if unsafe and project is not None and not unseen:
        groups += thread_supplies(fixes, candidates, project, workspace, helpers, write, tree)
    untouched = tuple(r for r in first.results if r.path not in fixes and (r.findings or r.errors))
    ordered = tuple(sorted(fixes.values(), key=lambda f: f.path.as_posix()))
    refusals = tuple(
        FileError(path, not_fixed(why), refused=True) for path, why in sorted(refused.items())
    )
    return FixRun(
        ordered,
        untouched,
        (*first.errors, *refusals),
        len(first.results),
        write,
        tuple(groups),
        tuple(groups_left),
        tuple(dict.fromkeys(unseen)) if across or unsafe else (),
    )


def _proof(
    overrides: Mapping[str, object], config_file: Path | None, unsandboxed: bool
) -> NameProof:
    """Return how to prove changes: each copy against its own file's `tvm-version`."""
    discovery = Discovery(overrides, config_file)
    return NameProof(lambda path: discovery.config_for(path.parent).release.text, unsandboxed)


def _remember(workspace: Workspace, settled: SettledFile, fix: FileFix) -> None:
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
