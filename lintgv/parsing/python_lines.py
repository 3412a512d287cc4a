"""Python text scanned without parsing: logical lines, and the lines a partial parse keeps.

libcst parses about 2 MB/s, far too slow for a whole compiler tree. Most files hold no
trigger word and are never parsed; in the others, only the functions (or top-level
statements) around a trigger are kept, together with the imports that name resolution
needs. `compact` drops every other line (rather than blanking it: libcst's time grows
with the text) and maps each kept line back to the file's.
"""

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from functools import cached_property
from itertools import accumulate
from typing import NamedTuple

from lintgv.prefilter import Triggers
from lintgv.records import frozen

_TOKEN = re.compile(r'"""|\'\'\'|"|\'|#|[\[\](){}]|\\\r?\n|\n')
# The rest of a line that holds none of _TOKEN's tokens but brackets and its newline.
_PLAIN = re.compile(r"[^\"'#\\\n]*\n")
_BRACKET = re.compile(r"[\[\](){}]")
# Read at a line's start outside any bracket: a line of code that holds no string,
# comment or continuation (its indent in group 1), and a blank or comment-only line.
# Most lines are one or the other, and one match settles each.
_CODE_LINE = re.compile(r"([ \t]*)[^\s#\"'\\][^\"'#\\\n]*\n")
_SKIPPED_LINE = re.compile(r"[ \t\r]*(?:#[^\n]*)?\n")
_HEADER = re.compile(r"[ \t]*(?:async[ \t]+def|def|class)\b")
_DEF = re.compile(r"[ \t]*(?:async[ \t]+def|def)\b")
_DECORATOR = re.compile(r"[ \t]*@")
_IMPORT = re.compile(r"(?:import[ \t]|from[ \t.])")  # `from.a import b` too
_IMPORT_LINE = re.compile(r"^[ \t]*(?:import|from)[ \t]", re.M)
# What may be a docstring: a string, perhaps in parentheses.
_STRING = re.compile(r"(?:[(\s]|#[^\n]*)*[rRuUbBfF]{0,2}['\"]")
_CONTINUES_BLOCK = re.compile(r"[ \t]*(?:elif|else|except|finally|case)\b")
# A top-level compound statement that imports something is kept whole when it is this short.
_MAX_IMPORT_BLOCK = 40


class Logical(NamedTuple):  # a tuple: a file has thousands, made on every scan
    first: int  # 0-based physical line where the logical line starts
    last: int  # 0-based physical line where it ends
    indent: int


