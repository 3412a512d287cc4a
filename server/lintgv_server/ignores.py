"""The edits of "Ignore CODE on this line": a suppression comment at the end of the
finding's line (else of its statement's first line), or its code joined to a directive
already there, each proved before it is offered: the directive is found again in the
text the edit makes, and a new comment is a comment there (not a string's text, not a
continued line broken).

A proof reads the whole document, so the findings of one request are proved together:
their new comments, one per line, applied at once and read once. Only comments that
cannot change how the rest reads are: a Python `#` or C++ `//` comment, which ends with
its line, not joining a comment already there, in a document that lexes to its end
(and, C++, parses). A code joined to a directive, a C++ `/* */` comment (a macro's
line) and every comment of a document too broken for that are proved one by one, as is
each comment of a batch that fails. Proved edits are kept per document version.
"""

from bisect import bisect_right
from collections.abc import Sequence

from lintgv.edits import apply_edits
from lintgv.errors import ParseError
from lintgv.model import Edit, Finding, Language, Span
from lintgv.parsing.comments import cpp_comments, python_comments
from lintgv.parsing.cpp import parse_cpp
from lintgv.parsing.python import python_error
from lintgv.records import frozen
from lintgv.registry import codes_where
from lintgv.rules._base import MigrationPhase
from lintgv.suppress import Suppression, find_suppressions
from lintgv_server.analysis import Analysis

# The findings of the rules on suppression comments (GV901, GV902) are made after the
# comments are applied: a comment suppresses none of them, and one added would be another.
_ON_COMMENTS = codes_where(lambda meta: meta.phase is MigrationPhase.SUPPRESSIONS)


@frozen
class _Proposal:
    """An edit that would suppress `code` on `line`, not yet proved."""

    code: str
    line: int
    edit: Edit
    # Where a new comment's marker goes in the document (None: the code joins an existing
    # directive), and whether the edit may be proved with others: a new comment that
    # ends with its line, which changes how nothing after it reads.
    marker: int | None
    batched: bool


def ignore_edits(analysis: Analysis, findings: Sequence[Finding]) -> list[Edit | None]:
    """Return, for each of `findings`, the proved edit that suppresses it, or None when a
    comment can go neither on its line nor on its statement's first line, or when no
    comment can suppress it (a finding on a suppression comment itself)."""
    known = analysis.ignores
    # First on each finding's own line; then, where no comment can go there, on the first
    # line of its statement.
    for choice in (0, 1):
        wanted: dict[tuple[str, int], _Proposal | None] = {}
        for finding in findings:
            lines = _lines(finding)
            if finding.code in _ON_COMMENTS:
                continue  # never proposed, so never chosen
            if choice >= len(lines) or any(known[(finding.code, n)] for n in lines[:choice]):
                continue
            key = (finding.code, lines[choice])
            if key not in known and key not in wanted:
                wanted[key] = _proposal(analysis, *key)
        _prove(analysis, wanted)
    return [_chosen(known, f) for f in findings]


def _lines(finding: Finding) -> list[int]:
    return [n for n in dict.fromkeys((finding.span.start_line, finding.statement_line)) if n]


def _chosen(known: dict[tuple[str, int], Edit | None], finding: Finding) -> Edit | None:
    for line in _lines(finding):
        edit = known.get((finding.code, line))
        if edit is not None:
            return edit
    return None


@frozen
class _Facts:
    """What the proofs read of a document version, once."""

    directives: dict[int, Suppression]  # the first directive with codes on each line
    comments: list[tuple[int, int]]  # where each comment starts and ends
    # Whether comments may be proved together: the document lexes to its end, and (C++)
    # parses. Else one comment could change how another reads, or whether it parses.
    together: bool


def _facts(analysis: Analysis) -> _Facts:
    if analysis.ignore_facts is None:
        assert analysis.target is not None
        language = analysis.target.language
        text = analysis.text
        directives: dict[int, Suppression] = {}
        for suppression in find_suppressions(text, language):
            if suppression.codes:
                directives.setdefault(suppression.line, suppression)
        found = python_comments(text) if language == Language.PYTHON else cpp_comments(text)
        comments = [(c.offset, c.offset + len(c.text)) for c in found.found]
        together = found.is_certain and (language == Language.PYTHON or _parses(text))
        analysis.ignore_facts = _Facts(directives, comments, together)
    facts = analysis.ignore_facts
    assert isinstance(facts, _Facts)
    return facts


def _parses(text: str) -> bool:
    try:
        parse_cpp(text)
    except ParseError:
        return False
    return True


