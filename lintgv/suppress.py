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

from lintgv.model import Applicability, Edit, Finding, Fix, Language, Severity, Span

MARKER = "lintgv:"
_DIRECTIVE = re.compile(r"lintgv:\s*ignore\b(?:\[([^\]]*)\])?")
_CPP_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


@dataclass(frozen=True)
class Suppression:
    line: int
    span: Span
    codes: tuple[str, ...]  # empty for a bare ignore
    # What to delete when every code is unused: the whole comment with the blanks before
    # it (the whole line when the comment stands alone), or only the directive when the
    # comment says more than it.
    removal: Span


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
    lines = text.splitlines()
    found = []
    for line, column, comment in comments:
        directives = list(_DIRECTIVE.finditer(comment))
        for match in directives:
            codes = tuple(c.strip() for c in (match.group(1) or "").split(",") if c.strip())
            start = column + match.start()
            span = Span(line, start, line, column + match.end())
            source_line = lines[line - 1] if line <= len(lines) else ""
            removal = _removal(source_line, line, column, comment, match, len(directives) == 1)
            found.append(Suppression(line, span, codes, removal))
    return found


def _removal(
    source_line: str, line: int, column: int, comment: str, match: re.Match[str], alone: bool
) -> Span:
    """Return the span to delete so that the directive `match` in `comment` is gone."""
    rest = (comment[: match.start()] + comment[match.end() :]).strip()
    is_empty = alone and rest in {"#", "//", "/*", "/**/", "/* */"}
    if not is_empty:
        # Other words share the comment: drop the directive and the blanks before it.
        start = match.start()
        while start > 0 and comment[start - 1] in " \t":
            start -= 1
        return Span(line, column + start, line, column + match.end())
    before = source_line[:column]
    if (
        not before.strip()
        and "\n" not in comment
        and column + len(comment) >= len(source_line.rstrip())
    ):
        return Span(line, 0, line + 1, 0)  # the comment is the whole line
    start = len(before.rstrip())
    return Span(line, start, line, column + len(comment))


def _unused_fix(suppression: Suppression, unused: list[str]) -> Fix:
    """Return the safe fix that takes the `unused` codes out of `suppression`."""
    left = [code for code in suppression.codes if code not in unused]
    if left:
        edit = Edit(suppression.span, f"lintgv: ignore[{', '.join(left)}]")
        title = f"Remove {', '.join(unused)} from the suppression"
    else:
        edit = Edit(suppression.removal, "")
        title = "Remove the unused suppression"
    return Fix(title, Applicability.SAFE, (edit,))


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
        if "GV902" not in enabled:
            continue
        reasons: dict[str, str] = {}
        for code in suppression.codes:
            if (suppression.line, code) in used:
                continue
            if code not in known:
                reasons[code] = f"`{code}` is not a lintgv code"
            elif code in enabled:
                reasons[code] = f"nothing here is reported as {code}"
            # else: that rule did not run, so whether it is needed is unknown
        if not reasons:
            continue
        # One fix for the whole comment, shared by its findings, so that fixing one code
        # never leaves the comment half edited.
        fix = _unused_fix(suppression, list(reasons))
        for code, why in reasons.items():
            message = f"unused suppression: {why}; remove `{code}` from the comment"
            kept.append(_meta_finding("GV902", path, suppression, severity_of, message, fix))
    return kept


def _meta_finding(
    code: str,
    path: Path,
    suppression: Suppression,
    severity_of: dict[str, Severity],
    message: str,
    fix: Fix | None = None,
) -> Finding:
    name = "bare-suppression" if code == "GV901" else "unused-suppression"
    return Finding(
        code,
        name,
        path,
        suppression.span,
        message,
        severity_of[code],
        fix,
        statement_line=suppression.line,
    )
