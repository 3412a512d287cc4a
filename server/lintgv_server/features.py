"""Requests about one document: hover, code actions (and their resolution), and pulled
diagnostics."""

import logging
from collections.abc import Sequence

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.workspace import TextDocument

from lintgv.fixing.across import ACROSS_CODES
from lintgv.fixing.thread_edits import is_threading_site
from lintgv.model import Finding, Span
from lintgv_server import actions, multi_file_actions
from lintgv_server.analysis import Analysis
from lintgv_server.convert import SOURCE, fs_path, result_id, to_range, to_span
from lintgv_server.documents import diagnostics_of
from lintgv_server.ignores import ignore_edits
from lintgv_server.state import LintgvServer

log = logging.getLogger(__name__)

FIX_ALL_DATA = "lintgv.fixAll"


def versioned_edits(ls: LintgvServer) -> bool:
    """Tell whether the client takes versioned document edits (`documentChanges`)."""
    workspace = ls.client_capabilities.workspace
    edit = workspace.workspace_edit if workspace is not None else None
    return bool(edit and edit.document_changes)


def _resolves_edits(ls: LintgvServer) -> bool:
    document = ls.client_capabilities.text_document
    action = document.code_action if document is not None else None
    support = action.resolve_support if action is not None else None
    return bool(support and "edit" in support.properties)


def _open_document(ls: LintgvServer, uri: object, method: str) -> TextDocument:
    """Return the open document at `uri`; raise invalid params for any other. A document
    that is not open is never read: pygls would read any path whole on the event loop
    (a FIFO, /dev/zero), and take any scheme's path for a local one."""
    if not isinstance(uri, str):
        raise JsonRpcInvalidParams(f"{method}: the document URI must be a string, not {uri!r}")
    document = ls.current_document(uri)
    if document is None:
        raise JsonRpcInvalidParams(
            f"{method}: {uri} is not open; lintgv answers for open documents only"
        )
    return document


def _covers(span: Span, line: int, column: int) -> bool:
    after_start = (line, column) >= (span.start_line, span.start_col)
    return after_start and (line, column) <= (span.end_line, span.end_col)


def _matching(
    diagnostics: Sequence[types.Diagnostic], finding: Finding, rng: types.Range
) -> types.Diagnostic | None:
    return next(
        (
            d
            for d in diagnostics
            if d.source == SOURCE and d.code == finding.code and d.range == rng
        ),
        None,
    )


