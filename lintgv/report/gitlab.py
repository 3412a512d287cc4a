"""Findings as a GitLab Code Quality report (`artifacts: reports: codequality`).

https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format
Each finding is an issue with its rule as `check_name`, a severity, its file (relative to
the folder lintgv ran in) and first line, and a fingerprint that stays the same while
the flagged code does (a baseline's, with the path and an occurrence count), so GitLab
tells new findings from old ones across commits.

Each file (or rule on a file) that could not be checked is an issue too, a `blocker`: a
pipeline that keeps its job green whatever `check` returns, to publish the report, must
not show a clean report for code nobody checked.
"""

import hashlib
import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from lintgv.baseline import fingerprints
from lintgv.model import FileError, Finding, Severity
from lintgv.paths import display_path

_SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def render(
    findings: Sequence[Finding],
    errors: Sequence[FileError],
    sources: Mapping[Path, Sequence[str]],
) -> str:
    """Return the Code Quality report; `sources` maps a finding's path to its lines."""
    seen: Counter[tuple[str, str]] = Counter()
    issues: list[dict[str, object]] = []
    for finding in findings:
        path = display_path(finding.path)
        lines = sources.get(finding.path, ())
        _, context = fingerprints(finding, lines)
        seen[(path, context)] += 1
        key = f"{path}\0{context}\0{seen[(path, context)]}"
        issues.append(
            {
                "description": f"{finding.code} {finding.message}",
                "check_name": f"{finding.code} {finding.rule}",
                "fingerprint": hashlib.sha256(key.encode()).hexdigest()[:32],
                "severity": _SEVERITIES[finding.severity],
                "location": {"path": path, "lines": {"begin": finding.span.start_line}},
            }
        )
    # The folder a CI job runs in may differ from job to job: a message naming a file by
    # its absolute path (a broken config) is fingerprinted as if named from there.
    here = os.getcwd().rstrip(os.sep) + os.sep
    for error in errors:
        path = display_path(error.path)
        context = f"{error.code}\0{error.message.replace(here, '')}"
        seen[(path, context)] += 1
        issues.append(_not_checked(error, path, f"{path}\0{context}\0{seen[(path, context)]}"))
    return json.dumps(issues, indent=2, ensure_ascii=False)


def _not_checked(error: FileError, path: str, key: str) -> dict[str, object]:
    return {
        "description": error.message,
        "check_name": f"{error.code} not checked" if error.code else "not checked",
        "fingerprint": hashlib.sha256(key.encode()).hexdigest()[:32],
        "severity": "blocker",
        "location": {"path": path, "lines": {"begin": error.line or 1}},
    }
