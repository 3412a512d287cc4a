"""Pure conversions between lintgv's values and LSP's: spans to ranges in the client's
position encoding, findings to diagnostics, fixes to edits. No state, no I/O."""

import json
import os
from collections.abc import Iterable, Sequence
from functools import lru_cache
from urllib.parse import unquote_to_bytes, urlsplit

from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.workspace.position_codec import PositionCodec

from lintgv.digest import blake2b
from lintgv.lines import LineIndex, with_newline
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


def fs_path(uri: str) -> str | None:
    """Return the file system path of a `file:` URI (None for another scheme). Escapes
    decode to bytes and the bytes to a name as `os.fsdecode` does, so that a name that
    is not UTF-8 (`%E9`) is the file's own, as `Path.as_uri` wrote it."""
    scheme, netloc, path, _, _ = urlsplit(uri)
    if scheme != "file":
        return None
    name = os.fsdecode(unquote_to_bytes(path))
    return f"//{netloc}{name}" if netloc and path else name  # a UNC path, as pygls has it


# A version's text is indexed for its document's changes and again for its analysis's
# diagnostics and actions: the last few indexes are kept.
@lru_cache(maxsize=8)
def line_index(text: str) -> LineIndex:
    """Return the LineIndex of `text`, shared by the lookups of one version."""
    return LineIndex(text)


def to_position(index: LineIndex, codec: PositionCodec, line: int, column: int) -> types.Position:
    """Return the client position of a 1-based `line` and code-point `column` (a line
    past the text's end is its end)."""
    if line > len(index):
        line, column = index.position(len(index.text))
    start = index.starts[line - 1]
    before = index.text[start : min(start + max(column, 0), index.content_end(line))]
    units = len(before) if before.isascii() else codec.client_num_units(before)
    return types.Position(line=line - 1, character=units)


def to_range(index: LineIndex, codec: PositionCodec, span: Span) -> types.Range:
    """Return the client range of `span`."""
    return types.Range(
        start=to_position(index, codec, span.start_line, span.start_col),
        end=to_position(index, codec, span.end_line, span.end_col),
    )


def to_offset(index: LineIndex, codec: PositionCodec, position: types.Position) -> int:
    """Return the text offset of a client position: a character past its line's end is
    the line's end, as the LSP says, and a line past the text's end is the text's end."""
    if position.line >= len(index):
        return len(index.text)
    start = index.starts[position.line]
    content = index.text[start : index.content_end(position.line + 1)]
    wanted = max(position.character, 0)
    if content[:wanted].isascii():  # one code unit per character in every encoding
        return start + min(wanted, len(content))
    units = 0
    for column, char in enumerate(content):
        if units >= wanted:
            return start + column
        units += codec.impl.code_units_for_char(char)
    return start + len(content)


def to_span(index: LineIndex, codec: PositionCodec, where: types.Range) -> Span:
    """Return the lintgv span of a client range."""
    start = index.position(to_offset(index, codec, where.start))
    return Span(*start, *index.position(to_offset(index, codec, where.end)))


def _tags(code: str) -> list[types.DiagnosticTag] | None:
    rules = rule_codes().get(code)
    mark = _MARKS.get(rules[0].META.marks) if rules else None
    return [mark] if mark is not None else None


def to_diagnostic(
    index: LineIndex, codec: PositionCodec, finding: Finding, docs_href: str | None
) -> types.Diagnostic:
    """Return the diagnostic of one finding."""
    return types.Diagnostic(
        range=to_range(index, codec, finding.span),
        message=finding.message,
        severity=_SEVERITY[finding.severity],
        code=finding.code,
        code_description=types.CodeDescription(href=docs_href) if docs_href else None,
        source=SOURCE,
        tags=_tags(finding.code),
    )


def error_diagnostic(
    index: LineIndex, codec: PositionCodec, error: FileError, code: str = PARSE_ERROR_CODE
) -> types.Diagnostic:
    """Return the diagnostic of a document that could not be checked, or of a rule that
    could not check it (its message names the rule, and the diagnostic its code)."""
    line = error.line or 1
    column = max((error.column or 1) - 1, 0) if error.line else 0
    start = to_position(index, codec, line, column)
    end = to_position(index, codec, line, len(index.line(line))) if error.line else start
    message = error.message if error.code else f"lintgv could not check this file: {error.message}"
    return types.Diagnostic(
        range=types.Range(start=start, end=end),
        message=message,
        severity=types.DiagnosticSeverity.Error,
        code=error.code or code,
        source=SOURCE,
    )


def to_text_edits(
    index: LineIndex, codec: PositionCodec, edits: Iterable[Edit], newline: str
) -> list[types.TextEdit]:
    """Return the client edits of lintgv edits, their new text in the document's newline."""
    return [
        types.TextEdit(
            range=to_range(index, codec, edit.span),
            new_text=with_newline(edit.text, newline),
        )
        for edit in edits
    ]


def whole_text_edit(codec: PositionCodec, before: str, after: str) -> list[types.TextEdit]:
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
    # No position names the middle of a `\r\n`: the edit takes in the whole break.
    if before[prefix - 1 : prefix + 1] == "\r\n":
        prefix -= 1
    end = len(before) - suffix
    if before[end - 1 : end + 1] == "\r\n":
        suffix -= 1
    index = line_index(before)
    span = Span(*index.position(prefix), *index.position(len(before) - suffix))
    return [
        types.TextEdit(
            range=to_range(index, codec, span), new_text=after[prefix : len(after) - suffix]
        )
    ]


def result_id(diagnostics: Sequence[types.Diagnostic]) -> str:
    """Return a pulled report's id: a digest of its diagnostics, so equal ids mean equal
    reports whatever happened in between (a settings refresh that changed nothing included)."""
    payload = json.dumps(_CONVERTER.unstructure(list(diagnostics)), sort_keys=True)
    return blake2b(payload.encode(), digest_size=8).hexdigest()
