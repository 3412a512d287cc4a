"""Node positions of a libcst module, worked out one top-level statement at a time.

libcst's PositionProvider generates the code of the whole module, recording a range for
every node; in a file with one finding that is most of the cost of checking it. Plain
code generation is several times cheaper: one pass of it finds the line each top-level
statement starts on and which statement holds each node, and only the statements that
hold a node asked about are generated again with positions. Ranges are the same as
PositionProvider's: they come from the same code generation, started on the same line.
"""

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import CodeRange, PositionProvider
from libcst.metadata.position_provider import PositionProvidingCodegenState

_HEADER = -1  # nodes of the module's header and footer: not in any statement


@dataclass
class _IndexingState(CodegenState):
    """Plain code generation that notes which top-level statement each node is in."""

    owners: dict[int, int] = field(default_factory=dict)
    statement: int = _HEADER

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.owners[id(node)] = self.statement


def _newlines(tokens: list[str]) -> int:
    text = "".join(tokens)
    # As PositionProvider counts: "\r\n", "\r" and "\n" each end a line.
    return text.count("\n") + text.count("\r") - text.count("\r\n")


class LazyPositions(Mapping[cst.CSTNode, CodeRange]):
    """PositionProvider's ranges, computed only for the statements asked about."""

    def __init__(self, module: cst.Module) -> None:
        self._module = module
        # One provider holds every range computed so far, statement by statement.
        self._provider = PositionProvider()
        self._owners: dict[int, int] | None = None
        self._starts: list[int] = []
        self._done: set[int] = set()
        self._complete = False

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        computed = self._provider._computed
        if node not in computed and not self._complete:
            statement = self._index().get(id(node), _HEADER)
            if statement != _HEADER and statement not in self._done:
                self._generate(statement)
            if node not in computed:
                self._generate_all()
        found = computed[node]
        assert isinstance(found, CodeRange)
        return found

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
            for line in module.header:
                line._codegen(state)
            line_number = 1 + _newlines(state.tokens)
            for number, statement in enumerate(module.body):
                state.statement = number
                state.tokens.clear()
                statement._codegen(state)
                self._starts.append(line_number)
                line_number += _newlines(state.tokens)
            self._owners = state.owners
        return self._owners

    def _generate(self, statement: int) -> None:
        module = self._module
        state = PositionProvidingCodegenState(
            default_indent=module.default_indent,
            default_newline=module.default_newline,
            provider=self._provider,
        )
        state.line = self._starts[statement]
        module.body[statement]._codegen(state)
        self._done.add(statement)

    def _generate_all(self) -> None:
        if not self._complete:
            self._provider._gen_impl(self._module)
            self._complete = True
