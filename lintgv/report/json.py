"""Findings as the JSON document that other tools consume (see README, "JSON output")."""

import json
from collections.abc import Sequence

from lintgv.model import Edit, FileError, Finding
from lintgv.paths import display_path

SCHEMA_VERSION = 1


def _edit(edit: Edit) -> dict[str, object]:
    span = edit.span
    entry: dict[str, object] = {
        "line": span.start_line,
        "column": span.start_col + 1,
        "end_line": span.end_line,
        "end_column": span.end_col + 1,
        "content": edit.text,
        "replaces": edit.old_text,
    }
    if edit.path is not None:  # a change across files: another file than the finding's
        entry["path"] = display_path(edit.path)
    return entry


def finding_dict(finding: Finding) -> dict[str, object]:
    """Return the JSON form of one finding: lines and columns 1-based."""
    fix = finding.fix
    return {
        "code": finding.code,
        "rule": finding.rule,
        "path": display_path(finding.path),
        "line": finding.span.start_line,
        "column": finding.span.start_col + 1,
        "end_line": finding.span.end_line,
        "end_column": finding.span.end_col + 1,
        "severity": str(finding.severity),
        "message": finding.message,
        "fix": None
        if fix is None
        else {
            "title": fix.title,
            "applicability": str(fix.applicability),
            "edits": [_edit(e) for e in fix.edits],
        },
    }


def error_dict(error: FileError) -> dict[str, object]:
    """Return the JSON form of a file that could not be checked."""
    entry: dict[str, object] = {"path": display_path(error.path), "message": error.message}
    if error.line is not None:
        entry["line"] = error.line
    if error.column is not None:
        entry["column"] = error.column
    if error.code is not None:
        entry["code"] = error.code
    if error.crash:
        entry["crash"] = True
    return entry


def render(findings: Sequence[Finding], errors: Sequence[FileError]) -> str:
    """Return the JSON report."""
    document = {
        "version": SCHEMA_VERSION,
        "findings": [finding_dict(f) for f in findings],
        "errors": [error_dict(e) for e in errors],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)
