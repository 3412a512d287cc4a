"""C++ text to a tree-sitter tree; the only module that converts tree-sitter byte offsets."""

from bisect import bisect_right
from dataclasses import dataclass
from functools import cache

import tree_sitter
import tree_sitter_cpp

from lintgv.errors import ParseError
from lintgv.model import Span

# Below this share of the file in ERROR nodes, tree-sitter's recovery still leaves
# statements worth checking (TVM's macro-heavy files sit well under it).
MAX_ERROR_SHARE = 0.6


@cache
def language() -> tree_sitter.Language:
    """Return the tree-sitter C++ language, loaded once per process."""
    return tree_sitter.Language(tree_sitter_cpp.language())


@cache
def _parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(language())


@cache
def compile_query(source: str) -> tree_sitter.Query:
    """Return the compiled tree-sitter query for `source`, compiled once per process."""
    return tree_sitter.Query(language(), source)


@dataclass(frozen=True)
class ParsedCpp:
    tree: tree_sitter.Tree
    data: bytes
    line_starts: tuple[int, ...]
    is_ascii: bool

    @property
    def root(self) -> tree_sitter.Node:
        return self.tree.root_node

    def text(self, node: tree_sitter.Node) -> str:
        """Return the source text of `node`."""
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def _column(self, row: int, byte_col: int) -> int:
        if self.is_ascii:
            return byte_col
        start = self.line_starts[row]
        return len(self.data[start : start + byte_col].decode("utf-8", errors="replace"))

    def span(self, node: tree_sitter.Node, end: tree_sitter.Node | None = None) -> Span:
        """Return the Span of `node` (through `end` when given)."""
        last = end if end is not None else node
        (srow, scol), (erow, ecol) = node.start_point, last.end_point
        return Span(srow + 1, self._column(srow, scol), erow + 1, self._column(erow, ecol))

    def line_of_byte(self, offset: int) -> int:
        """Return the 1-based line holding byte `offset`."""
        return bisect_right(self.line_starts, offset)

    def error_nodes(self) -> list[tree_sitter.Node]:
        """Return the outermost ERROR and MISSING nodes of the tree."""
        found: list[tree_sitter.Node] = []
        stack = [self.root]
        while stack:
            node = stack.pop()
            if node.is_error or node.is_missing:
                found.append(node)
            elif node.has_error:
                stack.extend(node.children)
        return found


def parse_cpp(text: str) -> ParsedCpp:
    """Parse C++ `text`; raise ParseError only when error recovery leaves nothing to check."""
    data = text.encode("utf-8")
    tree = _parser().parse(data)
    starts = [0]
    index = data.find(b"\n")
    while index != -1:
        starts.append(index + 1)
        index = data.find(b"\n", index + 1)
    parsed = ParsedCpp(tree, data, tuple(starts), text.isascii())
    if tree.root_node.has_error and data.strip():
        broken = sum(n.end_byte - n.start_byte for n in parsed.error_nodes())
        if broken / len(data) > MAX_ERROR_SHARE:
            first = parsed.error_nodes()[0]
            row, col = first.start_point
            raise ParseError(
                f"C++ could not be parsed: {broken * 100 // len(data)}% of the file is in "
                "syntax errors, first at this position",
                line=row + 1,
                column=parsed._column(row, col) + 1,
            )
    return parsed


def error_free(text: str) -> int:
    """Return the number of ERROR and MISSING nodes tree-sitter finds in `text`."""
    return len(parse_cpp(text).error_nodes())
