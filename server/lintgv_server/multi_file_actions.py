"""Multi-file fixes as code actions, planned and proved by `lintgv fix`'s own stages: a
unique-name copy (GV201, its declaration GV202 and calls GV203) replaced by a NameSupply
member in header, source and callers at once (stage two, lintgv/fixing/groups.py), and a
GlobalVarSupply parameter threaded into a function whose GlobalVar (GV101) has nothing in
scope to name it, with every caller updated (stage three, lintgv/fixing/threading*.py).
Both in C++ and in Python."""

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path

from lsprotocol import types

from lintgv.codemods.unique_names import HELPER_NAMES
from lintgv.config import Config
from lintgv.discovery import Candidate, unreadable
from lintgv.fixing.files import Tree, stored_text
from lintgv.fixing.groups import Workspace, fix_groups, prove_change
from lintgv.fixing.supply_stage import project_root
from lintgv.fixing.thread_edits import Site, excluded_files, is_threading_site
from lintgv.fixing.threading import plan_threading
from lintgv.fixing.threading_python import plan_python_threading
from lintgv.identities import bare_name
from lintgv.lines import with_newline
from lintgv.model import Finding, Language
from lintgv.records import frozen
from lintgv_server.analysis import Analysis
from lintgv_server.convert import whole_text_edit
from lintgv_server.scan import folder_targets
from lintgv_server.state import LintgvServer


@frozen
class GroupChange:
    """One proved multi-file change: each file's text before and after, with `\\n` ends."""

    title: str
    texts: dict[Path, tuple[str, str]]
    newlines: dict[Path, str]


@frozen
class Planned:
    """The multi-file changes to offer, and why others are not offered: a change that
    would edit a file `lintgv fix` may not write (LintgvServer.write_tree). `refused` is
    empty when the changes were planned before, so that each reason is logged once."""

    changes: list[GroupChange]
    refused: tuple[str, ...] = ()


def plan_groups(ls: LintgvServer, analysis: Analysis) -> Planned:
    """Return the proved multi-file changes that touch the analysed document, planned once
    per version (on the lint thread). The files of its language in its workspace folder
    are read from the editor when open, else from disk; a document outside every
    workspace folder gets none."""
    if analysis.group_changes is None:
        planned = _plan(ls, analysis)
        analysis.group_changes = planned.changes
        return planned
    return Planned(list(analysis.group_changes))


def _project_folder(ls: LintgvServer, target: Candidate) -> Path | None:
    """Return the folder a change for `target` is planned over: the root of its project
    as `lintgv fix` finds it (its config file's folder, version control, a build file, a
    package; a folder nested in another is part of its project, and a change must reach
    the calls in the outer one too), else the outermost workspace folder holding it.
    Not a workspace folder that merely holds the project (a home folder): what lies
    beside the project calls nothing in it. None outside every workspace folder."""
    holding = [f for f in ls.folders() if target.path.is_relative_to(f)]
    if not holding:
        return None
    root = project_root(target.path.parent, target.config, given=False)
    return root if root is not None else min(holding, key=lambda f: len(f.parts))


def _workspace(
    ls: LintgvServer, max_size: int, paths: list[Path], configs: Mapping[Path, Config]
) -> Workspace:
    """Return the texts of `paths`: from the editor when open, else read from disk, and
    their configs as diagnostics see them (the editor's settings laid over each file's)."""
    workspace = Workspace(max_size, configs=configs, config_source=ls.config_for)
    for path in paths:
        document = ls.current_document(path.as_uri())
        if document is not None:
            stored = stored_text(document.source, b"")
            workspace.remember(path, stored, stored.text, stored.text, "")
    return workspace


@frozen
class _Folder:
    """The files of one language in a workspace folder, or why a change over them
    cannot be planned."""

    found: list[Candidate]
    paths: list[Path]
    workspace: Workspace
    unseen: tuple[Path, ...]  # what the walk could not see into (a call may be there)
    # The files the folder's config excludes, found on first use: a call in one would be
    # left behind by a change.
    excluded: Callable[[], list[Path]]


def _folder_files(ls: LintgvServer, folder: Path, target: Candidate) -> _Folder:
    """Return the files of `target`'s language in its workspace folder (a change's
    declarations and calls are in files of its own language), with the configs their
    diagnostics use, and a Workspace over them that reads open documents as edited.
    Files of a nested folder whose settings disable lintgv are among them: a change
    must reach the calls there too."""
    unseen: list[Path] = []
    found = [
        c
        for c in folder_targets(ls, folder, [], unseen, enabled_only=False)
        if c.language == target.language
    ]
    paths = [c.path for c in found]
    configs = {c.path: c.config for c in found}
    workspace = _workspace(ls, target.config.max_file_size, paths, configs)
    # A file open in the editor is read from there; one on disk alone must be readable.
    on_disk = [p for p in paths if p not in workspace.known]
    unseen += unreadable(on_disk)
    excluded = cache(lambda: excluded_files([folder], {}, None, paths))
    return _Folder(found, paths, workspace, tuple(dict.fromkeys(unseen)), excluded)


def _group_change(
    title: str, texts: Mapping[Path, tuple[str, str]], workspace: Workspace
) -> GroupChange:
    """Return a change of the files `texts` holds (each one's text before and after),
    written with each file's own line ends."""
    newlines = {p: workspace.known[p].stored.newline for p in texts}
    return GroupChange(f"{title} ({len(texts)} files)", dict(texts), newlines)