async def code_actions(
    ls: LintgvServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    """Return quick fixes and ignore actions for the findings on the requested lines, and
    the fix-all action when it is asked for."""
    document = _open_document(ls, params.text_document.uri, types.TEXT_DOCUMENT_CODE_ACTION)
    analysis = await ls.analyse(document)
    if analysis.target is None:
        return None
    codec = ls.workspace.position_codec
    only = params.context.only
    versioned = versioned_edits(ls)
    result: list[types.CodeAction] = []
    if actions.wants(only, types.CodeActionKind.QuickFix):
        span = to_span(analysis.index, codec, params.range)
        findings = analysis.findings_at(span)
        fixed = await ls.run_on_lint_thread(lambda: [analysis.fix_for(f) for f in findings])
        # Each proof reads the whole document: on the lint thread, all at once.
        suppressing = await ls.run_on_lint_thread(lambda: ignore_edits(analysis, findings))
        ignores = []
        for finding, with_fix, edit in zip(findings, fixed, suppressing, strict=True):
            rng = to_range(analysis.index, codec, finding.span)
            diagnostic = _matching(params.context.diagnostics, finding, rng)
            if with_fix is not None:
                action = actions.quick_fix(
                    analysis, codec, finding, with_fix, diagnostic, versioned
                )
                if action is not None:
                    result.append(action)
            ignores.append(
                actions.ignore_action(analysis, codec, finding, edit, diagnostic, versioned)
            )
        result += await _group_actions(ls, analysis, findings, params, versioned)
        result += [a for a in ignores if a is not None]
    automatic = params.context.trigger_kind == types.CodeActionTriggerKind.Automatic
    if actions.wants(only, actions.FIX_ALL_KIND) and (only is not None or not automatic):
        result += await _fix_all(ls, analysis, versioned)
    return result


async def _group_actions(
    ls: LintgvServer,
    analysis: Analysis,
    findings: list[Finding],
    params: types.CodeActionParams,
    versioned: bool,
) -> list[types.CodeAction]:
    """Return the multi-file changes for the findings on the requested lines: unique-name
    copies replaced, and supplies threaded to GlobalVars with nothing in scope."""
    result = []
    codec = ls.workspace.position_codec
    found = [f for f in findings if f.code in ACROSS_CODES]
    if found:
        groups = await ls.run_on_lint_thread(lambda: multi_file_actions.plan_groups(ls, analysis))
        rng = to_range(analysis.index, codec, found[0].span)
        diagnostic = _matching(params.context.diagnostics, found[0], rng)
        result += _offered(ls, groups, diagnostic, versioned)
    sites = multi_file_actions.threaded_sites(analysis, findings)
    if sites:
        threads = await ls.run_on_lint_thread(
            lambda: multi_file_actions.plan_threads(ls, analysis, sites)
        )
        first = next(f for f in findings if is_threading_site(f))
        rng = to_range(analysis.index, codec, first.span)
        diagnostic = _matching(params.context.diagnostics, first, rng)
        result += _offered(ls, threads, diagnostic, versioned)
    return result


def _offered(
    ls: LintgvServer,
    planned: multi_file_actions.Planned,
    diagnostic: types.Diagnostic | None,
    versioned: bool,
) -> list[types.CodeAction]:
    """Return the actions of planned changes; log why the others are not offered."""
    for reason in planned.refused:
        ls.log_message(reason)
    return [multi_file_actions.group_action(ls, c, diagnostic, versioned) for c in planned.changes]


async def _fix_all(ls: LintgvServer, analysis: Analysis, versioned: bool) -> list[types.CodeAction]:
    data = {"kind": FIX_ALL_DATA, "uri": analysis.uri, "version": analysis.version}
    if _resolves_edits(ls):
        return [actions.fix_all_action(analysis, None, data)]
    codec = ls.workspace.position_codec
    edits, _ = await ls.run_on_lint_thread(lambda: actions.fix_all_edits(analysis, codec, False))
    if not edits:
        return []
    edit = actions.workspace_edit(analysis.uri, analysis.version, edits, versioned)
    return [actions.fix_all_action(analysis, edit, None)]


async def resolve(ls: LintgvServer, action: types.CodeAction) -> types.CodeAction:
    """Fill in the edit of a fix-all action listed without one."""
    data = action.data if isinstance(action.data, dict) else {}
    if data.get("kind") != FIX_ALL_DATA or action.edit is not None:
        return action
    document = _open_document(ls, data.get("uri"), types.CODE_ACTION_RESOLVE)
    uri = document.uri
    analysis = await ls.analyse(document)
    codec = ls.workspace.position_codec
    edits, _ = await ls.run_on_lint_thread(lambda: actions.fix_all_edits(analysis, codec, False))
    action.edit = actions.workspace_edit(uri, analysis.version, edits, versioned_edits(ls))
    return action


async def hover(ls: LintgvServer, params: types.HoverParams) -> types.Hover | None:
    """Return the rule's explanation for a finding under the cursor."""
    document = ls.current_document(params.text_document.uri)
    if document is None:
        return None
    analysis = await ls.analyse(document)
    codec = ls.workspace.position_codec
    where = types.Range(start=params.position, end=params.position)
    point = to_span(analysis.index, codec, where)
    found = [
        f for f in analysis.result.findings if _covers(f.span, point.start_line, point.start_col)
    ]
    if not found:
        return None
    language = analysis.target.language if analysis.target is not None else None
    text = "\n\n".join(actions.hover_text(f, language) for f in found)
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text),
        range=to_range(analysis.index, codec, found[0].span),
    )


async def document_diagnostic(
    ls: LintgvServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    """Answer a pull for one document's diagnostics."""
    document = _open_document(ls, params.text_document.uri, types.TEXT_DOCUMENT_DIAGNOSTIC)
    analysis = await ls.analyse(document)
    ls.log_crashes(analysis)
    diagnostics = diagnostics_of(ls, analysis)
    ident = result_id(diagnostics)
    if params.previous_result_id == ident:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=ident)
    return types.RelatedFullDocumentDiagnosticReport(items=diagnostics, result_id=ident)


def path_of(uri: str) -> str:
    """Return the file system path of a `file:` URI (the URI itself otherwise)."""
    return fs_path(uri) or uri


def register(server: LintgvServer) -> None:
    """Register hover and code actions (pulled diagnostics are registered per client)."""
    server.feature(types.TEXT_DOCUMENT_HOVER)(hover)
    server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL_KIND],
            resolve_provider=True,
        ),
    )(code_actions)
    server.feature(types.CODE_ACTION_RESOLVE)(resolve)
