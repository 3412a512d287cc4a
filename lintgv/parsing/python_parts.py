"""A module parsed piece by piece: each top-level statement, each member of a long class
and each run of statements of a long function parsed alone, and put together into the
module libcst's parse of the whole text gives, node for node. An editor's next version
reuses the pieces an edit left alone; every parse is bounded by its largest piece's
memory."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from itertools import pairwise

from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.cst_parse import unchecked_parse
from lintgv.parsing.python_lines import Logical, line_offsets, logical_lines


class ModuleParts:
    """libcst's parses of one document's pieces (top-level statements, members of a long
    class, runs of statements of a long function), by their text: the document's next
    version is parsed by parsing only the pieces an edit changed, and putting the module
    together from those and the kept ones. Only the last version's pieces are kept, so
    memory follows the document. A check without an editor uses a new one per file. Used
    by one thread at a time."""

    def __init__(self) -> None:
        self._parsed: dict[str, cst.Module] = {}

    def __len__(self) -> int:
        """Return how many pieces' parses are kept."""
        return len(self._parsed)

    def parse(self, text: str) -> cst.Module:
        """Return libcst's module of `text`, equal to `cst.parse_module(text)`."""
        pieces = _pieces(text)
        kept: dict[str, cst.Module] = {}
        try:
            modules = [self._piece(piece, lines, kept) for piece, lines in pieces or ()]
        except cst.ParserSyntaxError:
            # The scan cut where Python does not (a string it misreads, such as a
            # Python 3.12 f-string holding its own quote): the whole text settles it.
            modules = []
        self._parsed = kept
        module = _joined(modules)
        return module if module is not None else unchecked_parse(text)

    def _piece(self, piece: str, lines: _Lines, kept: dict[str, cst.Module]) -> cst.Module:
        """Return the module of one top-level statement (`lines`: its logical lines): a
        long class member by member, a long function some statements at a time."""
        parts = _block_parts(piece, *lines()) if len(piece) > SPLIT_SIZE else None
        if parts is not None:
            head, members, wrapper = parts
            newline = "\r\n" if "\r\n" in head else "\n"
            try:
                shell = self._part(head + members[0], kept)
                wrapped = [self._part(f"{wrapper}{newline}{m}", kept) for m in members[1:]]
            except cst.ParserSyntaxError:
                pass  # a member libcst reads otherwise alone than in its block: parse it whole
            else:
                module = _block_joined(shell, wrapped)
                if module is not None:
                    return module
        return self._part(piece, kept)

    def _part(self, text: str, kept: dict[str, cst.Module]) -> cst.Module:
        # A node appears once in a module (rules map nodes by identity): a part that
        # repeats is parsed again.
        module = None if text in kept else self._parsed.get(text)
        if module is None:
            module = unchecked_parse(text)
        kept.setdefault(text, module)
        return module


# A top-level class longer than this is parsed one member at a time, and a function
# in runs of statements about this long (a parse of each statement alone costs more than
# its line): libcst's native parser holds several hundred bytes per byte of its input
# until it is done, so a large class or function would set a run's peak memory (and an
# edit of one method would parse them all); and it takes longer per byte over a long
# text (a function of 8,000 lines: 0.76 s whole, 0.56 s in runs of 4 KB). At 1 KB
# rather than 4, a check of TVM v0.16's Python files in one process peaks 1.5 MiB lower
# (36.7 MiB against 38.2) in the same time; smaller runs lower it no further.
SPLIT_SIZE = 1024
_BLOCK = re.compile(r"class\b|(async[ \t]+)?def\b")
# A line that starts a class or function at the top level; a piece without one is
# neither, which is told without scanning its logical lines.
_BLOCK_LINE = re.compile(r"^(?:class|def|async[ \t]+def)\b", re.M)