def logical_lines(text: str, offsets: list[int]) -> list[Logical] | None:
    """Split `text` into logical lines, or return None when the scan loses its way."""
    result: list[Logical] = []
    # This loop runs once per line of every Python file with a trigger (4.5 MB of TVM
    # v0.16): methods are looked up once, and each Logical is made by tuple's own
    # constructor, not by the Python-level one NamedTuple generates (a tenth of the scan;
    # Logical must therefore stay three plain fields, without defaults or checks).
    append = result.append
    code_line, skipped_line, plain_line = _CODE_LINE.match, _SKIPPED_LINE.match, _PLAIN.match
    brackets_in, token_at = _BRACKET.findall, _TOKEN.search
    make = tuple.__new__
    line = 0
    depth = 0
    start = 0  # physical line where the current logical line began
    pos = 0
    at_line_start = True
    n = len(text)
    while pos < n:
        if at_line_start and depth == 0:
            code = code_line(text, pos)
            if code is not None:
                pos = code.end()
                indented = code.end(1)
                for bracket in brackets_in(text, indented, pos):
                    if bracket in "([{":
                        depth += 1
                    elif depth:
                        depth -= 1
                if depth == 0:
                    append(make(Logical, (line, line, indented - code.start())))
                else:
                    start = line
                    at_line_start = False
                line += 1
                continue
            skipped = skipped_line(text, pos)
            if skipped is not None:
                pos = skipped.end()
                line += 1
                continue
            # Blank and comment-only lines belong to no logical line.
            end = text.find("\n", pos)
            end = n if end == -1 else end
            stripped = text[pos:end].strip()
            if not stripped or stripped.startswith("#"):
                pos = end + 1
                line += 1
                continue
            start = line
            at_line_start = False
        plain = plain_line(text, pos)
        if plain is not None:
            # The rest of the line holds no string, comment or continuation: only its
            # brackets count, taken together (a search for each token of a line cost
            # more than the rest of the scan).
            end = plain.end()
            for bracket in brackets_in(text, pos, end):
                if bracket in "([{":
                    depth += 1
                elif depth:
                    depth -= 1
            pos = end
            if depth == 0:
                append(make(Logical, (start, line, _indent(text, offsets[start]))))
                at_line_start = True
            line += 1
            continue
        match = token_at(text, pos)
        if match is None:
            break
        token = match.group()
        pos = match.end()
        if token in ('"""', "'''"):
            close = text.find(token, pos)
            while close != -1 and _is_escaped(text, close):
                close = text.find(token, close + 1)
            if close == -1:
                return None
            line += text.count("\n", pos, close)
            pos = close + 3
        elif token in ('"', "'"):
            close = _string_end(text, pos, token)
            if close == -1:
                return None
            line += text.count("\n", pos, close)
            pos = close + 1
        elif token == "#":
            end = text.find("\n", pos)
            pos = n if end == -1 else end
        elif token in "([{":
            depth += 1
        elif token in ")]}":
            if depth:
                depth -= 1
        elif token.startswith("\\"):
            line += 1
        else:  # a newline
            if depth == 0:
                append(make(Logical, (start, line, _indent(text, offsets[start]))))
                at_line_start = True
            line += 1
    if not at_line_start:
        append(make(Logical, (start, line, _indent(text, offsets[start]))))
    return result


def _indent(text: str, begin: int) -> int:
    match = _BLANKS.match(text, begin)
    assert match is not None  # it matches the empty string
    return match.end() - begin


_BLANKS = re.compile(r"[ \t]*")


