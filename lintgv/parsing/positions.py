"""Node positions of a libcst module, worked out one statement at a time.

libcst's PositionProvider generates the code of the whole module, recording a range for
every node; in a file with one finding that is most of the cost of checking it. Plain
code generation is several times cheaper: one pass of it notes, for every statement
(nested ones too), the line it starts on and the indentation around it, and which
innermost statement holds each node. Only the statements that hold a node asked about are
generated again with positions. Ranges are the same as PositionProvider's: they come
from the same code generation, started on the same line with the same indentation.
"""

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import TypeGuard

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import CodeRange, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

_HEADER = -1  # nodes of the module's header and footer: not in any statement


@dataclass(frozen=True)
class _Statement:
    node: cst.BaseStatement
    line: int  # the line its code generation starts on (its leading lines included)
    indent: tuple[str, ...]  # the indentation tokens in force there


@dataclass
class _IndexingState(CodegenState):
    """Plain code generation that notes where each statement starts and holds what."""

    owners: dict[int, int] = field(default_factory=dict)
    statements: list[_Statement] = field(default_factory=list)
    line: int = 1
    counted: int = 0  # tokens already counted into `line`
    open: list[int] = field(default_factory=list)  # statements being generated, innermost last

    def before_codegen(self, node: cst.CSTNode) -> None:
        if _is_statement(node):
            for token in self.tokens[self.counted :]:
                self.line += _newlines(token)
            self.counted = len(self.tokens)
            self.open.append(len(self.statements))
            self.statements.append(_Statement(node, self.line, tuple(self.indent_tokens)))
        self.owners[id(node)] = self.open[-1] if self.open else _HEADER

    def after_codegen(self, node: cst.CSTNode) -> None:
        if _is_statement(node):
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
_IS_STATEMENT: dict[type, bool] = {}


def _is_statement(node: cst.CSTNode) -> TypeGuard[cst.BaseStatement]:
    kind = type(node)
    found = _IS_STATEMENT.get(kind)
    if found is None:
        found = _IS_STATEMENT[kind] = issubclass(kind, cst.BaseStatement)
    return found


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
    ) -> None:
        self._module = module
        # One provider holds every range computed so far, statement by statement.
        self._provider = PositionProvider()
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
        computed = self._provider._computed
        if node not in computed and not self._complete:
            statement = self._owner(node)
            if statement != _HEADER and statement not in self._done:
                self._generate(statement)
            if node not in computed:
                self._generate_all()
        found = computed[node]
        assert isinstance(found, CodeRange)
        return found

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
        return iter(self._provider._computed)

    def __len__(self) -> int:
        self._generate_all()
        return len(self._provider._computed)

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
        module = self._module
        statement = self._statements[index]
        state = PositionProvidingCodegenState(
            default_indent=module.default_indent,
            default_newline=module.default_newline,
            provider=self._provider,
        )
        state.line = statement.line
        state.indent_tokens = list(statement.indent)
        statement.node._codegen(state)
        self._done.add(index)

    def _generate_all(self) -> None:
        if not self._complete:
            self._provider._gen_impl(self._module)
            self._complete = True
