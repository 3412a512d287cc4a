"""CPython's abstract syntax tree of the lines a rule needs, for the Python rules that
only report (GV301, GV302): a rule with no fix needs no concrete tree. CPython's parser
comes with the interpreter and reads a function about six times faster than libcst's;
on TVM v0.16 the `with_attr("global_symbol", ...)` triggers made libcst parse a third of
all it parsed.

The rules see the same lines as libcst's rules would (python_lines selects them), and
positions in the one line model (lintgv/lines.py): 1-based lines of the file, columns
in code points, where CPython counts UTF-8 bytes.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import field

from lintgv.lines import LineIndex
from lintgv.model import Span
from lintgv.parsing.python import parse_python, quiet_parse
from lintgv.parsing.python_lines import Selection, partial_text, statement_at
from lintgv.records import frozen

# What CPython's parser raises for a text it cannot read (ValueError: a NUL byte).
_UNREADABLE = (SyntaxError, ValueError, MemoryError, RecursionError)


class NewerSyntax(Exception):
    """libcst reads the text, and this interpreter's parser does not: syntax of a later
    Python than the one lintgv runs on."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@frozen
class ParsedAst:
    """CPython's parse of a file, or of the lines of it a partial check keeps."""

    tree: ast.Module
    index: LineIndex  # of the parsed text
    # For a partial parse, the file's line number of each parsed line; empty when whole.
    line_map: tuple[int, ...] = ()
    # 1 when the text starts with a byte-order mark, which CPython's parser refuses in a
    # `str`: it parses the text after it, and columns on the first line count from
    # there, as libcst's do.
    mark: int = 0
    # For each line asked about that is not ASCII: the code-point column of each UTF-8
    # byte offset (None for an ASCII line, where the two are the same).
    _columns: dict[int, list[int] | None] = field(default_factory=dict)
    # What rules work out together from this parse, by name (GV301 and GV302 share one
    # scan): made by the first rule that asks.
    shared: dict[str, object] = field(default_factory=dict)

    def file_line(self, line: int) -> int:
        """Return the file's 1-based line for 1-based `line` of the parsed text."""
        if not self.line_map:
            return line
        return self.line_map[min(line, len(self.line_map)) - 1]

    def _column(self, line: int, byte: int) -> int:
        """Return the code-point column of UTF-8 `byte` offset on `line`."""
        if line not in self._columns:
            text = self.index.line(line)[self.mark if line == 1 else 0 :]
            columns = None
            if not text.isascii():
                # Worked out once per line: a long line asked about at each of thousands
                # of calls would otherwise be encoded again for each.
                columns = [0]
                for at, char in enumerate(text, 1):
                    columns.extend([at] * len(char.encode(errors="surrogatepass")))
            self._columns[line] = columns
        columns = self._columns[line]
        if columns is None:
            return byte
        return columns[min(byte, len(columns) - 1)]

    def _ends(self, node: ast.AST) -> tuple[int, int, int, int]:
        """Return the parsed text's (line, column, end line, end column) of `node`."""
        line, end_line = node.lineno, node.end_lineno  # type: ignore[attr-defined]
        end_line = line if end_line is None else end_line
        end_byte = node.end_col_offset  # type: ignore[attr-defined]
        start = self._column(line, node.col_offset)  # type: ignore[attr-defined]
        end = self._column(end_line, node.col_offset if end_byte is None else end_byte)  # type: ignore[attr-defined]
        return line, start, end_line, end

    def span_of(self, node: ast.AST) -> Span:
        """Return the file Span of `node` (an expression or a statement)."""
        line, start, end_line, end = self._ends(node)
        return Span(self.file_line(line), start, self.file_line(end_line), end)

    def code_of(self, node: ast.AST) -> str:
        """Return the source text of `node`, as written (comments inside included)."""
        line, start, end_line, end = self._ends(node)
        index, mark = self.index, self.mark
        begin = index.offset(line, start + (mark if line == 1 else 0))
        return index.text[begin : index.offset(end_line, end + (mark if end_line == 1 else 0))]


# Node kinds whose fields CPython lists in another order than they are written.
_WRITTEN_ORDER: dict[type, tuple[str, ...]] = {
    ast.FunctionDef: ("decorator_list", "args", "returns", "body"),
    ast.AsyncFunctionDef: ("decorator_list", "args", "returns", "body"),
    ast.ClassDef: ("decorator_list", "bases", "keywords", "body"),
    ast.IfExp: ("body", "test", "orelse"),
}


