"""Suppression comments: `# lintgv: ignore[GV101]` (Python) and `// lintgv: ignore[GV101]` (C++).

A comment on a finding's line, or on the first line of the statement holding it, drops
that finding. A bare `lintgv: ignore` suppresses nothing and is reported (GV901); a code
that suppressed nothing is reported too (GV902).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lintgv.lines import LineIndex
from lintgv.model import Edit, Finding, Fix, Language, Message, Severity, Span
from lintgv.records import frozen

if TYPE_CHECKING:
    from lintgv.parsing.comments import Comment

MARKER = "lintgv:"
# A whole word: `# nolintgv: ignore[GV101]` is not a directive.
_DIRECTIVE = re.compile(r"(?<![\w-])lintgv:\s*ignore\b(?:\[([^\]]*)\])?")
_WORD = re.compile(r"\w")
_BLANKS = " \t\f\v"
# A comment inside a comment: the directive's own `#` after another tool's (noqa), say.
_INNER_MARKER = {Language.PYTHON: "#", Language.CPP: "//"}
# What the first two lines of a Python file may declare (PEP 263, and `#!`).
_CODING = re.compile(r"coding[:=]")


@frozen
class Suppression:
    line: int
    span: Span  # the directive: the marker, `ignore` and the bracketed codes
    codes: tuple[str, ...]  # empty for a bare ignore
    directive: str  # the directive's text, which `span` holds
    # The edit that takes the directive out of its comment, or None where no edit is
    # certain to change nothing but the comment (see _removal).
    removal: Edit | None


def has_marker(text: str) -> bool:
    """Tell cheaply whether `text` may hold a suppression comment."""
    return MARKER in text


def find_suppressions(text: str, language: Language) -> list[Suppression]:
    """Return every suppression comment in `text`."""
    if not has_marker(text):
        return []
    # Imported here: the lexers compile a score of patterns, and most files hold no marker.
    from lintgv.parsing.comments import cpp_comments, python_comments

    index = LineIndex(text)
    comments = python_comments(text) if language == Language.PYTHON else cpp_comments(text)
    found = []
    for comment in comments.found:
        directives = list(_DIRECTIVE.finditer(comment.text))
        for match in directives:
            codes = tuple(c.strip() for c in (match.group(1) or "").split(",") if c.strip())
            start = index.position(comment.offset + match.start())
            span = Span(*start, *index.position(comment.offset + match.end()))
            removal = None
            if comments.is_certain:  # else a "comment" may be part of a string
                removal = _removal(index, comment, match, len(directives), language)
            found.append(Suppression(start[0], span, codes, match.group(0), removal))
    return found


def _removal(
    index: LineIndex, comment: Comment, match: re.Match[str], directives: int, language: Language
) -> Edit | None:
    """Return the edit that takes the directive `match` out of `comment`, or None."""
    text = comment.text
    opening = next((o for o in ("#", "//", "/*") if text.startswith(o)), None)
    if opening is None or _is_declaration(index, comment, language):
        return None  # a comment opened across a line splice; an encoding or `#!` line
    if opening == "//" and text.rstrip(_BLANKS).endswith(_TRIGRAPH_SPLICE):
        return None  # continued on the next line, or not, by the compiler's trigraphs
    start, end = _extent(text, len(opening), match, _INNER_MARKER[language])
    if not _WORD.search(text[:start] + text[end:]):
        return _comment_removal(index, comment, language)  # no words would be left
    # Removing two directives of one comment at once could leave a bare `#`, so the edit
    # starts at the comment's opening: the removals of its directives overlap, and each
    # after the first waits for the next round of fixes, made against the comment as it
    # is then. (The first has nothing but its own comment text before it.)
    first = 0 if directives > 1 else start
    return _edit(index, comment.offset + first, comment.offset + end, text[first:start])


# `??/` is a backslash to a C or C++ compiler that reads trigraphs (C up to C17, C++ up
# to C++14, `-trigraphs`), and nothing to one that does not: at a line's end it splices
# the next line into a `//` comment for one and not the other, so no edit of such a
# comment, or removal of the line after it, is certain to mean the same to both.
_TRIGRAPH_SPLICE = "??/"


def _is_declaration(index: LineIndex, comment: Comment, language: Language) -> bool:
    """Tell whether `comment` is on a line that Python reads before the code: the `#!`
    line, or an encoding declaration on line 1 or 2, which an edit could change."""
    line = index.position(comment.offset)[0]
    if language != Language.PYTHON or line > 2:
        return False
    return (line == 1 and comment.text.startswith("#!")) or bool(_CODING.search(comment.text))


def _extent(comment: str, opening: int, match: re.Match[str], marker: str) -> tuple[int, int]:
    """Return the part of `comment` that goes with the directive `match`: the directive
    and the blanks before it, with the marker that opens it inside the comment
    (`# noqa  # lintgv: ...`), or, when it opens the comment, the marker after it
    (`# lintgv: ... # noqa`)."""
    start = len(comment[: match.start()].rstrip(_BLANKS))
    end = match.end()
    if start - len(marker) >= opening and comment.startswith(marker, start - len(marker)):
        return len(comment[: start - len(marker)].rstrip(_BLANKS)), end
    after = len(comment) - len(comment[end:].lstrip(_BLANKS))
    if start == opening and comment.startswith(marker, after):
        return start, after + len(marker)
    return start, end


def _comment_removal(index: LineIndex, comment: Comment, language: Language) -> Edit:
    """Return the edit that removes `comment` without joining what is around it."""
    start = comment.offset
    end = start + len(comment.text)
    line, _ = index.position(start)
    end_line, _ = index.position(end)
    line_start = index.starts[line - 1]
    before = index.text[line_start:start]
    after = index.text[end : index.content_end(end_line)]
    if after.strip(_BLANKS):
        # Code follows on the line (C++ `return/**/x;`): one blank must stay between.
        if not before or before[-1] in _BLANKS:
            end += len(after) - len(after.lstrip(_BLANKS))
            return _edit(index, start, end, "")
        return _edit(index, start, end, "" if after[0] in _BLANKS else " ")
    if before.strip(_BLANKS) or line != end_line:
        return _edit(index, line_start + len(before.rstrip(_BLANKS)), end, "")
    if _may_remove_line(index, line, language):
        next_start = index.starts[line] if line < len(index) else len(index.text)
        return _edit(index, line_start, next_start, "")
    return _edit(index, line_start, end, "")  # the line stays, empty


def _may_remove_line(index: LineIndex, line: int, language: Language) -> bool:
    """Tell whether deleting `line` leaves every other line as it was."""
    if index.line(line - 1).rstrip(_BLANKS).endswith(("\\", _TRIGRAPH_SPLICE)):
        return False  # a splice or continuation would join the next line to the last
    # Python reads the first two lines for an encoding declaration (and the first for
    # `#!`): deleting one of them would move a later line up into that place.
    return language != Language.PYTHON or line > 2


def _edit(index: LineIndex, start: int, end: int, new: str) -> Edit:
    span = Span(*index.position(start), *index.position(end))
    return Edit(span, new, index.text[start:end])


# A comment rule's judgement of one comment (CommentRule.judge): given the codes it
# silenced, the codes that ran and every code there is, a (message, fix) per finding.
Judgement = Callable[
    [Suppression, frozenset[str], frozenset[str], frozenset[str]], list[tuple[Message, Fix | None]]
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
                        str(message),
                        severity_of[code],
                        fix,
                        statement_line=suppression.line,
                    )
                )
    return kept
