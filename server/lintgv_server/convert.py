"""Pure conversions between lintgv's values and LSP's: spans to ranges in the client's
position encoding, findings to diagnostics, fixes to edits. No state, no I/O."""

import hashlib
import json
from collections.abc import Iterable, Sequence

from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.workspace.position_codec import PositionCodec, ServerTextPosition, ServerTextRange

from lintgv.lines import LineIndex
from lintgv.model import Edit, FileError, Finding, Severity, Span
from lintgv.registry import rule_codes

SOURCE = "lintgv"
PARSE_ERROR_CODE = "parse-error"
CONFIG_ERROR_CODE = "config-error"

_CONVERTER = get_converter()

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
# How a rule's findings are marked (RuleMeta.marks): faded or struck through.
_MARKS = {
    "unnecessary": types.DiagnosticTag.Unnecessary,
    "deprecated": types.DiagnosticTag.Deprecated,
}


def to_position(
    lines: Sequence[str], codec: PositionCodec, line: int, column: int
) -> types.Position:
    """Return the client position of a 1-based `line` and code-point `column`."""
    if line - 1 >= len(lines):
        return types.Position(line=len(lines), character=0)
    before = lines[line - 1][:column]
    if before.isascii():  # one code unit per character in every encoding
        return types.Position(line=line - 1, character=len(before))
    return codec.position_to_client_units(lines, ServerTextPosition(line - 1, column))


def to_range(lines: Sequence[str], codec: PositionCodec, span: Span) -> types.Range:
    """Return the client range of `span`."""
    return types.Range(
        start=to_position(lines, codec, span.start_line, span.start_col),
        end=to_position(lines, codec, span.end_line, span.end_col),
    )


def to_span(lines: Sequence[str], codec: PositionCodec, where: types.Range) -> Span:
    """Return the lintgv span of a client range."""
    # The codec may adjust the positions it is given, so it gets copies.
    start = types.Position(line=where.start.line, character=where.start.character)
    end = types.Position(line=where.end.line, character=where.end.character)
    server: ServerTextRange = codec.range_from_client_units(
        lines, types.Range(start=start, end=end)
    )
    return Span(
        server.start.line + 1, server.start.character, server.end.line + 1, server.end.character
    )


def _tags(code: str) -> list[types.DiagnosticTag] | None:
    rules = rule_codes().get(code)
    mark = _MARKS.get(rules[0].META.marks) if rules else None
    return [mark] if mark is not None else None


def to_diagnostic(
    lines: Sequence[str], codec: PositionCodec, finding: Finding, docs_href: str | None
) -> types.Diagnostic:
    """Return the diagnostic of one finding."""
    return types.Diagnostic(
        range=to_range(lines, codec, finding.span),
        message=finding.message,
        severity=_SEVERITY[finding.severity],
        code=finding.code,
        code_description=types.CodeDescription(href=docs_href) if docs_href else None,
        source=SOURCE,
        tags=_tags(finding.code),
    )


def error_diagnostic(
    lines: Sequence[str], codec: PositionCodec, error: FileError, code: str = PARSE_ERROR_CODE
) -> types.Diagnostic:
    """Return the one diagnostic of a document that could not be checked."""
    line = error.line or 1
    column = max((error.column or 1) - 1, 0) if error.line else 0
    start = to_position(lines, codec, line, column)
    end_line = lines[line - 1].rstrip("\r\n") if line - 1 < len(lines) else ""
    end = to_position(lines, codec, line, len(end_line)) if error.line else start
    return types.Diagnostic(
        range=types.Range(start=start, end=end),
        message=f"lintgv could not check this file: {error.message}",
        severity=types.DiagnosticSeverity.Error,
        code=code,
        source=SOURCE,
    )


def to_text_edits(
    lines: Sequence[str], codec: PositionCodec, edits: Iterable[Edit], newline: str
) -> list[types.TextEdit]:
    """Return the client edits of lintgv edits, their new text in the document's newline."""
    return [
        types.TextEdit(
            range=to_range(lines, codec, edit.span),
            new_text=edit.text.replace("\n", newline) if newline != "\n" else edit.text,
        )
        for edit in edits
    ]


def whole_text_edit(
    lines: Sequence[str], codec: PositionCodec, before: str, after: str
) -> list[types.TextEdit]:
    """Return one edit turning `before` into `after`: the changed middle only, so that
    the editor keeps the cursor and folds outside it. Both texts use the same newlines."""
    if before == after:
        return []
    prefix = 0
    limit = min(len(before), len(after))
    while prefix < limit and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < limit - prefix
        and before[len(before) - 1 - suffix] == after[len(after) - 1 - suffix]
    ):
        suffix += 1
    index = LineIndex(before)
    span = Span(*index.position(prefix), *index.position(len(before) - suffix))
    return [
        types.TextEdit(
            range=to_range(lines, codec, span), new_text=after[prefix : len(after) - suffix]
        )
    ]


def result_id(diagnostics: Sequence[types.Diagnostic]) -> str:
    """Return a pulled report's id: a digest of its diagnostics, so equal ids mean equal
    reports whatever happened in between (a settings refresh that changed nothing included)."""
    payload = json.dumps(_CONVERTER.unstructure(list(diagnostics)), sort_keys=True)
    return hashlib.blake2b(payload.encode(), digest_size=8).hexdigest()