def children(node: ast.AST) -> list[ast.AST]:
    """Return the child nodes of `node` in the order they are written: CPython lists a
    dict's keys before its values, a conditional expression's test before its first
    value, a function's decorators after its body, a call's keyword arguments after its
    positional ones and parameters' defaults after the parameters, wherever they are.
    Operators and contexts (`ast.Load`), which CPython shares between nodes, are not
    children here."""
    kind = type(node)
    if kind is ast.Dict:
        found: list[ast.AST] = []
        for key, value in zip(node.keys, node.values, strict=True):  # type: ignore[attr-defined]
            if key is not None:
                found.append(key)
            found.append(value)
        return found
    if kind is ast.Call:
        arguments = [*node.args, *node.keywords]  # type: ignore[attr-defined]
        arguments.sort(key=_start)
        return [node.func, *arguments]  # type: ignore[attr-defined]
    if kind is ast.arguments:  # parameters, and their defaults, in separate lists
        return sorted(_fields_of(node, node._fields), key=_start)
    return _fields_of(node, _WRITTEN_ORDER.get(kind, node._fields))


def _fields_of(node: ast.AST, names: tuple[str, ...]) -> list[ast.AST]:
    found: list[ast.AST] = []
    for name in names:
        value = getattr(node, name, None)
        if isinstance(value, list):
            found.extend(v for v in value if isinstance(v, ast.AST) and _is_child(v))
        elif isinstance(value, ast.AST) and _is_child(value):
            found.append(value)
    return found


def _start(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


# CPython's shared singletons: operators and contexts.
_NOT_CHILDREN = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def _is_child(node: ast.AST) -> bool:
    return not isinstance(node, _NOT_CHILDREN)


def descendants(node: ast.AST) -> Iterator[ast.AST]:
    """Yield `node` and every node below it."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


def parse_ast(
    text: str, selection: Selection | None = None, wanted: Callable[[str], bool] = bool
) -> ParsedAst:
    """Return CPython's parse of `text` (of its selected lines, when given).

    A statement CPython refuses and in whose text `wanted` finds nothing (no trigger: the
    rules would find nothing there) is left out (see _parsed_without_refused). When
    CPython still cannot read the text, it is parsed whole by libcst, whose ParseError
    says what a check of the file always said (a syntax error, nesting too deep); when
    libcst reads it, NewerSyntax says where CPython stopped."""
    refused: tuple[BaseException, tuple[int, ...]] | None = None
    selected = partial_text(text, selection)
    if selected is not None:
        partial, line_map = selected
        try:
            return _parsed_without_refused(partial, line_map, wanted)
        except _UNREADABLE as exc:
            refused = (exc, line_map)  # or the line scan misjudged a block: try it whole
    try:
        return _parsed_without_refused(text, (), wanted)
    except _UNREADABLE as exc:
        parse_python(text)  # raises the file's ParseError, if libcst cannot read it either
        error, line_map = refused if refused is not None else (exc, ())
        line = error.lineno if isinstance(error, SyntaxError) and error.lineno else 1
        if line_map:
            line = line_map[min(line, len(line_map)) - 1]
        message = error.msg if isinstance(error, SyntaxError) else str(error)
        raise NewerSyntax(line, message) from exc


# A bound on the statements left out of one text: each costs a parse of it.
_MAX_LEFT_OUT = 16


def _parsed_without_refused(
    text: str, line_map: tuple[int, ...], wanted: Callable[[str], bool]
) -> ParsedAst:
    """Return CPython's parse of `text`, leaving out each statement it refuses that
    `wanted` finds nothing in (the innermost one holding the line CPython stopped at:
    `pass` in its place, its other lines blank); raise what CPython raised for any other."""
    readable = text
    for _ in range(_MAX_LEFT_OUT):
        try:
            return _parsed(text, readable, line_map)
        except SyntaxError as exc:
            lines = readable.split("\n")
            where = statement_at(readable, (exc.lineno or 1) - 1)
            if where is None:
                raise
            first, last = where
            if wanted("\n".join(lines[first : last + 1])):
                raise
            indent = re.match(r"[ \t]*", lines[first].removeprefix("\ufeff"))
            lines[first : last + 1] = [f"{indent.group() if indent else ''}pass"] + [""] * (
                last - first
            )
            readable = "\n".join(lines)
    return _parsed(text, readable, line_map)


def _parsed(text: str, readable: str, line_map: tuple[int, ...]) -> ParsedAst:
    """Return CPython's parse of `readable`, `text` with statements left out (the same
    lines), placed in `text`."""
    mark = 1 if text.startswith("\ufeff") else 0
    # CPython's parser refuses a NUL anywhere, libcst's only outside strings; a blank in
    # its place keeps every position, and no key this scan looks for holds a NUL.
    cleaned = readable.removeprefix("\ufeff").replace("\x00", " ")
    return ParsedAst(quiet_parse(cleaned), LineIndex(text), line_map, mark)


def dotted(node: ast.AST) -> str | None:
    """Return `a.b.c` for a Name/Attribute chain, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr}" if head is not None else None
    return None


def arguments(call: ast.Call) -> list[ast.expr]:
    """Return the values of a call's arguments in the order they are written, positional
    and keyword alike (`*x` and `**x` as `x`), as libcst's `Arg.value` gives them."""
    written: list[ast.expr | ast.keyword] = [*call.args, *call.keywords]
    written.sort(key=lambda a: (a.lineno, a.col_offset))
    return [a.value if isinstance(a, ast.keyword | ast.Starred) else a for a in written]
