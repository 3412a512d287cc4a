"""Findings as SARIF 2.1.0, for code-scanning services (GitHub, Azure DevOps, IDEs).

Columns are code points (`columnKind: unicodeCodePoints`), as everywhere in lintgv.
Paths inside the current folder are relative to `%SRCROOT%`, the current folder.
"""

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from urllib.parse import quote

from lintgv import __version__
from lintgv.baseline import fingerprints
from lintgv.docs import render as render_page
from lintgv.docs import summary_of
from lintgv.links import HOMEPAGE, rule_url
from lintgv.model import Edit, FileError, Finding, Severity, Span
from lintgv.paths import relative_path
from lintgv.registry import rule_codes

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _artifact(path: Path) -> dict[str, str]:
    shown = relative_path(path)
    if Path(shown).is_absolute():
        return {"uri": path.absolute().as_uri()}
    # Quote the name's bytes: a name that is not UTF-8 still names its file.
    return {"uri": quote(os.fsencode(shown)), "uriBaseId": SRCROOT}


def _region(span: Span) -> dict[str, int]:
    return {
        "startLine": span.start_line,
        "startColumn": span.start_col + 1,
        "endLine": span.end_line,
        "endColumn": span.end_col + 1,
    }


def _rules() -> tuple[list[dict[str, object]], dict[str, int]]:
    descriptors: list[dict[str, object]] = []
    indexes: dict[str, int] = {}
    for code, rules in rule_codes().items():
        meta = rules[0].META
        indexes[code] = len(descriptors)
        descriptors.append(
            {
                "id": code,
                "name": meta.name,
                "shortDescription": {"text": summary_of(rules[0])},
                "fullDescription": {"text": str(meta.message)},
                "help": {"text": str(meta.message), "markdown": render_page(rules[0])},
                "helpUri": rule_url(code),
                "defaultConfiguration": {
                    "level": _LEVELS[meta.severity],
                    "enabled": meta.default_enabled,
                },
                "properties": {"fix": str(meta.offered_fix)},
            }
        )
    return descriptors, indexes


def _replacement(edit: Edit) -> dict[str, object]:
    return {"deletedRegion": _region(edit.span), "insertedContent": {"text": edit.text}}


def _result(finding: Finding, index: int, lines: Sequence[str] | None) -> dict[str, object]:
    result: dict[str, object] = {
        "ruleId": finding.code,
        "ruleIndex": index,
        "level": _LEVELS[finding.severity],
        "message": {"text": finding.message},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": _artifact(finding.path),
                    "region": _region(finding.span),
                }
            }
        ],
    }
    if lines is not None:
        # The same fingerprint as a baseline's: stable while the flagged code is unchanged.
        result["partialFingerprints"] = {"lintgvContext/v1": fingerprints(finding, lines)[1]}
    if finding.fix is not None:
        # One artifact change per file: a change across files edits several.
        by_file: dict[Path, list[Edit]] = {}
        for edit in finding.fix.edits:
            by_file.setdefault(edit.path or finding.path, []).append(edit)
        changes = [
            {"artifactLocation": _artifact(path), "replacements": [_replacement(e) for e in edits]}
            for path, edits in by_file.items()
        ]
        result["fixes"] = [{"description": {"text": finding.fix.title}, "artifactChanges": changes}]
        result["properties"] = {"applicability": str(finding.fix.applicability)}
    return result


def _notification(error: FileError) -> dict[str, object]:
    location: dict[str, object] = {"artifactLocation": _artifact(error.path)}
    if error.line is not None:
        region = {"startLine": error.line}
        if error.column is not None:
            region["startColumn"] = error.column
        location["region"] = region
    notification: dict[str, object] = {
        "level": "error",
        "message": {"text": error.message},
        "locations": [{"physicalLocation": location}],
    }
    if error.code is not None:
        notification["associatedRule"] = {"id": error.code}
    if error.crash:
        # SARIF's own way to tell that the tool failed, not the file: a consumer tells a
        # bug to report apart from code the rule could not read.
        notification["exception"] = {"message": error.message}
    return notification


def render(
    findings: Sequence[Finding],
    errors: Sequence[FileError],
    sources: Mapping[Path, Sequence[str]],
) -> str:
    """Return the SARIF log; `sources` maps a finding's path to its lines, when known."""
    descriptors, indexes = _rules()
    run: dict[str, object] = {
        "tool": {
            "driver": {
                "name": "lintgv",
                "informationUri": HOMEPAGE,
                "version": __version__,
                "semanticVersion": __version__,
                "rules": descriptors,
            }
        },
        "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "invocations": [
            {
                "executionSuccessful": not errors,
                "toolExecutionNotifications": [_notification(e) for e in errors],
            }
        ],
        "results": [_result(f, indexes[f.code], sources.get(f.path)) for f in findings],
    }
    document = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(document, indent=2, ensure_ascii=False)
