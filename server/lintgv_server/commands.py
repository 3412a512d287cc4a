"""Commands (`lintgv.fixFile`, `lintgv.checkWorkspace`) and the pulled workspace
diagnostics: long work with `$/progress`, cancelled by `$/cancelRequest` or by the
progress' own cancel button."""

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from lintgv.errors import ConfigError
from lintgv.fixing.files import not_fixed
from lintgv.model import FileError
from lintgv.reading import BOM, read_source
from lintgv.records import frozen
from lintgv_server import actions, features
from lintgv_server.convert import error_diagnostic, fs_path, result_id, to_diagnostic
from lintgv_server.documents import diagnostics_of, publish, relint_open
from lintgv_server.features import versioned_edits
from lintgv_server.progress import Progress
from lintgv_server.scan import scan
from lintgv_server.scan_cache import Scanned
from lintgv_server.state import LintgvServer

log = logging.getLogger(__name__)

FIX_FILE = "lintgv.fixFile"
FIX_WORKSPACE = "lintgv.fixWorkspaceFiles"
CHECK_WORKSPACE = "lintgv.checkWorkspace"


async def _scan(ls: LintgvServer, progress: Progress) -> dict[Path, Scanned] | None:
    """Check the workspace; open documents are checked again when the helpers it found
    differ from those they were checked with."""
    before = ls.project_facts
    results = await scan(ls, ls.scan_cache, progress.report, progress.is_cancelled)
    if ls.project_facts != before:
        relint_open(ls)
    return results


async def _scan_with_progress(
    ls: LintgvServer, token: types.ProgressToken | None, title: str
) -> dict[Path, Scanned] | None:
    progress = Progress(ls, token)
    await progress.begin(title)
    results = None
    try:
        results = await _scan(ls, progress)
    finally:
        progress.end("cancelled" if results is None else f"{len(results)} files checked")
    return results


def _scanned_diagnostics(ls: LintgvServer, scanned: Scanned) -> list[types.Diagnostic]:
    codec = ls.workspace.position_codec
    template = ls.settings.docs_url
    found = [
        to_diagnostic(scanned.index, codec, f, actions.docs_href(f.code, template))
        for f in scanned.result.findings
    ]
    return found + [
        error_diagnostic(scanned.index, codec, e) for e in scanned.result.errors if not e.crash
    ]


async def check_workspace(ls: LintgvServer, params: types.ExecuteCommandParams) -> dict[str, int]:
    """Check every file of the workspace and push the diagnostics of the files not open."""
    results = await _scan_with_progress(
        ls, params.work_done_token, "lintgv: checking the workspace"
    )
    if results is None:
        return {"files": 0, "findings": 0, "cancelled": 1}
    findings = 0
    shown: set[str] = set()
    for path, scanned in results.items():
        uri = path.as_uri()
        findings += len(scanned.result.findings)
        if ls.current_document(uri) is not None:
            continue
        diagnostics = _scanned_diagnostics(ls, scanned)
        if (diagnostics or uri in ls.scanned_uris) and ls.settings.diagnostic_mode == "push":
            publish(ls, uri, None, diagnostics)
        if diagnostics:
            shown.add(uri)
    ls.scanned_uris = shown
    return {"files": len(results), "findings": findings, "cancelled": 0}


def _uri_argument(params: types.ExecuteCommandParams) -> tuple[str, bool]:
    arguments = params.arguments or []
    first = arguments[0] if arguments else None
    if isinstance(first, dict):
        first = first.get("uri")
    if not isinstance(first, str):
        raise JsonRpcInvalidParams(f"{FIX_FILE} needs a document URI as its first argument")
    return first, _unsafe_option(arguments[1:], FIX_FILE)


def _unsafe_option(arguments: Sequence[Any], command: str) -> bool:
    options = arguments[0] if arguments else {}
    if not isinstance(options, dict):
        raise JsonRpcInvalidParams(f'{command}: options must be an object, like {{"unsafe": true}}')
    unsafe = options.get("unsafe", False)
    if not isinstance(unsafe, bool):
        raise JsonRpcInvalidParams(f"{command}: unsafe must be true or false, not {unsafe!r}")
    return unsafe


