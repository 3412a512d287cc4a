"""C++ text to a tree-sitter tree; the only module that converts tree-sitter byte offsets."""

import re
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import accumulate
from pathlib import Path
from threading import Lock

import tree_sitter
import tree_sitter_cpp

from lintgv.errors import ParseError
from lintgv.model import Span

# Below this share of the file in ERROR nodes, tree-sitter's recovery still leaves
# statements worth checking (TVM's macro-heavy files sit well under it).
MAX_ERROR_SHARE = 0.6


# Nodes whose children are declarations of their own: the file, a namespace's body, an
# #if block.
_DECLARATION_HOLDERS = frozenset(
    {"translation_unit", "declaration_list", "preproc_if", "preproc_ifdef", "preproc_else"}
)
# Declarations whose body holds declarations: a namespace, `extern "C" { ... }`.
_DECLARATION_WRAPPERS = frozenset({"namespace_definition", "linkage_specification"})


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

    def declarations_around(
        self, pattern: re.Pattern[bytes], limit: int
    ) -> list[tuple[int, int]] | None:
        """Return the byte ranges of the declarations (functions, classes, variables, in
        namespaces too) where `pattern` matches, in order, touching ones joined; None
        when there are more than `limit`."""
        ranges: list[tuple[int, int]] = []
        for match in pattern.finditer(self.data):
            if ranges and match.start() < ranges[-1][1]:
                continue  # inside the declaration found last
            node: tree_sitter.Node | None = self.root.descendant_for_byte_range(
                match.start(), match.end()
            )
            while node is not None and node.parent is not None:
                if node.parent.type in _DECLARATION_HOLDERS:
                    break
                node = node.parent
            if node is None or node.parent is None:
                return [(0, len(self.data))]
            if ranges and node.start_byte <= ranges[-1][1]:
                ranges[-1] = (ranges[-1][0], max(node.end_byte, ranges[-1][1]))
            elif len(ranges) == limit:
                return None
            else:
                ranges.append((node.start_byte, node.end_byte))
        return ranges

    @cached_property
    def declarations(self) -> tuple[tree_sitter.Node, ...]:
        """Return the top-level declarations (functions, classes, variables, in namespaces,
        `extern "C"` and `#if` blocks too; an ERROR node there counts as one), in order."""
        found: list[tree_sitter.Node] = []
        stack = [self.root]
        while stack:
            holder = stack.pop()
            for child in holder.children:
                if not child.is_named:
                    continue
                if child.type in _DECLARATION_HOLDERS:
                    stack.append(child)
                elif child.type in _DECLARATION_WRAPPERS:
                    body = child.child_by_field_name("body")
                    if body is not None:
                        stack.append(body)
                else:
                    found.append(child)
        found.sort(key=lambda n: n.start_byte)
        return tuple(found)

    def ranges_where(self, admits: Callable[[int, int], bool]) -> list[tuple[int, int]]:
        """Return the byte ranges of the top-level declarations for whose start and end
        byte `admits` holds, in order, touching ones joined."""
        ranges: list[tuple[int, int]] = []
        for node in self.declarations:
            start, end = node.start_byte, node.end_byte
            if not admits(start, end):
                continue
            if ranges and start <= ranges[-1][1]:
                ranges[-1] = (ranges[-1][0], max(end, ranges[-1][1]))
            else:
                ranges.append((start, end))
        return ranges

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


def parse_cpp(text: str, previous: ParsedCpp | None = None) -> ParsedCpp:
    """Parse C++ `text`; raise ParseError only when error recovery leaves nothing to check.

    With `previous`, the parse of an earlier version of the same document, tree-sitter
    reparses only what changed between the two.
    """
    data = text.encode("utf-8")
    # Each line's start: one past the end of the line before (the sum runs in C).
    starts = list(accumulate(map((1).__add__, map(len, data.split(b"\n"))), initial=0))
    starts.pop()
    if previous is None:
        tree = _parser().parse(data)
    else:
        tree = _parser().parse(data, _edited(previous, data, starts))
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


def _edited(previous: ParsedCpp, data: bytes, starts: list[int]) -> tree_sitter.Tree:
    """Return a copy of `previous`'s tree told which bytes differ in `data`: one edit
    from the first differing byte to the last, found by comparing the two texts."""
    old = previous.data
    start = _common_prefix(old, data)
    end = _common_prefix(old[start:][::-1], data[start:][::-1])
    old_end, new_end = len(old) - end, len(data) - end
    tree = previous.tree.copy()
    tree.edit(
        start_byte=start,
        old_end_byte=old_end,
        new_end_byte=new_end,
        start_point=_point(previous.line_starts, start),
        old_end_point=_point(previous.line_starts, old_end),
        new_end_point=_point(starts, new_end),
    )
    return tree


def _common_prefix(a: bytes, b: bytes) -> int:
    """Return the length of the longest common prefix (slice comparisons run in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _point(line_starts: Sequence[int], offset: int) -> tuple[int, int]:
    row = bisect_right(line_starts, offset) - 1
    return row, offset - line_starts[row]


class CppTrees:
    """The last parse of each C++ document, so that the next version of a document an
    editor changes is parsed incrementally. Safe to share between threads."""

    def __init__(self, size: int = 32) -> None:
        self._size = size
        self._last: OrderedDict[Path, ParsedCpp] = OrderedDict()
        self._lock = Lock()

    def parse(self, path: Path, text: str) -> ParsedCpp:
        """Parse `text`, the current version of the document at `path`."""
        with self._lock:
            previous = self._last.pop(path, None)
        parsed = parse_cpp(text, previous)
        with self._lock:
            self._last[path] = parsed
            while len(self._last) > self._size:
                self._last.popitem(last=False)
        return parsed

    def forget(self, path: Path) -> None:
        """Drop the parse kept for `path` (its document was closed)."""
        with self._lock:
            self._last.pop(path, None)


def error_free(text: str) -> int:
    """Return the number of ERROR and MISSING nodes tree-sitter finds in `text`."""
    return len(parse_cpp(text).error_nodes())