# Characters Python or libcst read as a line break or an indentation reset where the
# line scan sees plain text, and a line of blanks and a backslash, which libcst reads
# otherwise at the end of a piece than within a whole text (its parse of
# `x = 1\n\n \\\n\n` is a line short): a text holding one is parsed whole.
_ODD = re.compile("[\f\v\x1c\x1d\x1e\x85\u2028\u2029]|\r(?!\n)|^[ \t]*\\\\\r?$", re.M)
# A logical line that continues the statement before it. A decorator starts one: a
# piece begins at a definition's first decorator (see _pieces).
_CONTINUES = re.compile(r"(?:elif|else|except|finally)\b")


# A piece's line offsets and logical lines, as line_offsets and logical_lines give them
# for the piece alone: taken from the whole text's scan when a piece asks for them.
_Lines = Callable[[], tuple[list[int], list[Logical]]]


def _pieces(text: str) -> list[tuple[str, _Lines]] | None:
    """Split `text` before each top-level statement and the comment and blank lines
    above it, where those lines lead it (see _leads), each piece with its lines; None
    when `text` cannot be scanned, holds a character the scan misreads, or does not end
    with a newline."""
    if not text.endswith("\n") or _ODD.search(text) or "\ufeff" in text[1:]:
        return None  # a byte-order mark past the start: a piece would begin with one
    offsets = line_offsets(text)
    logical = logical_lines(text, offsets)
    if logical is None:
        return None
    # Where each piece starts: its first physical line, and its first logical line.
    cuts = [(0, 0)]
    for at, (before, item) in enumerate(pairwise(logical), 1):
        if item.indent or _CONTINUES.match(text, offsets[item.first]):
            continue
        if text.startswith("@", offsets[before.first]):
            continue  # a decorator and what it decorates are one statement
        cut = offsets[before.last + 1]
        if _leads(text[cut : offsets[item.first]], ""):
            cuts.append((before.last + 1, at))
    cuts.append((len(offsets) - 1, len(logical)))  # `text` ends with a line break
    return [
        (
            text[offsets[start] : offsets[end]],
            partial(_lines_of, offsets, logical, start, end, a, b),
        )
        for (start, a), (end, b) in pairwise(cuts)
    ]


def _lines_of(
    offsets: list[int], logical: list[Logical], start: int, end: int, first: int, last: int
) -> tuple[list[int], list[Logical]]:
    """Return the line offsets and logical lines of the piece that holds physical lines
    `start` to `end` and logical lines `logical[first:last]`, as a scan of the piece
    alone gives them: a piece starts where a logical line may, outside any bracket or
    string, so the scan of the whole text is in the same state there."""
    base = offsets[start]
    return (
        [offset - base for offset in offsets[start : end + 1]],
        [Logical(i.first - start, i.last - start, i.indent) for i in logical[first:last]],
    )


def _leads(between: str, indent: str) -> bool:
    """Tell whether the whole lines `between` two statements lead the second one in a
    parse of the whole text: each is empty, or a comment at the statement's `indent`.
    libcst gives a line indented further (even one of blanks) to the block before."""
    lines = between.split("\n")[:-1]  # `between` ends with its last line's break
    return all(not line.rstrip("\r") or line.startswith(indent + "#") for line in lines)