@frozen
class PlannedFix:
    """One file's fixes as edits, and the version and text they were planned on."""

    uri: str
    version: int | None  # None: a file that is not open, read from disk
    text: str
    edits: list[types.TextEdit]
    fixes: int

    def still_current(self) -> bool:
        """Tell whether a file that is not open still holds the text the edits were
        planned on: an edit of a closed file carries no version the client could check."""
        if self.version is not None:
            return True  # the client refuses the edit if the document moved on
        path = fs_path(self.uri)
        if path is None:
            return False
        # A file grown past the planned text's size has changed: it is not read whole.
        loaded = read_source(Path(path), len(self.text.encode("utf-8")) + len(BOM))
        return not isinstance(loaded, FileError) and loaded.text == self.text


def _writable_path(ls: LintgvServer, uri: str, command: str) -> Path:
    """Return the path of `uri` when the server may plan edits of it (`lintgv fix`'s rule,
    LintgvServer.write_tree); raise invalid params naming the file otherwise."""
    path = fs_path(uri)
    if path is None:
        raise JsonRpcInvalidParams(f"{command}: {uri} is neither open nor a file: URI")
    refusal = ls.write_tree().refusal(Path(path))
    if refusal is not None:
        raise JsonRpcInvalidParams(f"{command}: {uri}: {not_fixed(refusal)}")
    return Path(path)


def _read_closed(ls: LintgvServer, uri: str, command: str) -> str:
    """Return the text of a file that is not open, read as `lintgv fix` reads it: a
    regular file under a workspace folder, within its config's max-file-size."""
    path = _writable_path(ls, uri, command)
    try:
        max_size = ls.config_for(path).max_file_size
    except ConfigError as exc:
        raise JsonRpcInvalidParams(f"{command}: {uri}: {exc}") from None
    loaded = read_source(path, max_size)
    if isinstance(loaded, FileError):
        raise JsonRpcInvalidParams(f"{command}: {uri}: {loaded.message}")
    return loaded.text


async def _plan_fixes(ls: LintgvServer, uri: str, unsafe: bool, command: str) -> PlannedFix:
    """Plan the fixes of one file: its open document, else the file on disk."""
    document = ls.current_document(uri)
    if document is not None:
        analysis = await ls.analyse(document)
    else:
        text = _read_closed(ls, uri, command)
        analysis = await ls.run_on_lint_thread(lambda: ls.analyse_now(uri, None, text))
    codec = ls.workspace.position_codec
    edits, count = await ls.run_on_lint_thread(
        lambda: actions.fix_all_edits(analysis, codec, unsafe)
    )
    return PlannedFix(uri, analysis.version, analysis.text, edits, count)


def _changed_since(planned: list[PlannedFix], ls: LintgvServer) -> list[PlannedFix]:
    """Return the plans still current; log the files changed on disk since."""
    current = []
    for plan in planned:
        if plan.still_current():
            current.append(plan)
        else:
            ls.log_message(f"{plan.uri} changed on disk while its fixes were planned; not fixed")
    return current


async def fix_file(ls: LintgvServer, params: types.ExecuteCommandParams) -> dict[str, Any]:
    """Apply every safe fix (also unsafe ones with `{"unsafe": true}`) to one file, through
    workspace/applyEdit; fixes are proved as `lintgv fix` proves them."""
    uri, unsafe = _uri_argument(params)
    planned = _changed_since([await _plan_fixes(ls, uri, unsafe, FIX_FILE)], ls)
    if not planned or not planned[0].edits:
        return {"applied": False, "fixes": 0}
    plan = planned[0]
    edit = actions.workspace_edit(uri, plan.version, plan.edits, versioned_edits(ls))
    answer = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label="lintgv: fix file")
    )
    return {"applied": bool(answer.applied), "fixes": plan.fixes if answer.applied else 0}


