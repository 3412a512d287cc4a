"""Node positions of a libcst module, worked out one statement at a time.

libcst's PositionProvider generates the code of the whole module, recording a range for
every node; in a file with one finding that is most of the cost of checking it. Only the
innermost statement holding a node asked about is generated, started on the line it
starts on with the indentation around it. Ranges are the same as PositionProvider's: they
come from the same code generation and its same hooks, but a node's range is kept as the
tokens it spans and turned into lines and columns only when asked for (PositionProvider
counts lines and columns at every token and opens a generator-based context manager for
every node: generating a statement with it took two and a half times as long).

Where a statement starts is read from CPython's parse of the same text, which numbers
the line of every statement: the way down from the top-level statement is followed in
both trees at once. The code generated must then be the text found on that line, or the
ranges are not used. Without CPython's parse, or when the two do not line up, plain code
generation (several times cheaper than with positions) of the top-level statement
notes where each statement in it starts and which one holds each node.
"""

import ast
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import field
from itertools import accumulate
from typing import TypeGuard, cast

from libcst._nodes.internal import CodegenState
from libcst._position import CodePosition, CodeRange

from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.python_lines import line_offsets
from lintgv.records import frozen, mutable

_HEADER = -1  # nodes of the module's header and footer: not in any statement


@frozen
class _Statement:
    node: cst.BaseStatement
    line: int  # the line its code generation starts on (its leading lines included)
    indent: tuple[str, ...]  # the indentation tokens in force there


