"""Code actions, hover text and edits of one analysed document: quick fixes looked up in
the fixes computed for the version, "ignore on this line", and fix-all."""

import logging
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

import lintgv
from lintgv.docs import render
from lintgv.edits import StaleEdit, located
from lintgv.lines import LineIndex, with_newline
from lintgv.model import Applicability, Edit, Finding, Language
from lintgv.registry import rule_codes
from lintgv_server.analysis import Analysis
from lintgv_server.convert import to_text_edits, whole_text_edit

FIX_ALL_KIND = "source.fixAll.lintgv"
_OFFERED = (Applicability.SAFE, Applicability.UNSAFE)
# Generated rule pages, present in a source checkout (not in an installed wheel).
_BUNDLED_DOCS = Path(lintgv.__file__).resolve().parent.parent / "docs" / "rules"

log = logging.getLogger(__name__)


def docs_href(code: str, template: str) -> str | None:
    """Return the address of a rule's page: the configured template, else the bundled page."""
    if template:
        return template.replace("{code}", code)
    page = _BUNDLED_DOCS / f"{code}.md"
    return page.as_uri() if page.is_file() else None


@cache
def hover_text(finding: Finding, language: Language | None) -> str:
    """Return the hover of a finding: its message once, then the rule's page with the
    document's language first."""
    rules = rule_codes().get(finding.code)
    head = f"**lintgv {finding.code}** ({finding.rule}): {finding.message}"
    if not rules:
        return head
    return f"{head}\n\n---\n\n{render(rules[0], first=language, message=False)}"


def wants(only: Sequence[str] | None, kind: str) -> bool:
    """Tell whether a request limited to the kinds `only` asks for actions of `kind`."""
    return only is None or any(kind == o or kind.startswith(o + ".") for o in only)


def workspace_edit(
    uri: str, version: int | None, edits: list[types.TextEdit], versioned: bool
) -> types.WorkspaceEdit:
    """Return an edit of one document; versioned when the client can check versions."""
    return documents_edit([(uri, version, edits)], versioned)


def documents_edit(
    documents: list[tuple[str, int | None, list[types.TextEdit]]], versioned: bool
) -> types.WorkspaceEdit:
    """Return one edit of several documents (uri, version, edits), applied all or none;
    versioned when the client can check versions (None for a document not open)."""
    if not versioned:
        return types.WorkspaceEdit(changes={uri: edits for uri, _, edits in documents})
    return types.WorkspaceEdit(
        document_changes=[
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=uri, version=version
                ),
                edits=list(edits),
            )
            for uri, version, edits in documents
        ]
    )


def quick_fix(
    analysis: Analysis,
    codec: PositionCodec,
    finding: Finding,
    fixed: Finding,
    diagnostic: types.Diagnostic | None,
    versioned: bool,
) -> types.CodeAction | None:
    """Return the quick fix of `finding`, using the fix computed for this version."""
    fix = fixed.fix
    if fix is None or fix.applicability not in _OFFERED:
        return None
    # The applier's check, as `lintgv fix` makes it: an edit whose place does not hold the
    # text it replaces is never offered.
    index = LineIndex(analysis.fix_source())
    try:
        for edit in fix.edits:
            located(index, edit)
    except StaleEdit as exc:
        log.warning("%s: quick fix of %s not offered: %s", analysis.uri, finding.code, exc)
        return None
    edits = to_text_edits(analysis.index, codec, fix.edits, analysis.newline)
    return types.CodeAction(
        title=f"{fix.title} ({finding.code})",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic] if diagnostic else None,
        is_preferred=fix.applicability == Applicability.SAFE,
        edit=workspace_edit(analysis.uri, analysis.version, edits, versioned),
    )


def ignore_action(
    analysis: Analysis,
    codec: PositionCodec,
    finding: Finding,
    edit: Edit | None,
    diagnostic: types.Diagnostic | None,
    versioned: bool,
) -> types.CodeAction | None:
    """Return "Ignore CODE on this line" applying `edit`, the proved suppression comment
    of `finding` (lintgv_server.ignores), or None when there is none."""
    if edit is None:
        return None
    edits = to_text_edits(analysis.index, codec, [edit], analysis.newline)
    return types.CodeAction(
        title=f"Ignore {finding.code} on this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic] if diagnostic else None,
        edit=workspace_edit(analysis.uri, analysis.version, edits, versioned),
    )


def fix_all_edits(
    analysis: Analysis, codec: PositionCodec, unsafe: bool
) -> tuple[list[types.TextEdit], int]:
    """Return the edits applying every safe (or also unsafe) fix, and how many fixes."""
    change = analysis.fixed_source(unsafe)
    if change is None:
        return [], 0
    before, after = change
    edits = whole_text_edit(codec, before, after)
    newline = analysis.newline
    edits = [
        types.TextEdit(range=e.range, new_text=with_newline(e.new_text, newline)) for e in edits
    ]
    settled = analysis.settled(unsafe)
    return edits, len(settled.applied) if settled else 0


def fix_all_action(
    analysis: Analysis, edit: types.WorkspaceEdit | None, data: object | None
) -> types.CodeAction:
    """Return the `source.fixAll.lintgv` action; without `edit`, it is resolved later."""
    return types.CodeAction(
        title="Fix all safe lintgv findings",
        kind=FIX_ALL_KIND,
        edit=edit,
        data=data,
    )