async def fix_workspace(ls: LintgvServer, params: types.ExecuteCommandParams) -> dict[str, Any]:
    """Apply every safe fix (also unsafe ones with `{"unsafe": true}`) to every file of the
    workspace as one workspace/applyEdit: the client applies all files or none, and one
    undo takes it back. Returns the files changed, for the client to save."""
    unsafe = _unsafe_option(params.arguments or [], FIX_WORKSPACE)
    progress = Progress(ls, params.work_done_token)
    await progress.begin("lintgv: fixing the workspace")
    planned: list[PlannedFix] = []
    skipped: list[str] = []
    cancelled = True
    try:
        results = await _scan(ls, progress)
        paths = sorted(p for p, s in (results or {}).items() if s.result.findings)
        for index, path in enumerate(paths):
            if progress.is_cancelled():
                break
            progress.report(f"fixing {path.name}", 100 * index // len(paths))
            uri = path.as_uri()
            try:
                if ls.current_document(uri) is not None:
                    # Open documents too, since the client saves every file this command
                    # changes (a closed file is checked where it is read: _read_closed).
                    _writable_path(ls, uri, FIX_WORKSPACE)
                plan = await _plan_fixes(ls, uri, unsafe, FIX_WORKSPACE)
            except JsonRpcInvalidParams as exc:  # not fixable, or gone since the scan
                skipped.append(str(exc))
                continue
            if plan.edits:
                planned.append(plan)
        else:
            cancelled = results is None
    finally:
        fixes = sum(p.fixes for p in planned)
        progress.end("cancelled" if cancelled else f"{fixes} fixes in {len(planned)} files")
    for reason in skipped:
        ls.log_message(reason)
    planned = [] if cancelled else _changed_since(planned, ls)
    if not planned:
        return {"applied": False, "fixes": 0, "files": [], "cancelled": cancelled}
    documents = [(p.uri, p.version, p.edits) for p in planned]
    edit = actions.documents_edit(documents, versioned_edits(ls))
    answer = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label="lintgv: fix workspace")
    )
    applied = bool(answer.applied)
    return {
        "applied": applied,
        "fixes": sum(p.fixes for p in planned) if applied else 0,
        "files": [p.uri for p in planned] if applied else [],
        "cancelled": False,
    }


def _workspace_report(
    uri: str, version: int | None, diagnostics: list[types.Diagnostic], previous: str | None
) -> types.WorkspaceDocumentDiagnosticReport:
    ident = result_id(diagnostics)
    if ident == previous:
        return types.WorkspaceUnchangedDocumentDiagnosticReport(
            uri=uri, version=version, result_id=ident
        )
    return types.WorkspaceFullDocumentDiagnosticReport(
        uri=uri, items=diagnostics, version=version, result_id=ident
    )


async def workspace_diagnostic(
    ls: LintgvServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    """Answer a pull for the whole workspace: every file with findings, open ones live."""
    results = await _scan_with_progress(ls, params.work_done_token, "lintgv: workspace diagnostics")
    items: list[types.WorkspaceDocumentDiagnosticReport] = []
    open_uris = ls.open_uris()
    previous = {p.uri: p.value for p in params.previous_result_ids}
    for path, scanned in (results or {}).items():
        uri = path.as_uri()
        if ls.current_document(uri) is not None:
            continue
        diagnostics = _scanned_diagnostics(ls, scanned)
        if diagnostics or uri in previous:
            items.append(_workspace_report(uri, None, diagnostics, previous.get(uri)))
    for uri in sorted(open_uris):
        document = ls.current_document(uri)
        if document is None:
            continue
        analysis = await ls.analyse(document)
        diagnostics = diagnostics_of(ls, analysis)
        items.append(_workspace_report(uri, analysis.version, diagnostics, previous.get(uri)))
    return types.WorkspaceDiagnosticReport(items=items)


def register(server: LintgvServer) -> None:
    """Register the commands."""
    server.command(FIX_FILE)(fix_file)
    server.command(FIX_WORKSPACE)(fix_workspace)
    server.command(CHECK_WORKSPACE)(check_workspace)


def register_pull(server: LintgvServer) -> None:
    """Register pulled diagnostics, for clients that asked for them instead of pushes."""
    server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier="lintgv", inter_file_dependencies=True, workspace_diagnostics=True
        ),
    )(features.document_diagnostic)
    server.feature(types.WORKSPACE_DIAGNOSTIC)(workspace_diagnostic)
