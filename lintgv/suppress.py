"""Suppression comments: `# lintgv: ignore[GV101]` (Python) and `// lintgv: ignore[GV101]` (C++).

A comment on a finding's line, or on the first line of the statement holding it, drops
that finding. A bare `lintgv: ignore` suppresses nothing and is reported (GV901); a code
that suppressed nothing is reported too (GV902).
"""

import io
import re
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from lintgv.model import Finding, Language, Severity, Span

MARKER = "lintgv:"
_DIRECTIVE = re.compile(r"lintgv:\s*ignore\b(?:\[([^\]]*)\])?")
_CPP_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


@dataclass(frozen=True)
class Suppression:
    line: int
    span: Span
    codes: tuple[str, ...]  # empty for a bare ignore


def has_marker(text: str) -> bool:
    """Tell cheaply whether `text` may hold a suppression comment."""
    return MARKER in text


def _python_comments(text: str) -> Iterable[tuple[int, int, str]]:
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                yield token.start[0], token.start[1], token.string
    except (tokenize.TokenError, SyntaxError):
        # An unfinished file still gets its comments, found line by line.
        for number, line in enumerate(text.splitlines(), 1):
            index = line.find("#")
            if index >= 0:
                yield number, index, line[index:]


def _cpp_comments(text: str) -> Iterable[tuple[int, int, str]]:
    for match in _CPP_COMMENT.finditer(text):
        if MARKER not in match.group():
            continue
        line = text.count("\n", 0, match.start()) + 1
        column = match.start() - (text.rfind("\n", 0, match.start()) + 1)
        yield line, column, match.group()


def find_suppressions(text: str, language: Language) -> list[Suppression]:
    """Return every suppression comment in `text`."""
    if not has_marker(text):
        return []
    comments = _python_comments(text) if language == Language.PYTHON else _cpp_comments(text)
    found = []
    for line, column, comment in comments:
        for match in _DIRECTIVE.finditer(comment):
            codes = tuple(c.strip() for c in (match.group(1) or "").split(",") if c.strip())
            start = column + match.start()
            span = Span(line, start, line, column + match.end())
            found.append(Suppression(line, span, codes))
    return found


def apply_suppressions(
    findings: Sequence[Finding],
    suppressions: Sequence[Suppression],
    path: Path,
    enabled: set[str],
    severity_of: dict[str, Severity],
    known: frozenset[str],
) -> list[Finding]:
    """Drop suppressed findings; add GV901/GV902 findings for bad or unused comments."""
    by_line: dict[int, list[Suppression]] = {}
    for suppression in suppressions:
        by_line.setdefault(suppression.line, []).append(suppression)
    used: set[tuple[int, str]] = set()
    kept = []
    for finding in findings:
        lines = {finding.span.start_line, finding.statement_line}
        hit = [s for line in lines for s in by_line.get(line, ()) if finding.code in s.codes]
        if hit:
            used.update((s.line, finding.code) for s in hit)
        else:
            kept.append(finding)
    for suppression in suppressions:
        if not suppression.codes:
            if "GV901" in enabled:
                kept.append(
                    _meta_finding(
                        "GV901",
                        path,
                        suppression,
                        severity_of,
                        "bare `lintgv: ignore` suppresses nothing; name the codes, as in "
                        "`lintgv: ignore[GV101]`",
                    )
                )
            continue
        for code in suppression.codes:
            if (suppression.line, code) in used or "GV902" not in enabled:
                continue
            if code not in known:
                why = f"`{code}` is not a lintgv code"
            elif code not in enabled:
                continue  # that rule did not run, so whether it is needed is unknown
            else:
                why = f"nothing here is reported as {code}"
            kept.append(
                _meta_finding(
                    "GV902",
                    path,
                    suppression,
                    severity_of,
                    f"unused suppression: {why}; remove `{code}` from the comment",
                )
            )
    return kept


def _meta_finding(
    code: str, path: Path, suppression: Suppression, severity_of: dict[str, Severity], message: str
) -> Finding:
    name = "bare-suppression" if code == "GV901" else "unused-suppression"
    return Finding(
        code,
        name,
        path,
        suppression.span,
        message,
        severity_of[code],
        statement_line=suppression.line,
    )