def _plan(ls: LintgvServer, analysis: Analysis) -> Planned:
    target = analysis.target
    # Outside every workspace folder there is no project to plan over (its parent
    # folder may be the home folder, or the root of the file system).
    folder = _project_folder(ls, target) if target is not None else None
    if target is None or folder is None:
        return Planned([])
    files = _folder_files(ls, folder, target)
    if files.unseen:
        return _unseen(files)
    paths, workspace = files.paths, files.workspace
    helpers = {bare_name(h) for h in ls.helper_names}
    names = HELPER_NAMES | helpers | set(target.config.extra_unique_name_helpers)
    tree = ls.write_tree()
    outcomes, _ = fix_groups(
        paths,
        workspace,
        frozenset(names),
        unsafe=True,
        write=False,
        max_rounds=1,
        tree=tree,
        excluded=files.excluded,
    )
    changes = []
    refused = []
    for outcome in outcomes:
        if target.path not in outcome.paths:
            continue
        if not outcome.done:
            refused += _refusal(outcome.title, outcome.paths, tree)
            continue
        texts = {p: (workspace.known[p].original, workspace.known[p].text) for p in outcome.paths}
        changes.append(_group_change(outcome.title, texts, workspace))
    return Planned(changes, tuple(refused))


def _unseen(files: _Folder) -> Planned:
    """Offer no multi-file change when the walk could not see into part of the folder: a
    call there would be left behind."""
    unseen = ", ".join(str(p) for p in files.unseen)
    return Planned([], (f"multi-file changes not offered: {unseen} could not be read",))


def _refusal(title: str, paths: Iterable[Path], tree: Tree) -> list[str]:
    """Return why the change `title` is not offered when it would edit a file `lintgv
    fix` may not write (as a list of one reason), else an empty list."""
    why = [f"{p} {r}" for p in paths if (r := tree.refusal(p)) is not None]
    return [f"{title}: not offered, {'; '.join(why)}"] if why else []


def threaded_sites(analysis: Analysis, findings: list[Finding]) -> tuple[Site, ...]:
    """Return where, among `findings`, a GlobalVar has nothing in scope to name it."""
    if analysis.target is None:
        return ()
    path = analysis.target.path
    return tuple(
        Site(path, f.span.start_line, f.span.start_col) for f in findings if is_threading_site(f)
    )


def plan_threads(ls: LintgvServer, analysis: Analysis, sites: tuple[Site, ...]) -> Planned:
    """Return the proved supply-threading changes for `sites` of the analysed document,
    planned once per version and sites (on the lint thread); none outside every
    workspace folder."""
    if sites not in analysis.thread_changes:
        planned = _plan_threads(ls, analysis, sites)
        analysis.thread_changes[sites] = planned.changes
        return planned
    return Planned(list(analysis.thread_changes[sites]))


def _plan_threads(ls: LintgvServer, analysis: Analysis, sites: tuple[Site, ...]) -> Planned:
    target = analysis.target
    folder = _project_folder(ls, target) if target is not None else None
    if target is None or folder is None or not sites:
        return Planned([])
    files = _folder_files(ls, folder, target)
    if files.unseen:
        return _unseen(files)
    found, paths, workspace, excluded = files.found, files.paths, files.workspace, files.excluded
    if target.language == Language.CPP:
        changes, _ = plan_threading(sites, paths, workspace.read, workspace.config_of, excluded)
    else:
        modules = {c.path: c.module_name for c in found}
        changes, _ = plan_python_threading(
            sites, modules, workspace.read, workspace.config_of, excluded=excluded
        )
    tree = ls.write_tree()
    planned = []
    refused = []
    for change in changes:
        refusal = _refusal(change.title, change.texts, tree)
        if refusal:
            refused += refusal
            continue
        if prove_change(change, workspace, paths, HELPER_NAMES) is not None:
            continue
        texts = {p: (workspace.known[p].text, after) for p, after in change.texts.items()}
        planned.append(_group_change(change.title, texts, workspace))
    return Planned(planned, tuple(refused))


def group_action(
    ls: LintgvServer, change: GroupChange, diagnostic: types.Diagnostic | None, versioned: bool
) -> types.CodeAction:
    """Return the code action applying one multi-file change."""
    codec = ls.workspace.position_codec
    document_changes: list[types.TextDocumentEdit] = []
    changes: dict[str, list[types.TextEdit]] = {}
    for path, (before, after) in sorted(change.texts.items()):
        uri = path.as_uri()
        newline = change.newlines[path]
        edits = [
            types.TextEdit(range=e.range, new_text=with_newline(e.new_text, newline))
            for e in whole_text_edit(codec, before, after)
        ]
        document = ls.current_document(uri)
        version = document.version if document is not None else None
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        document_changes.append(types.TextDocumentEdit(text_document=identifier, edits=list(edits)))
        changes[uri] = edits
    edit = (
        types.WorkspaceEdit(document_changes=list(document_changes))
        if versioned
        else types.WorkspaceEdit(changes=changes)
    )
    return types.CodeAction(
        title=change.title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic] if diagnostic else None,
        edit=edit,
    )
