"""Suppression comments: `# lintgv: ignore[GV101]` (Python) and `// lintgv: ignore[GV101]` (C++).

A comment on a finding's line, or on the first line of the statement holding it, drops
that finding. A bare `lintgv: ignore` suppresses nothing and is reported (GV901); a code
that suppressed nothing is reported too (GV902).
"""

import io
import re
import tokenize
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lintgv.fixes import offsets_of
from lintgv.lines import LineIndex, split_lines
from lintgv.model import Finding, Fix, Language, Severity, Span

MARKER = "lintgv:"
_DIRECTIVE = re.compile(r"lintgv:\s*ignore\b(?:\[([^\]]*)\])?")
_CPP_COMMENT = re.compile(r"//[^\r\n]*|/\*.*?\*/", re.S)  # a line comment ends at any break


@dataclass(frozen=True)
class Suppression:
    line: int
    span: Span  # the directive: the marker, `ignore` and the bracketed codes
    codes: tuple[str, ...]  # empty for a bare ignore
    directive: str  # the directive's text, which `span` holds
    # What to delete when every code is unused: the whole comment with the blanks before
    # it (the whole line when the comment stands alone), or only the directive when the
    # comment says more than it; and the text it holds.
    removal: Span
    removal_text: str


def has_marker(text: str) -> bool:
    """Tell cheaply whether `text` may hold a suppression comment."""
    return MARKER in text


def _python_comments(text: str, index: LineIndex) -> Iterable[tuple[int, str]]:
    """Yield the offset and text of each comment of Python `text`."""
    # tokenize reads lines split at "\n" only: its rows are turned into offsets here.
    row_starts = [0, *(m.end() for m in re.finditer("\n", text))]
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                row, column = token.start
                yield row_starts[row - 1] + column, token.string
    except (tokenize.TokenError, SyntaxError):
        # An unfinished file still gets its comments, found line by line.
        for number, line in enumerate(index.lines, 1):
            column = line.find("#")
            if column >= 0:
                yield index.offset(number, column), line[column:]


def _cpp_comments(text: str) -> Iterable[tuple[int, str]]:
    for match in _CPP_COMMENT.finditer(text):
        if MARKER in match.group():
            yield match.start(), match.group()


def find_suppressions(text: str, language: Language) -> list[Suppression]:
    """Return every suppression comment in `text`."""
    if not has_marker(text):
        return []
    index = LineIndex(text)
    comments = _python_comments(text, index) if language == Language.PYTHON else _cpp_comments(text)
    found = []
    for offset, comment in comments:
        if text[offset : offset + len(comment)] != comment:
            continue  # not where the tokenizer said: never edit on a guess
        line, column = index.position(offset)
        first_line = split_lines(comment)[0]
        directives = list(_DIRECTIVE.finditer(comment))
        for match in directives:
            codes = tuple(c.strip() for c in (match.group(1) or "").split(",") if c.strip())
            start_line, start = index.position(offset + match.start())
            end_line, end = index.position(offset + match.end())
            span = Span(start_line, start, end_line, end)
            if match.end() > len(first_line):
                removal = span  # a directive on a later line of a block comment
            else:
                removal = _removal(
                    index.line(line), line, column, comment, match, len(directives) == 1
                )
            removal_text = text[slice(*offsets_of(index, removal))]
            found.append(
                Suppression(start_line, span, codes, match.group(0), removal, removal_text)
            )
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
        and len(split_lines(comment)) == 1
        and column + len(comment) >= len(source_line.rstrip())
    ):
        return Span(line, 0, line + 1, 0)  # the comment is the whole line
    start = len(before.rstrip())
    return Span(line, start, line, column + len(comment))


# A comment rule's judgement of one comment (CommentRule.judge): given the codes it
# silenced, the codes that ran and every code there is, a (message, fix) per finding.
Judgement = Callable[
    [Suppression, frozenset[str], frozenset[str], frozenset[str]], list[tuple[str, Fix | None]]
]


class Covering:
    """Tells which suppressions cover a finding: one on the line it starts on or on its
    statement's first line that names its code."""

    def __init__(self, suppressions: Sequence[Suppression]) -> None:
        self.by_line: dict[int, list[Suppression]] = {}
        for suppression in suppressions:
            self.by_line.setdefault(suppression.line, []).append(suppression)

    def __call__(self, finding: Finding) -> list[Suppression]:
        lines = {finding.span.start_line, finding.statement_line}
        return [s for line in lines for s in self.by_line.get(line, ()) if finding.code in s.codes]


def apply_suppressions(
    findings: Sequence[Finding],
    suppressions: Sequence[Suppression],
    path: Path,
    judges: Sequence[tuple[str, str, Judgement]],
    ran: frozenset[str],
    severity_of: Mapping[str, Severity],
    known: frozenset[str],
) -> list[Finding]:
    """Drop suppressed findings; add the findings of the comment rules (GV9xx), given as
    (code, name, judgement), on the comments themselves."""
    covering = Covering(suppressions)
    used: dict[int, set[str]] = {}
    kept = []
    for finding in findings:
        hit = covering(finding)
        for suppression in hit:
            used.setdefault(suppression.line, set()).add(finding.code)
        if not hit:
            kept.append(finding)
    for suppression in suppressions:
        silenced = frozenset(used.get(suppression.line, ()))
        for code, name, judge in judges:
            for message, fix in judge(suppression, silenced, ran, known):
                kept.append(
                    Finding(
                        code,
                        name,
                        path,
                        suppression.span,
                        message,
                        severity_of[code],
                        fix,
                        statement_line=suppression.line,
                    )
                )
    return kept
