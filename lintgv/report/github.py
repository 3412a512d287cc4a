"""Findings as GitHub Actions workflow commands: each one becomes an annotation on the PR.

https://docs.github.com/actions/reference/workflow-commands-for-github-actions
"""

from collections.abc import Sequence

from lintgv.model import FileError, Finding, Severity
from lintgv.paths import display_path

_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(level: str, properties: dict[str, object], message: str) -> str:
    props = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties.items())
    return f"::{level} {props}::{_escape_data(message)}"


def finding_line(finding: Finding) -> str:
    """Return the workflow command that annotates one finding."""
    span = finding.span
    properties: dict[str, object] = {
        "file": display_path(finding.path),
        "line": span.start_line,
        "endLine": span.end_line,
        "title": f"{finding.code} {finding.rule}",
    }
    # GitHub accepts columns only for an annotation within one line.
    if span.start_line == span.end_line:
        properties["col"] = span.start_col + 1
        properties["endColumn"] = span.end_col + 1
    return _command(_LEVELS[finding.severity], properties, f"{finding.code} {finding.message}")


def error_line(error: FileError) -> str:
    """Return the workflow command that annotates a file that could not be checked."""
    properties: dict[str, object] = {"file": display_path(error.path)}
    if error.line is not None:
        properties["line"] = error.line
    if error.column is not None:
        properties["col"] = error.column
    # A rule that could not check the file is named: the other rules did check it.
    checker = error.code or "lintgv"
    properties["title"] = f"{checker} could not check this file"
    return _command("error", properties, error.message)


def render(findings: Sequence[Finding], errors: Sequence[FileError]) -> str:
    """Return one workflow command per finding and per error."""
    return "\n".join([finding_line(f) for f in findings] + [error_line(e) for e in errors])