@mutable
class _IndexingState(CodegenState):
    """Plain code generation that notes where each statement starts and holds what."""

    owners: dict[int, int] = field(default_factory=dict)
    statements: list[_Statement] = field(default_factory=list)
    line: int = 1
    counted: int = 0  # tokens already counted into `line`
    open: list[int] = field(default_factory=list)  # statements being generated, innermost last
    elifs: set[int] = field(default_factory=set)  # the ids of `elif` clauses met

    def before_codegen(self, node: cst.CSTNode) -> None:
        if isinstance(node, cst.If) and isinstance(node.orelse, cst.If):
            self.elifs.add(id(node.orelse))
        if _is_statement(node) and id(node) not in self.elifs:
            for token in self.tokens[self.counted :]:
                self.line += _newlines(token)
            self.counted = len(self.tokens)
            self.open.append(len(self.statements))
            self.statements.append(_Statement(node, self.line, tuple(self.indent_tokens)))
        self.owners[id(node)] = self.open[-1] if self.open else _HEADER

    def after_codegen(self, node: cst.CSTNode) -> None:
        if _is_statement(node) and id(node) not in self.elifs:
            self.open.pop()

    def record_syntactic_position(  # type: ignore[override]  # any context manager does
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> AbstractContextManager[None]:
        # No positions here: skip the generator-based context manager libcst makes per node.
        return _NOTHING


_NOTHING = nullcontext()


class _Chart:
    """The tokens of one code generation, started at column 0 of `line`; turns a place
    between tokens into a line and a column (as PositionProvider counts: characters,
    with "\r\n", "\r" and "\n" each ending a line), charted on the first question.

    Only the offset where each token starts and the tokens that break a line are
    charted: a statement's code has a few dozen tokens and breaks one line or two, and
    most places are never asked for."""

    def __init__(self, tokens: list[str], line: int) -> None:
        self._tokens = tokens
        self._line = line
        self._starts: list[int] = []  # the offset each token starts at, and the end
        self._breaks: list[int] = []  # the tokens that break a line, in order
        self._lines: list[int] = []  # the line after each of `_breaks`
        self._after: list[int] = []  # the offset where that line starts

    def at(self, token: int) -> CodePosition:
        if not self._starts:
            self._chart()
        token = min(token, len(self._starts) - 1)
        before = bisect_left(self._breaks, token)  # breaking tokens wholly before `token`
        offset = self._starts[token]
        if not before:
            return CodePosition(self._line, offset)
        return CodePosition(self._lines[before - 1], offset - self._after[before - 1])

    def _chart(self) -> None:
        self._starts = list(accumulate(map(len, self._tokens), initial=0))
        line = self._line
        for index, value in enumerate(self._tokens):
            if "\n" in value or "\r" in value:
                line += _newlines(value)
                self._breaks.append(index)
                self._lines.append(line)
                last = max(value.rfind("\n"), value.rfind("\r"))
                self._after.append(self._starts[index] + last + 1)


# By the node's id (libcst's node hash is a Python method, too slow for every node of
# every statement generated): the node, and the tokens of `_Chart` its range spans.
_Marks = dict[int, tuple[cst.CSTNode, _Chart, int, int]]


class _Mark:
    """The context libcst opens around a node's syntactic part: notes the tokens it spans
    (or those of the nodes libcst names for its start and end)."""

    __slots__ = ("_end_node", "_node", "_start", "_start_node", "_state")

    def __init__(
        self,
        state: "_MarkingState",
        node: cst.CSTNode,
        start_node: cst.CSTNode | None,
        end_node: cst.CSTNode | None,
    ) -> None:
        self._state = state
        self._node = node
        self._start_node = start_node
        self._end_node = end_node
        self._start = 0

    def __enter__(self) -> None:
        self._start = len(self._state.tokens)

    def __exit__(self, *_: object) -> None:
        state = self._state
        marks = state.marks
        start = marks[id(self._start_node)][2] if self._start_node is not None else self._start
        end = marks[id(self._end_node)][3] if self._end_node is not None else len(state.tokens)
        marks[id(self._node)] = (self._node, state.chart, start, end)


@mutable
class _MarkingState(CodegenState):
    """Code generation that notes, for every node, the tokens its range spans: its
    syntactic part where libcst records one, else all it generates (as PositionProvider
    does)."""

    chart: _Chart = field(default_factory=lambda: _Chart([], 1))
    marks: _Marks = field(default_factory=dict)
    opened: list[int] = field(default_factory=list)

    @classmethod
    def starting(cls, module: cst.Module, line: int, indent: list[str]) -> "_MarkingState":
        state = cls(module.default_indent, module.default_newline)
        state.chart = _Chart(state.tokens, line)
        state.indent_tokens = indent
        return state

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.opened.append(len(self.tokens))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.opened.pop()
        if id(node) not in self.marks:
            self.marks[id(node)] = (node, self.chart, start, len(self.tokens))

    def pop_trailing_newline(self) -> None:
        # The module's last newline is dropped from its code, not from its positions.
        pass

    def record_syntactic_position(  # type: ignore[override]  # any context manager does
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> AbstractContextManager[None]:
        return _Mark(self, node, start_node, end_node)


_IS_STATEMENT: dict[type, bool] = {}


def _is_statement(node: cst.CSTNode) -> TypeGuard[cst.BaseStatement]:
    kind = type(node)
    found = _IS_STATEMENT.get(kind)
    if found is None:
        found = _IS_STATEMENT[kind] = issubclass(kind, cst.BaseStatement)
    return found


def _is_elif(path: Sequence[cst.CSTNode], at: int) -> bool:
    """Tell whether `path[at]` is an `elif` clause: an If statement's code generation
    alone gives `if`, so it is placed with the statement it continues."""
    above = path[at - 1] if at > 0 else None
    return isinstance(above, cst.If) and above.orelse is path[at]


def _newlines(token: str) -> int:
    # As PositionProvider counts: "\r\n", "\r" and "\n" each end a line.
    return token.count("\n") + token.count("\r") - token.count("\r\n")


class LazyPositions(Mapping[cst.CSTNode, CodeRange]):
    """PositionProvider's ranges, computed only for the statements asked about.

    Given the line each top-level statement starts on (`starts`, its leading lines
    included) and a way up the tree (`parent_of`), only the top-level statements holding
    a node asked about are indexed; otherwise the whole module is, on the first question.
    """

    def __init__(
        self,
        module: cst.Module,
        starts: Sequence[int] | None = None,
        parent_of: Callable[[cst.CSTNode], cst.CSTNode | None] | None = None,
        located: "Located | None" = None,
    ) -> None:
        self._module = module
        self._located = located if parent_of is not None else None
        self._located_done: set[int] = set()  # statements generated through `located`
        # Every node generated so far, statement by statement, with the tokens it spans;
        # and the ranges worked out of them so far.
        self._marks: _Marks = {}
        self._ranges: dict[int, CodeRange] = {}  # by the node's id, as `_marks`
        self._owners: dict[int, int] | None = None
        self._statements: list[_Statement] = []
        self._done: set[int] = set()
        self._complete = False
        self._starts = starts if starts is not None and parent_of is not None else None
        self._parent_of = parent_of
        self._top: dict[int, int] = {}  # top-level statement's id → its place in the body
        self._top_owners: dict[int, int] = {}
        self._indexed_tops: set[int] = set()

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        found = self._ranges.get(id(node))
        if found is not None:
            return found
        marks = self._marks
        if id(node) not in marks and not self._complete and not self._generate_located(node):
            statement = self._owner(node)
            if statement != _HEADER and statement not in self._done:
                self._generate(statement)
            if id(node) not in marks:
                self._generate_all()
        _, chart, start, end = marks[id(node)]
        found = self._ranges[id(node)] = CodeRange(chart.at(start), chart.at(end))
        return found

    def _generate_located(self, node: cst.CSTNode) -> bool:
        """Generate the innermost statement holding `node` where `located` says it
        starts; tell whether that gave `node` its range."""
        if self._located is None:
            return False
        assert self._parent_of is not None
        path: list[cst.CSTNode] = []
        current: cst.CSTNode | None = node
        while current is not None and current is not self._module:
            path.append(current)
            current = self._parent_of(current)
        if current is None:
            return False
        path.reverse()  # from the top-level statement down to `node`
        inner = max(
            (i for i, n in enumerate(path) if _is_statement(n) and not _is_elif(path, i)),
            default=-1,
        )
        if inner < 0 or id(path[inner]) in self._located_done:
            return False
        statement = cast(cst.BaseStatement, path[inner])
        start = self._located.start_of(self._module, path[: inner + 1])
        if start is None:
            return False
        # What the blocks around it (and a `match` around its cases) indent by.
        indent = [
            self._module.default_indent if n.indent is None else n.indent
            for n in path[:inner]
            if isinstance(n, cst.IndentedBlock | cst.Match)
        ]
        state = _MarkingState.starting(self._module, start, indent)
        statement._codegen(state)
        if not self._located.holds(start, "".join(state.tokens)):
            return False
        self._marks.update(state.marks)
        self._located_done.add(id(statement))
        return id(node) in self._marks

    def _owner(self, node: cst.CSTNode) -> int:
        """Return the index of the innermost statement holding `node` (or _HEADER)."""
        if self._owners is None and self._starts is not None:
            top = self._top_of(node)
            if top is not None:
                if top not in self._indexed_tops:
                    self._index_top(top)
                return self._top_owners.get(id(node), _HEADER)
        return self._index().get(id(node), _HEADER)

    def _top_of(self, node: cst.CSTNode) -> int | None:
        """Return the place in the module's body of the statement holding `node`."""
        assert self._parent_of is not None
        if not self._top:
            self._top = {id(s): i for i, s in enumerate(self._module.body)}
        current: cst.CSTNode | None = node
        while current is not None and id(current) not in self._top:
            current = self._parent_of(current)
        return self._top[id(current)] if current is not None else None

    def _index_top(self, top: int) -> None:
        assert self._starts is not None
        module = self._module
        state = _IndexingState(module.default_indent, module.default_newline)
        state.line = self._starts[top]
        state.statements = self._statements  # appended to: indexes stay unique
        state.owners = self._top_owners
        module.body[top]._codegen(state)
        self._indexed_tops.add(top)

    def __iter__(self) -> Iterator[cst.CSTNode]:
        self._generate_all()
        return (node for node, _, _, _ in self._marks.values())

    def __len__(self) -> int:
        self._generate_all()
        return len(self._marks)

    def _index(self) -> dict[int, int]:
        if self._owners is None:
            module = self._module
            state = _IndexingState(module.default_indent, module.default_newline)
            module._codegen(state)
            # The statements indexed one by one, if any, are indexed again here.
            self._statements = state.statements
            self._owners = state.owners
            self._done.clear()
        return self._owners

    def _generate(self, index: int) -> None:
        statement = self._statements[index]
        state = _MarkingState.starting(self._module, statement.line, list(statement.indent))
        statement.node._codegen(state)
        self._marks.update(state.marks)
        self._done.add(index)

    def _generate_all(self) -> None:
        if not self._complete:
            state = _MarkingState.starting(self._module, 1, [])
            self._module._codegen(state)
            self._marks.update(state.marks)
            self._complete = True


class Located:
    """Where statements start in a text, from CPython's parse of it (`tree`, which needs
    no more than ast_statements keeps): the line of a statement's first token, decorators
    included, as CPython numbers lines. Lines are split at `\n` only: a text holding a
    lone `\r` (a line break to libcst and CPython) has no Located."""

    def __init__(self, text: str, tree: ast.Module) -> None:
        self._text = text
        self._tree = tree
        self._offsets: list[int] | None = None
        self._tops: dict[int, ast.stmt] | None = None  # CPython's, by our statement's id
        # The same for the statements of each block met, by the block's id: sites in one
        # long function share its lookup (worked out per site, it made a check quadratic).
        self._blocks: dict[int, dict[int, ast.stmt] | None] = {}

    def start_of(self, module: cst.Module, path: Sequence[cst.CSTNode]) -> int | None:
        """Return the line where the code generation of `path`'s last node, a statement,
        starts (its leading lines included); `path` runs from a top-level statement of
        `module` down to it. None when the two parses do not line up."""
        found = self._statement(module, path)
        if found is None:
            return None
        start = code_start(cast(cst.BaseStatement, path[-1]), found)
        return start if start >= 1 else None

    def holds(self, line: int, code: str) -> bool:
        """Tell whether `code` is the text from the start of `line` on."""
        if self._offsets is None:
            self._offsets = line_offsets(self._text)
        if line > len(self._offsets):
            return False
        start = self._offsets[line - 1]
        return self._text.startswith(code, start)

    def _statement(self, module: cst.Module, path: Sequence[cst.CSTNode]) -> ast.stmt | None:
        """Return CPython's statement for `path`'s last node, following both trees down."""
        if self._tops is None:
            self._tops = _lined_up(module.body, self._tree.body) or {}
        found: ast.AST | None = self._tops.get(id(path[0]))
        at = 0
        while found is not None and at < len(path) - 1:
            found, at = self._child(path, at, found)
        return found if isinstance(found, ast.stmt) else None

    def _child(
        self, path: Sequence[cst.CSTNode], at: int, theirs: ast.AST
    ) -> tuple[ast.AST | None, int]:
        """Follow `path` from the compound statement at `at` (CPython's `theirs`) to the
        next statement on it; return CPython's statement for that one and its place."""
        ours, step_node = path[at], path[at + 1]
        if isinstance(step_node, cst.If) and step_node is getattr(ours, "orelse", None):  # elif
            orelse = getattr(theirs, "orelse", [])
            one_if = len(orelse) == 1 and isinstance(orelse[0], ast.If)
            return (orelse[0] if one_if else None), at + 1
        step = _block_of(path, at, theirs)
        if step is None:
            return None, at
        block, body, block_at = step
        if id(block) not in self._blocks:
            self._blocks[id(block)] = _lined_up(block.body, body)
        lined_up = self._blocks[id(block)]
        found = lined_up.get(id(path[block_at + 1])) if lined_up is not None else None
        return found, block_at + 1


_DECORATED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def code_start(statement: cst.BaseStatement, theirs: ast.stmt) -> int:
    """Return the line where the code generation of `statement` starts (its leading lines
    included), from CPython's statement `theirs` for it: the line of its first token (of
    a definition's `def` or `class`), less the lines libcst generates before that token.
    Lines are counted, not leading lines: one may run on with a backslash. A decorated
    definition is counted back from its keyword: CPython numbers a decorator by its
    expression, which may start lines after its `@` (`@(` and a line break)."""
    before = _lines_of(statement.leading_lines)  # type: ignore[attr-defined]  # every kind
    decorators = getattr(statement, "decorators", ())
    if decorators and isinstance(theirs, _DECORATED):
        # Each decorator's code holds its own leading lines and ends with its line break.
        state = CodegenState(default_indent="", default_newline="\n")
        for decorator in decorators:
            decorator._codegen(state)
        before += sum(_newlines(token) for token in state.tokens)
        before += _lines_of(getattr(statement, "lines_after_decorators", ()))
    return theirs.lineno - before


def _lines_of(empty_lines: Sequence[cst.EmptyLine]) -> int:
    """Return how many lines `empty_lines` take: one each, and one more for each line
    break a backslash continues them over."""
    return sum(1 + _newlines(line.whitespace.value) for line in empty_lines)


def top_level_starts(module: cst.Module, tree: ast.Module) -> tuple[int, ...] | None:
    """Return the line where each top-level statement's code starts, from CPython's
    parse `tree` of the same text; None when the two parses do not line up."""
    lined_up = _lined_up(module.body, tree.body)
    if lined_up is None:
        return None
    return tuple(code_start(s, lined_up[id(s)]) for s in module.body)


def _lined_up(
    ours: Sequence[cst.BaseStatement], theirs: Sequence[ast.stmt]
) -> dict[int, ast.stmt] | None:
    """Return CPython's statement for each of ours, by our statement's id (a line of
    several statements: its first one); None when the two do not line up."""
    found = {}
    taken = 0
    for statement in ours:
        if taken >= len(theirs):
            return None
        found[id(statement)] = theirs[taken]
        taken += len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
    return found if taken == len(theirs) else None


def _block_of(
    path: Sequence[cst.CSTNode], at: int, theirs: ast.AST
) -> tuple[cst.IndentedBlock, list[ast.stmt], int] | None:
    """Return the block `path` enters below the compound statement at `at` (CPython's
    `theirs`), CPython's statements of that block, and the block's place in `path`; None
    when they do not line up."""
    ours = path[at]
    step = path[at + 1]
    body: list[ast.stmt] | None
    if isinstance(step, cst.IndentedBlock):
        body, block_at = getattr(theirs, "body", None), at + 1
    elif isinstance(step, cst.Else):
        body, block_at = getattr(theirs, "orelse", None), at + 2
    elif isinstance(step, cst.Finally):
        body, block_at = getattr(theirs, "finalbody", None), at + 2
    elif isinstance(step, cst.ExceptHandler | cst.ExceptStarHandler | cst.MatchCase):
        clauses = (
            ours.handlers if isinstance(ours, cst.Try | cst.TryStar) else getattr(ours, "cases", ())
        )
        theirs_clauses = getattr(theirs, "handlers", None) or getattr(theirs, "cases", None) or []
        index = next((i for i, c in enumerate(clauses) if c is step), -1)
        if index < 0 or index >= len(theirs_clauses):
            return None
        body, block_at = theirs_clauses[index].body, at + 2
    else:
        return None
    if body is None or block_at + 1 >= len(path):
        return None
    block = path[block_at]
    return (block, body, block_at) if isinstance(block, cst.IndentedBlock) else None
