"""Changes across files as fixes of the findings they rewrite, for the reports that carry
fixes (`check --format json` and `sarif`): the change `lintgv fix --unsafe` makes for a
unique-name copy (GV201, its declarations GV202 and its calls GV203), planned and proved
by the same stage (groups.py) on the files as they are, attached to every finding whose
line it changes, with the edits of every file it touches.

Also what that stage and this one share: which helper names a run plans changes for,
and in which files the copies are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from lintgv.config import Config
from lintgv.discovery import Candidate
from lintgv.edits import edits_between
from lintgv.identities import bare_name
from lintgv.model import Edit, FileResult, Finding, Fix, Language
from lintgv.registry import codes_where, select

# The planner (codemods/unique_names.py) and its proof (groups.py) import libcst: a
# report with no finding they could fix, such as one of C++ files alone, does without.
if TYPE_CHECKING:
    from lintgv.codemods.unique_names import Change
    from lintgv.fixing.groups import Workspace

ACROSS_CODES = codes_where(lambda meta: meta.across_files)
# The codes whose findings are the copies themselves, named by their subject.
COPY_CODES = codes_where(lambda meta: meta.reports_copies)


def fixes_unique_names(config: Config) -> bool:
    """Tell whether `config` runs a rule whose fix is a change across files (a unique-name
    copy replaced with its declarations and calls)."""
    return any(
        rule.META.across_files
        for language in (Language.CPP, Language.PYTHON)
        for rule in select(config, language)
    )


def copy_names(
    results: Iterable[FileResult], sources: Sequence[Candidate], helpers: frozenset[str]
) -> frozenset[str]:
    """Return the names of the copies to plan changes for: the codemod's fixed list, the
    helpers the run found (`helpers`), the configured extra ones, and the copies reported
    (the rules know more names by their shape, `GetUniqueBufferName`, than the list)."""
    from lintgv.codemods.unique_names import HELPER_NAMES  # imports libcst: see above

    extra = {name for c in sources for name in c.config.extra_unique_name_helpers}
    found = {bare_name(h) for h in helpers}
    reported = {
        bare_name(finding.subject)
        for result in results
        for finding in result.findings
        if finding.code in COPY_CODES and finding.subject
    }
    return frozenset(HELPER_NAMES | found | extra | reported)


def copy_files(results: Iterable[FileResult], sources: Iterable[Candidate]) -> set[Path] | None:
    """Return the files a copy was reported in: a multi-file change starts from a copy,
    and looking for copies costs a whole parse of each file that might hold one. None
    when no rule reporting copies checks some file (the planner then looks in all)."""
    if not all(
        any(rule.META.reports_copies for rule in select(c.config, c.language)) for c in sources
    ):
        return None
    return {r.path for r in results for f in r.findings if f.code in COPY_CODES}


def with_changes_across_files(
    findings: list[Finding], results: Sequence[FileResult], sources: Sequence[Candidate]
) -> list[Finding]:
    """Return `findings`, each finding of a rule fixed across files that has no fix given
    the proved change across files that rewrites its line, if there is one."""
    open_findings = [f for f in findings if f.code in ACROSS_CODES and f.fix is None]
    if not open_findings or not any(fixes_unique_names(c.config) for c in sources):
        return findings
    from lintgv.fixing.groups import Workspace, prove_change  # imports libcst: see above
    from lintgv.holding import CppParses

    helpers = frozenset(name for r in results for name in r.defined_helpers)
    names = copy_names(results, sources, helpers)
    paths = sorted((c.path for c in sources), key=lambda p: p.as_posix())
    configs = {c.path: c.config for c in sources}
    workspace = Workspace(max(c.config.max_file_size for c in sources), configs=configs)
    within = copy_files(results, sources)
    parses = CppParses()
    changes, _ = workspace.plan(paths, names, within, parses)
    fixes: dict[int, Fix] = {}
    for change in changes:
        if prove_change(change, workspace, paths, names, parses) is not None:
            continue
        edits = _edits_of(change, workspace)
        for finding in open_findings:
            if id(finding) not in fixes and _rewrites(edits, finding):
                fixes[id(finding)] = Fix(
                    change.title,
                    change.applicability,
                    tuple(_seen_from(finding.path, edits)),
                )
    return [replace(f, fix=fixes[id(f)]) if id(f) in fixes else f for f in findings]


def _edits_of(change: Change, workspace: Workspace) -> dict[Path, list[Edit]]:
    """Return the change as edits of each file's text as stored (its own line ends)."""
    edits = {}
    for path in sorted(change.texts, key=lambda p: p.as_posix()):
        known = workspace.known[path]
        after = known.stored.stored(change.texts[path])
        edits[path] = edits_between(workspace.original(path), after)
    return edits


def _rewrites(edits: dict[Path, list[Edit]], finding: Finding) -> bool:
    """Tell whether the change replaces the line the finding starts on (an insertion
    replaces no line)."""
    line = finding.span.start_line
    for edit in edits.get(finding.path, []):
        span = edit.span
        last = span.end_line - 1 if span.end_col == 0 else span.end_line
        if span.start_line <= line <= last:
            return True
    return False


def _seen_from(own: Path, edits: dict[Path, list[Edit]]) -> list[Edit]:
    """Return every edit, the finding's own file's first, other files' naming their path."""
    ordered = [*edits.get(own, [])]
    for path, file_edits in edits.items():
        if path != own:
            ordered.extend(replace(e, path=path) for e in file_edits)
    return ordered