def _is_escaped(text: str, index: int) -> bool:
    slashes = 0
    while index - slashes - 1 >= 0 and text[index - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def _string_end(text: str, pos: int, quote: str) -> int:
    while True:
        close = text.find(quote, pos)
        newline = text.find("\n", pos)
        if newline != -1 and (close == -1 or newline < close):
            if _is_escaped(text, newline - 1 if text[newline - 1] == "\r" else newline):
                pos = newline + 1  # a backslash continues the string on the next line
                continue
            # An unterminated one-line string: let libcst report it on a full parse.
            return -1
        if close == -1:
            return -1
        if not _is_escaped(text, close):
            return close
        pos = close + 1


def has_lone_return(text: str) -> bool:
    """Tell whether `text` ends a line with a `\r` alone, where this scan sees none."""
    # Substring counts run at memory speed; a lone `\r` is rare.
    return "\r" in text and text.count("\r") != text.count("\r\n")


def line_offsets(text: str) -> list[int]:
    # Each line's start: one past the end of the line before (the sum runs in C).
    offsets = list(accumulate(map((1).__add__, map(len, text.split("\n"))), initial=0))
    offsets.pop()
    return offsets


def _parents(logical: Sequence[Logical]) -> list[int]:
    """Return, for each logical line, the nearest line before it with a smaller indent
    (its block's header), or -1 at the top level."""
    parents: list[int] = []
    open_headers: list[int] = []  # the indexes of lines whose blocks may still be open
    for index, line in enumerate(logical):
        while open_headers and logical[open_headers[-1]].indent >= line.indent:
            open_headers.pop()
        parents.append(open_headers[-1] if open_headers else -1)
        open_headers.append(index)
    return parents


@frozen
class Selection:
    """The lines of a file worth parsing: kept lines, and lines replaced by `pass` stubs."""

    keep: frozenset[int]
    stubs: tuple[tuple[int, str], ...] = ()

    @property
    def is_empty(self) -> bool:
        return not self.keep


class LineScan:
    """What selecting lines reads of a text, scanned once however many selections are
    made of it (libcst's rules and the ast rules each select their own)."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def offsets(self) -> list[int]:
        return line_offsets(self.text)

    @cached_property
    def logical(self) -> list[Logical] | None:
        """The logical lines, None when the text cannot be scanned."""
        return logical_lines(self.text, self.offsets)

    @cached_property
    def imports(self) -> list[int]:
        """The logical lines that start with an import."""
        logical = self.logical or []
        return [
            i for i in range(len(logical)) if _starts(self.text, self.offsets, logical[i], _IMPORT)
        ]

    @cached_property
    def parents(self) -> list[int]:
        # Worked out once for the file, so that each trigger costs its nesting depth, not
        # a walk over the lines of its function (quadratic in a long function).
        return _parents(self.logical or [])


def _starts(text: str, offsets: list[int], line: Logical, pattern: re.Pattern[str]) -> bool:
    start = offsets[line.first]
    if start == 0 and text.startswith("\ufeff"):
        start = 1  # a byte-order mark is no part of the first statement
    while text.startswith("\f", start):  # a form feed before a statement is blank
        start += 1
    return pattern.match(text, start) is not None


class _Segmenter:
    """Chooses the lines that let each trigger parse in context; see the module docstring."""

    def __init__(self, scan: LineScan, logical: list[Logical]) -> None:
        self.text = scan.text
        self.offsets = scan.offsets
        self.logical = logical
        self.firsts = [item.first for item in logical]
        self.keep: set[int] = set()
        self.stub_clauses: set[int] = set()
        self.imports = scan.imports
        self.parents = scan.parents
        self._block_ends: dict[int, int] = {}
        self._clauses: dict[int, list[int]] = {}
        self._headers_kept: set[int] = set()
        self._functions_kept: set[int] = set()

    def _starts(self, index: int, pattern: re.Pattern[str]) -> bool:
        return _starts(self.text, self.offsets, self.logical[index], pattern)

    def logical_at(self, offset: int) -> int | None:
        line = bisect_right(self.offsets, offset) - 1
        where = bisect_right(self.firsts, line) - 1
        if where < 0 or self.logical[where].last < line:
            return None  # a comment or blank line
        return where

    def block_end(self, index: int) -> int:
        known = self._block_ends.get(index)
        if known is not None:
            return known
        indent = self.logical[index].indent
        end = index + 1
        while end < len(self.logical) and self.logical[end].indent > indent:
            end += 1
        self._block_ends[index] = end - 1
        return end - 1

    def clauses(self, index: int) -> list[int]:
        """Return the header indexes of the compound statement that `index` belongs to."""
        if index not in self._clauses:
            self._clauses[index] = self._find_clauses(index)
        return self._clauses[index]

    def _find_clauses(self, index: int) -> list[int]:
        indent = self.logical[index].indent
        while index > 0 and self._starts(index, _CONTINUES_BLOCK):
            index -= 1
            while index > 0 and self.logical[index].indent > indent:
                index -= 1
        found = [index]
        nxt = self.block_end(index) + 1
        while (
            nxt < len(self.logical)
            and self.logical[nxt].indent == indent
            and self._starts(nxt, _CONTINUES_BLOCK)
        ):
            found.append(nxt)
            nxt = self.block_end(nxt) + 1
        return found

    def chain(self, where: int) -> list[int]:
        """Return the headers enclosing logical line `where`, innermost first."""
        found: list[int] = []
        index = self.parents[where]
        while index >= 0:
            found.append(index)
            index = self.parents[index]
        return found

    def keep_logical(self, first: int, last: int) -> None:
        self.keep.update(range(self.logical[first].first, self.logical[last].last + 1))

    def keep_headers(self, chain: list[int]) -> None:
        inside = set(chain)
        for header in chain:
            if header in self._headers_kept:
                # Its clauses are kept, and so are its own headers: the rest of the chain.
                break
            self._headers_kept.add(header)
            for clause in self.clauses(header):
                self.keep_logical(clause, clause)
                if clause not in inside:
                    self.stub_clauses.add(clause)

    def keep_statement(self, where: int) -> None:
        chain = self.chain(where)
        if self.block_end(where) > where or self._starts(where, _CONTINUES_BLOCK):
            clauses = self.clauses(where)
            self.keep_logical(clauses[0], self.block_end(clauses[-1]))
        else:
            self.keep_logical(where, where)
        self.keep_headers(chain)
        for header in chain:
            if self._starts(header, _DEF):
                self._keep_imports_in(header)

    def keep_function(self, where: int) -> None:
        chain = self.chain(where)
        defs = [i for i in [where, *chain] if self._starts(i, _DEF)]
        if not defs:
            self.keep_statement(where)
            return
        target = defs[0]
        if target in self._functions_kept:
            return  # kept whole for an earlier trigger of the same function
        self._functions_kept.add(target)
        first = target
        while first > 0 and self._starts(first - 1, _DECORATOR):
            first -= 1
        self.keep_logical(first, self.block_end(target))
        self.keep_headers([i for i in chain if i < target])

    def _keep_imports_in(self, header: int) -> None:
        end = self.block_end(header)
        start = bisect_right(self.imports, header)
        for index in self.imports[start:]:
            if index > end:
                break
            self.keep_logical(index, index)
            self.keep_headers(self.chain(index))

    def keep_module_imports(self) -> None:
        for index, item in enumerate(self.logical):
            if item.indent != 0:
                continue
            if self._starts(index, _IMPORT):
                self.keep_logical(index, index)
            elif not self._starts(index, _HEADER) and self.block_end(index) > index:
                clauses = self.clauses(index)
                if clauses[0] != index:
                    continue
                last = self.block_end(clauses[-1])
                span = self.logical[last].last - item.first
                end = self.offsets[min(self.logical[last].last + 1, len(self.offsets) - 1)]
                if span < _MAX_IMPORT_BLOCK and _IMPORT_LINE.search(
                    self.text, self.offsets[item.first], end
                ):
                    self.keep_logical(index, last)
        self._keep_end_of_leading_imports()

    def _keep_end_of_leading_imports(self) -> None:
        """Keep what decides where a fix adds its import (codemods/includes.import_edit:
        after the leading imports and a docstring, else above the first statement and the
        comments right above it), so that the lines kept put it where the whole file does:
        the first statement, and when it is a string (a docstring, or what only looks like
        one) or an import, the first later statement that is not an import."""
        top = [i for i, item in enumerate(self.logical) if item.indent == 0]
        decorators: int | None = None
        for place, index in enumerate(top):
            if self._starts(index, _DECORATOR):
                decorators = index if decorators is None else decorators
                continue
            if self._starts(index, _IMPORT):
                decorators = None
                continue
            self._keep_top_level(index, decorators)
            if place > 0 or not self._starts(index, _STRING):
                return

    def _keep_top_level(self, index: int, decorators: int | None) -> None:
        """Keep the top-level statement at `index` (a compound one as its headers over stub
        bodies) and its decorators from `decorators` on. (Comments above a file's first
        statement are libcst's module header, in both parses alike.)"""
        if decorators is not None:
            self.keep_logical(decorators, index - 1)
        if self.block_end(index) == index and not self._starts(index, _CONTINUES_BLOCK):
            self.keep_logical(index, index)
            return
        for clause in self.clauses(index):
            self.keep_logical(clause, clause)
            self.stub_clauses.add(clause)

    def stubs(self) -> tuple[tuple[int, str], ...]:
        found = []
        for clause in sorted(self.stub_clauses):
            end = self.block_end(clause)
            if end == clause:
                continue  # the body sits on the header's own line
            body = range(self.logical[clause + 1].first, self.logical[end].last + 1)
            if any(line in self.keep for line in body):
                continue
            start = self.offsets[body.start]
            indent = self.text[start : start + self.logical[clause + 1].indent]
            found.append((body.start, indent + "pass"))
        return tuple(found)


_AS = re.compile(r"[ \t]+as[ \t]+(\w+)")
_ASSIGNED = re.compile(r"^[ \t]*(\w+)[ \t]*=[ \t(]*[\w.]*$")


def statement_at(text: str, line: int) -> tuple[int, int] | None:
    """Return the 0-based first and last line of the innermost statement that holds
    0-based `line` (a compound one with all its clauses and their blocks, and its
    decorators); None when the text cannot be scanned."""
    scan = LineScan(text)
    logical = scan.logical
    if not logical:
        return None
    segmenter = _Segmenter(scan, logical)
    at = min(bisect_left([item.last for item in logical], line), len(logical) - 1)
    while at + 1 < len(logical) and segmenter._starts(at, _DECORATOR):
        at += 1  # a decorator belongs to what it decorates
    clauses = segmenter.clauses(at)
    first, last = clauses[0], segmenter.block_end(clauses[-1])
    indent = logical[first].indent
    while (
        first > 0
        and logical[first - 1].indent == indent
        and segmenter._starts(first - 1, _DECORATOR)
    ):
        first -= 1
    return logical[first].first, logical[last].last


def _alias_after(text: str, hit: re.Match[str]) -> re.Match[str] | None:
    """Return a match whose group 1 is a name that `hit`'s import or assignment binds."""
    renamed = _AS.match(text, hit.end())
    if renamed is not None:
        return renamed
    start = text.rfind("\n", 0, hit.start()) + 1
    end = text.find("\n", hit.end())
    # The line without its comment, and of its statements the one with the hit:
    # `X = tvm.ir.GlobalVar  # the class` and `X = (tvm.ir.GlobalVar); y = 1` bind X too.
    code = text[start : end if end != -1 else len(text)].split("#", 1)[0]
    at, after = hit.start() - start, hit.end() - start
    if after > len(code):
        return None
    statement = code[code.rfind(";", 0, at) + 1 : after]
    if code[after:].split(";", 1)[0].strip(" \t\r)"):
        return None
    return _ASSIGNED.match(statement)


def select_lines(
    text: str,
    statement_trigger: Triggers | None,
    function_trigger: Triggers | None = None,
    scan: LineScan | None = None,
) -> Selection | None:
    """Return the lines to parse so every trigger parses in context, or None for all.

    A statement trigger keeps its statement and the headers around it; a function
    trigger keeps its whole innermost function. `scan` is the text's, when it is kept
    for another selection.
    """
    statement_hits = list(statement_trigger.finditer(text)) if statement_trigger else []
    aliases = {m.group(1) for hit in statement_hits if (m := _alias_after(text, hit))}
    if aliases:
        # `import X as Y` and `Y = a.X` make Y a trigger of its own in this file.
        alias_pattern = re.compile("|".join(rf"\b{re.escape(a)}\b" for a in sorted(aliases)))
        statement_hits += list(alias_pattern.finditer(text))
    function_hits = list(function_trigger.finditer(text)) if function_trigger else []
    if not statement_hits and not function_hits:
        return Selection(frozenset())
    scan = scan if scan is not None else LineScan(text)
    logical = scan.logical
    if logical is None:
        return None
    segmenter = _Segmenter(scan, logical)
    for match in function_hits:
        where = segmenter.logical_at(match.start())
        if where is not None:
            segmenter.keep_function(where)
    for match in statement_hits:
        where = segmenter.logical_at(match.start())
        if where is not None:
            segmenter.keep_statement(where)
    if not segmenter.keep:
        return Selection(frozenset())
    segmenter.keep_module_imports()
    return Selection(frozenset(segmenter.keep), segmenter.stubs())


def partial_text(text: str, selection: Selection | None) -> tuple[str, tuple[int, ...]] | None:
    """Return `compact(text, selection)`, or None when the whole text is to be parsed: no
    selection, or a text with a lone `\r`, a line break to CPython and to the line model
    where the partial text splits at `\n` only."""
    if selection is None or has_lone_return(text):
        return None
    return compact(text, selection)


def compact(text: str, selection: Selection) -> tuple[str, tuple[int, ...]]:
    """Return the kept lines and stubs of `text` as one text, and each line's original number.

    Dropping the other lines (rather than blanking them) saves libcst a third of its time;
    the line map turns positions back into the file's own.
    """
    stubs = dict(selection.stubs)
    lines = text.split("\n")
    out = []
    origin = []
    for index in sorted(selection.keep | stubs.keys()):
        if index >= len(lines):
            continue
        out.append(lines[index] if index in selection.keep else stubs[index])
        origin.append(index + 1)
    return "\n".join(out) + "\n", tuple(origin)