def _block_parts(
    piece: str, offsets: list[int], logical: list[Logical]
) -> tuple[str, list[str], str] | None:
    """Split one top-level class or function statement (its decorators and the comment
    and blank lines above it included) into its head, up to the end of its `class` or
    `def` line, its members (a class's) or runs of statements (a function's), each with
    the comment and blank lines above it, and the header under which one of those parses
    alone (`class _:`, `def _():`); None when the piece is not one such statement or a
    cut could move a line to another owner (see _pieces). `offsets` and `logical` are
    the piece's line offsets and logical lines."""
    if _BLOCK_LINE.search(piece) is None:
        return None
    if not logical:
        return None
    at = 0
    while at < len(logical) and piece.startswith("@", offsets[logical[at].first]):
        at += 1  # decorators
    block = _BLOCK.match(piece, offsets[logical[at].first]) if at < len(logical) else None
    if block is None:
        return None
    header, body = logical[at], logical[at + 1 :]
    if not body or offsets[body[-1].last + 1 : body[-1].last + 2] != [len(piece)]:
        return None  # the block's suite is on its line, or lines follow its last one
    first = offsets[body[0].first]
    indent = piece[first : first + body[0].indent]
    if not indent or any(line.indent < len(indent) for line in body):
        return None  # something at the top level after the header: not one block
    cuts = [offsets[header.last + 1]]
    for before, item in pairwise(body):
        start = offsets[item.first]
        if item.indent != len(indent) or not piece.startswith(indent, start):
            continue
        if _CONTINUES.match(piece, start + len(indent)):
            continue  # elif, else, except, finally
        if piece.startswith(indent + "@", offsets[before.first]):
            continue  # a decorator and what it decorates are one member
        cut = offsets[before.last + 1]
        if _leads(piece[cut:start], indent):
            cuts.append(cut)
    if len(cuts) < 2:
        return None  # one member: nothing to split
    cuts.append(len(piece))
    members = [piece[a:b] for a, b in pairwise(cuts)]
    if block.group().startswith("class"):
        return piece[: cuts[0]], members, "class _:"
    wrapper = "async def _():" if block.group(1) else "def _():"
    return piece[: cuts[0]], _runs(members), wrapper


def _runs(statements: list[str]) -> list[str]:
    """Return `statements` joined into runs of at least SPLIT_SIZE characters (the last
    may be shorter)."""
    runs: list[str] = []
    run: list[str] = []
    length = 0
    for statement in statements:
        run.append(statement)
        length += len(statement)
        if length >= SPLIT_SIZE:
            runs.append("".join(run))
            run, length = [], 0
    if run:
        runs.append("".join(run))
    return runs


def _block_joined(shell: cst.Module, wrapped: list[cst.Module]) -> cst.Module | None:
    """Return `shell` (a module of one class or function with its first member or run)
    with the statements of the `wrapped` modules (each `class _:` or `def _():` around
    some) added, or None when their parses do not fit together as one block's would."""
    if len(shell.body) != 1 or shell.footer:
        return None
    block = shell.body[0]
    if not isinstance(block, cst.ClassDef | cst.FunctionDef):
        return None
    if not isinstance(block.body, cst.IndentedBlock) or block.body.footer:
        return None
    members = list(block.body.body)
    for module in wrapped:
        holder = module.body[0] if len(module.body) == 1 else None
        if (
            type(holder) is not type(block)
            or not isinstance(holder, cst.ClassDef | cst.FunctionDef)
            or not isinstance(holder.body, cst.IndentedBlock)
            or holder.body.footer
            or module.header
            or module.footer
            or module.default_indent != shell.default_indent
            or module.default_newline != shell.default_newline
        ):
            return None
        members.extend(holder.body.body)
    return shell.with_changes(
        body=(block.with_changes(body=block.body.with_changes(body=members)),)
    )


def _joined(modules: list[cst.Module]) -> cst.Module | None:
    """Return one module of the pieces' modules, or None when libcst would have read the
    whole text otherwise: another indentation or line end detected, or a piece that does
    not start with a statement."""
    if not modules:
        return None
    indents = {m.default_indent for m in modules if _has_block(m)}
    newlines = {m.default_newline for m in modules}
    if len(indents) > 1 or len(newlines) > 1 or any(not m.body for m in modules[1:]):
        return None
    body = list(modules[0].body)
    for before, module in pairwise(modules):
        # The comment and blank lines that end a piece lead the next statement, as
        # they do in the whole text.
        lines = (*before.footer, *module.header)
        leading = module.body[0]
        body.append(leading.with_changes(leading_lines=(*lines, *leading.leading_lines)))
        body.extend(module.body[1:])
    first, last = modules[0], modules[-1]
    return cst.Module(
        body=tuple(body),
        header=first.header,
        footer=last.footer,
        encoding=first.encoding,
        default_indent=indents.pop() if indents else first.default_indent,
        default_newline=first.default_newline,
        has_trailing_newline=last.has_trailing_newline,
    )


def _has_block(module: cst.Module) -> bool:
    return any(isinstance(s, cst.BaseCompoundStatement) for s in module.body)