def _in_comment(facts: _Facts, offset: int) -> bool:
    """Tell whether text inserted at `offset` joins a comment already there."""
    at = bisect_right(facts.comments, (offset, offset)) - 1
    return at >= 0 and facts.comments[at][0] <= offset <= facts.comments[at][1]


def _proposal(analysis: Analysis, code: str, line: int) -> _Proposal | None:
    assert analysis.target is not None
    if line > len(analysis.index):
        return None
    facts = _facts(analysis)
    existing = facts.directives.get(line)
    if existing is not None:
        if existing.span.end_line != line:
            # Written on one line, a directive broken over several would move the code
            # after it up a line, under the comment.
            return None
        codes = ", ".join((*existing.codes, code))
        edit = Edit(existing.span, f"lintgv: ignore[{codes}]", existing.directive)
        return _Proposal(code, line, edit, None, False)
    body = analysis.index.line(line)
    end = len(body)
    line_comment = True
    if analysis.target.language == Language.PYTHON:
        # A `\` continues the line, and no comment can come after it; one that ends the
        # line's own comment is that comment's text.
        rest = body.rstrip()
        if rest.endswith("\\") and not _in_comment(
            facts, analysis.index.offset(line, len(rest) - 1)
        ):
            return None
        comment = f"  # lintgv: ignore[{code}]"
    elif body.rstrip().endswith("\\"):  # a macro's line: the comment goes before the `\`
        end = len(body.rstrip()) - 1
        comment = f"/* lintgv: ignore[{code}] */ "
        line_comment = False
    else:
        comment = f"  // lintgv: ignore[{code}]"
    at = analysis.index.offset(line, end)
    marker = at + len(comment) - len(comment.lstrip())
    edit = Edit(Span(line, end, line, end), comment, "")
    together = line_comment and facts.together and not _in_comment(facts, at)
    return _Proposal(code, line, edit, marker, together)


def _prove(analysis: Analysis, wanted: dict[tuple[str, int], _Proposal | None]) -> None:
    """Prove the proposals `wanted` holds and keep each one's edit (None: not proved)."""
    known = analysis.ignores
    batches: list[list[_Proposal]] = []
    together: dict[int, _Proposal] = {}
    for key, proposal in wanted.items():
        if proposal is None:
            known[key] = None
        elif proposal.batched and proposal.line not in together:
            together[proposal.line] = proposal
        else:
            batches.append([proposal])
    if together:
        batch = list(together.values())
        proved = _proved(analysis, batch)
        for proposal, ok in zip(batch, proved, strict=True):
            if ok or len(batch) == 1:
                known[(proposal.code, proposal.line)] = proposal.edit if ok else None
            else:
                batches.append([proposal])
    for (proposal,) in batches:
        (ok,) = _proved(analysis, [proposal])
        known[(proposal.code, proposal.line)] = proposal.edit if ok else None


def _proved(analysis: Analysis, batch: list[_Proposal]) -> list[bool]:
    """Tell, for each proposal of `batch` (one per line), whether the text all of them
    make suppresses its code on its line with a comment that is a comment there."""
    assert analysis.target is not None
    language = analysis.target.language
    after = apply_edits(analysis.text, [p.edit for p in batch])
    found = {
        (s.line, code) for s in find_suppressions(after, language) if s.codes for code in s.codes
    }
    proved = [(p.line, p.code) in found for p in batch]
    new = [i for i, p in enumerate(batch) if proved[i] and p.marker is not None]
    if not new:
        return proved
    if language == Language.PYTHON:
        # A misplaced comment is a syntax error; in a document that has one, the same one.
        error = python_error(after)
        fine = error is None or error == analysis.syntax_error
        return [ok and (batch[i].marker is None or fine) for i, ok in enumerate(proved)]
    try:
        root = parse_cpp(after).root
    except ParseError:  # too broken to tell (more than the document was): not proved
        return [ok and batch[i].marker is None for i, ok in enumerate(proved)]
    shifts = _shifts(batch)
    for i in new:
        marker = batch[i].marker
        assert marker is not None
        at = marker + shifts[i]
        byte = len(after[:at].encode("utf-8"))
        node = root.descendant_for_byte_range(byte, byte + 1)
        proved[i] = node is not None and node.type == "comment"
    return proved


def _shifts(batch: list[_Proposal]) -> list[int]:
    """Return how far each proposal's marker moves in the text all of them make: by
    what the edits before it in the text add."""
    index = [(p.edit.span.start_line, p.edit.span.start_col) for p in batch]
    return [
        sum(
            len(other.edit.text) - len(other.edit.old_text)
            for j, other in enumerate(batch)
            if index[j] < index[i]
        )
        for i in range(len(batch))
    ]
