"""C++ text to a tree-sitter tree; with cpp_incremental (the edits tree-sitter is told
of), the only module that converts between tree-sitter byte offsets and positions."""

import re
import threading
import time
from bisect import bisect_right
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from dataclasses import field
from functools import cache, cached_property
from itertools import accumulate
from typing import Any, TypeVar, cast

import tree_sitter
import tree_sitter_cpp

from lintgv.errors import ParseError
from lintgv.model import Edit, Span
from lintgv.parsing.cpp_incremental import TextChange, changed, edited
from lintgv.parsing.cpp_regions import Region, RegionMemo, joined_ranges
from lintgv.records import frozen

_T = TypeVar("_T")

_LONE_CR = re.compile(rb"\r(?!\n)")

# Below this share of the file in ERROR nodes, tree-sitter's recovery still leaves
# statements worth checking (TVM's macro-heavy files sit well under it).
MAX_ERROR_SHARE = 0.6

# tree-sitter's error recovery is superlinear on some broken input: a 60 KB file of
# unterminated comment openers takes it four minutes. A parse that has used this much
# CPU time is given up and the file is "could not be checked"; the largest C++ files of
# TVM parse in a fiftieth of it.
PARSE_SECONDS = 5.0


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


# One parser per thread: a parser is not safe to share, and the language server parses
# on its event loop (a quick fix's check of a comment) while its lint thread parses too;
# the binding lets the other thread run inside its read and progress callbacks.
_PARSERS = threading.local()


def _parser() -> tree_sitter.Parser:
    parser: tree_sitter.Parser | None = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = _PARSERS.parser = tree_sitter.Parser(language())
    return parser


def _read_buffer() -> bytearray:
    """This thread's buffer for the text its parser reads (see _bounded_parse)."""
    buffer: bytearray | None = getattr(_PARSERS, "buffer", None)
    if buffer is None:
        buffer = _PARSERS.buffer = bytearray()
    return buffer


# What holds a body of statements: where "the function around a node" stops.
FUNCTION_NODES = ("function_definition", "lambda_expression")


@cache
def compile_query(source: str) -> tree_sitter.Query:
    """Return the compiled tree-sitter query for `source`, compiled once per process."""
    from lintgv.allocator import give_back

    # The compile reads the grammar's parse table into about 4 MiB of scratch memory,
    # which a worker maps afresh (lintgv/allocator.py), on top of whatever its C heap
    # holds free at that moment: late in a run, megabytes that earlier parses freed.
    # Handed back first (about 30 microseconds), they no longer add to the run's peak.
    give_back()
    return tree_sitter.Query(language(), source)


# tree-sitter takes about 5 ms to compile a query, whatever it holds (it reads the
# grammar's parse table each time), and about 4 MiB of scratch memory, in every process
# that asks for one. So the kinds of node the rules, their helpers and the fixes look for
# are the captures of one query, compiled once per process, and each use reads its own
# capture: a capture no use wants costs a fraction of a microsecond, and most uses ask
# for the byte ranges of a few declarations only. A second query, compiled when a worker
# first needed it, late in a run and on top of all the worker held, set the run's peak.
# - `call`: every call (several rules ask);
# - `site`: the nodes GV101's sites start at: calls and declarations;
# - `binding`: the other nodes that bind a name (GV101's fix planner reads a function
#   body's calls, declarations and bindings);
# - `unit`: the functions and lambdas the shape rules judge;
# - `loop`: the loops GV204 judges.
NODES = (
    "(call_expression) @call\n[(call_expression) (declaration)] @site\n"
    "[(init_declarator) (assignment_expression)] @binding\n"
    "[(function_definition) (lambda_expression)] @unit\n"
    "[(while_statement) (do_statement) (for_statement)] @loop"
)


def node_cursor() -> tree_sitter.QueryCursor:
    """Return a new cursor over NODES."""
    return tree_sitter.QueryCursor(compile_query(NODES))


# A query runs over each range of declarations_around in a pass of its own: past this
# many ranges, one pass over the whole file costs less.
MAX_RANGES = 32


_PARENTS = "parents"  # ParsedCpp.indexes key of the parents charted so far


@frozen
class ParsedCpp:
    tree: tree_sitter.Tree
    data: bytes
    # Where each line starts, in bytes: tree-sitter's rows, which are lintgv's lines
    # (parser_view).
    line_starts: tuple[int, ...]
    is_ascii: bool
    # Kept across an editor's versions of the document (engine.Reuse); None elsewhere.
    memo: RegionMemo | None = field(default=None, compare=False)
    # What analyses work out once per parse and look up per site (codemods.cpp_scope).
    indexes: dict[Hashable, object] = field(default_factory=dict, compare=False, repr=False)

    @property
    def root(self) -> tree_sitter.Node:
        return self.tree.root_node

    def once(self, key: Hashable, compute: Callable[[], _T]) -> _T:
        """Return what `compute` gives for this parse, computing it on the first call:
        the answer lives as long as the parse, and no longer."""
        if key not in self.indexes:
            self.indexes[key] = compute()
        return cast(_T, self.indexes[key])

    def parent(self, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """Return the parent of `node`, in time that does not grow with its depth.

        tree-sitter's `Node.parent` searches down from the root on every call, so walking
        up from a node nested d levels deep costs d² steps: a minute for a call nested a
        few thousand times (a tree can be built to do that). The first question about a
        node charts the whole path down to it once; every ancestor's parent is then known.
        """
        parents = cast(dict[int, tree_sitter.Node | None], self.indexes.setdefault(_PARENTS, {}))
        key = node.id
        if key not in parents:
            current = self.root
            parents[current.id] = None
            while current.id != key:
                child = current.child_with_descendant(node)
                if child is None:  # not in this tree: tree-sitter's own answer
                    parents[key] = node.parent
                    break
                parents[child.id] = current
                current = child
        return parents[key]

    def ancestors(self, node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
        """Yield the ancestors of `node`, innermost first."""
        current = self.parent(node)
        while current is not None:
            yield current
            current = self.parent(current)

    def enclosing(self, node: tree_sitter.Node, types: Collection[str]) -> tree_sitter.Node | None:
        """Return the nearest ancestor of `node` of one of `types`, or None."""
        return next((a for a in self.ancestors(node) if a.type in types), None)

    def text(self, node: tree_sitter.Node, end: tree_sitter.Node | None = None) -> str:
        """Return the source text of `node` (through `end` when given)."""
        last = end if end is not None else node
        return self.data[node.start_byte : last.end_byte].decode("utf-8", errors="replace")

    def _column(self, row: int, byte_col: int) -> int:
        if self.is_ascii:
            return byte_col
        start = self.line_starts[row]
        return len(self.data[start : start + byte_col].decode("utf-8", errors="replace"))

    def position(self, offset: int) -> tuple[int, int]:
        """Return the (1-based line, 0-based code-point column) of byte `offset`."""
        starts = self.line_starts
        row = bisect_right(starts, offset) - 1
        start = starts[row]
        if self.is_ascii:
            return row + 1, offset - start
        return row + 1, len(self.data[start:offset].decode("utf-8", errors="replace"))

    def span(self, node: tree_sitter.Node, end: tree_sitter.Node | None = None) -> Span:
        """Return the Span of `node` (through `end` when given)."""
        last = end if end is not None else node
        return Span(*self.position(node.start_byte), *self.position(last.end_byte))

    def replace(
        self, node: tree_sitter.Node, text: str, end: tree_sitter.Node | None = None
    ) -> Edit:
        """Return the edit replacing `node` (through `end`) by `text`; it carries the
        node's own text, which the applier finds under the span or refuses."""
        return Edit(self.span(node, end), text, self.text(node, end))

    def line_of_byte(self, offset: int) -> int:
        """Return the 1-based line holding byte `offset`."""
        return bisect_right(self.line_starts, offset)

    def declarations_around(
        self, pattern: re.Pattern[bytes], limit: int = MAX_RANGES
    ) -> list[tuple[int, int]] | None:
        """Return the byte ranges of the top-level declarations where `pattern` matches,
        in order, touching ones joined; the whole file for a match outside them; None
        when there are more than `limit`."""
        declarations = self.declarations
        starts = [node.start_byte for node in declarations]
        ranges: list[tuple[int, int]] = []
        for match in pattern.finditer(self.data):
            if ranges and match.start() < ranges[-1][1]:
                continue  # inside the declaration found last
            at = bisect_right(starts, match.start()) - 1
            node = declarations[at] if at >= 0 else None
            if node is None or match.end() > node.end_byte:
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
        return tuple(node for _, node in self._layout[0])

    @cached_property
    def _layout(self) -> tuple[tuple[tuple[str, tree_sitter.Node], ...], int]:
        """Return the top-level declarations with their holders' types, and how many bytes
        the parts of namespaces outside their bodies that hold syntax errors take."""
        found: list[tuple[str, tree_sitter.Node]] = []
        loose = 0
        stack = [self.root]
        while stack:
            holder = stack.pop()
            holder_type = holder.type
            for child in holder.children:
                if not child.is_named:
                    continue
                if child.type in _DECLARATION_HOLDERS:
                    stack.append(child)
                elif child.type in _DECLARATION_WRAPPERS:
                    body = child.child_by_field_name("body")
                    if body is not None:
                        stack.append(body)
                    for part in child.children if child.has_error else ():
                        if part.has_error and part != body:
                            loose += part.end_byte - part.start_byte
                else:
                    found.append((holder_type, child))
        found.sort(key=lambda held: held[1].start_byte)
        return tuple(found), loose

    def error_bound(self) -> int:
        """Return at least as many bytes as `unplaced` counts: those of the declarations
        that hold an error, whole, and of the parts around them that hold one."""
        if self.root.is_error:
            return self.root.end_byte - self.root.start_byte
        held = sum(n.end_byte - n.start_byte for n in self.declarations if n.has_error)
        return held + self._layout[1]

    @cached_property
    def regions(self) -> tuple[Region, ...]:
        """Return the top-level declarations, those that share a line (or follow a comment
        on the line above) joined, in order."""
        starts, data = self.line_starts, self.data
        # Each group: [first byte, end byte, first row, last row, shape], shape being
        # (holder, type, descendant count) per declaration.
        groups: list[list[Any]] = []
        last_row = -1
        after_comment = False
        for holder_type, node in self._layout[0]:
            node_start, node_end, kind = node.start_byte, node.end_byte, node.type
            row = node.start_point[0]
            # The row of the node's last byte: a directive's node takes its newline.
            end_row, end_column = node.end_point
            if end_column == 0 and end_row > row:
                end_row -= 1
            # A comment on the lines just above a declaration goes with it: half as many
            # regions to key on every edit.
            if groups and row <= last_row + after_comment:
                group = groups[-1]
                if node_end > group[1]:
                    group[1] = node_end
                group[4].append((holder_type, kind, node.descendant_count))
            else:
                group = [
                    node_start,
                    node_end,
                    row,
                    row,
                    [(holder_type, kind, node.descendant_count)],
                ]
                groups.append(group)
            if end_row > last_row:
                last_row = group[3] = end_row
            after_comment = kind == "comment"
        regions = [
            Region(
                start,
                end,
                first + 1,
                last + 1,
                (data[starts[first] : start], data[start:end], tuple(shape)),
            )
            for start, end, first, last, shape in groups
        ]
        return tuple(regions)

    def find_in_regions(
        self,
        purpose: str,
        salt: Hashable,
        admits: Callable[[Region], bool],
        find: Callable[[list[tuple[int, int]]], Iterable[tree_sitter.Node]],
    ) -> list[tree_sitter.Node]:
        """Return, in order, the nodes `find` returns for the byte ranges of the regions
        `admits` accepts; what `find` returns in a region must depend on the region's
        text and `salt` alone. With a memo, the regions it knows are not searched again:
        their nodes are found by position."""
        regions = self.regions
        table = self.memo.table(purpose) if self.memo is not None else None
        found: list[tree_sitter.Node] = []
        fresh: list[int] = []
        for index, region in enumerate(regions):
            known = table.get((salt, region.key)) if table is not None else None
            if known == ():
                continue  # nothing there
            again = self._nodes_at(region, cast(_Places, known)) if known is not None else None
            if again is None:
                fresh.append(index)
            else:
                found.extend(again)
        chosen = [i for i in fresh if admits(regions[i])]
        new = sorted(find(joined_ranges(regions, chosen)), key=lambda n: n.start_byte)
        if table is not None:
            starts = [regions[i].start_byte for i in fresh]
            places: dict[int, list[tuple[int, int, str]]] = {i: [] for i in fresh}
            for node in new:
                at = bisect_right(starts, node.start_byte) - 1
                home = regions[fresh[at]] if at >= 0 else None
                if home is None or node.end_byte > home.end_byte:
                    places.clear()  # outside every region: keep nothing, find it again
                    break
                base = home.start_byte
                places[fresh[at]].append((node.start_byte - base, node.end_byte - base, node.type))
            for index, where in places.items():
                table.put((salt, regions[index].key), tuple(where))
        return sorted([*found, *new], key=lambda n: n.start_byte)

    def _nodes_at(self, region: Region, places: "_Places") -> list[tree_sitter.Node] | None:
        """Return the nodes at `places` in `region`, or None if one is not there."""
        nodes = []
        for start, end, kind in places:
            start, end = start + region.start_byte, end + region.start_byte
            node = self.root.descendant_for_byte_range(start, end)
            while node is not None and node.type != kind and node.start_byte == start:
                node = self.parent(node)
            if node is None or (node.start_byte, node.end_byte, node.type) != (start, end, kind):
                return None
            nodes.append(node)
        return nodes

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

    def unplaced(self) -> tuple[int, tree_sitter.Node | None]:
        """Return how many bytes tree-sitter could not place, and the first node of them:
        MISSING nodes, and what each ERROR node spans outside the constructs (and comments)
        it recognised within it.

        An ERROR can wrap most of a file, or all of it, when an outer construct cannot be
        closed among macros (TVM's codegen_llvm.cc, dmlc-core's json.h); the functions
        and classes it holds are still whole trees that rules can read."""
        total = 0
        first: tree_sitter.Node | None = None
        stack = [self.root]
        while stack:
            node = stack.pop()
            loose: list[tree_sitter.Node] = []
            if node.is_missing:
                loose = [node]
            elif node.is_error:
                kept = [c for c in node.children if c.child_count or c.type == "comment"]
                total += node.end_byte - node.start_byte
                total -= sum(c.end_byte - c.start_byte for c in kept)
                stack.extend(c for c in kept if c.child_count)
                loose = [c for c in node.children if not c.child_count and c.type != "comment"]
            elif node.has_error:
                stack.extend(node.children)
            for candidate in loose[:1]:
                if first is None or candidate.start_byte < first.start_byte:
                    first = candidate
        return total, first


# Where nodes are in a region: byte offsets from its start, and the node's type.
_Places = tuple[tuple[int, int, str], ...]


def parse_cpp(
    text: str,
    previous: ParsedCpp | None = None,
    memo: RegionMemo | None = None,
    changes: Sequence[TextChange] | None = None,
) -> ParsedCpp:
    """Parse C++ `text`; raise ParseError only when error recovery leaves nothing to check.

    With `previous`, the parse of an earlier version of the same document, tree-sitter
    reparses only what changed between the two: the `changes` that lead from that
    version to `text`, when given and they do; else the span where the two texts differ.
    `memo` keeps what rules work out about the document's regions for its next version.
    """
    data = text.encode("utf-8")
    seen = parser_view(data)
    # Each line's start: one past the end of the line before (the sum runs in C).
    starts = list(accumulate(map((1).__add__, map(len, seen.split(b"\n"))), initial=0))
    starts.pop()
    if previous is None:
        tree = _bounded_parse(seen, None)
    # An earlier tree is told how the text tree-sitter saw then became the one it sees now.
    else:
        old, old_tree = parser_view(previous.data), previous.tree
        told = changed(old_tree, old, changes, seen) if changes is not None else None
        tree = _bounded_parse(
            seen, told or edited(old_tree, old, previous.line_starts, seen, starts)
        )
    parsed = ParsedCpp(tree, data, tuple(starts), text.isascii(), memo)
    # A bound costs little and usually settles it: walking every error costs more.
    if tree.root_node.has_error and parsed.error_bound() > MAX_ERROR_SHARE * len(data):
        broken, first = parsed.unplaced()
        if broken / len(data) > MAX_ERROR_SHARE and first is not None:
            row, col = first.start_point
            raise ParseError(
                f"C++ could not be parsed: {broken * 100 // len(data)}% of the file is in "
                "syntax errors, first at this position",
                line=row + 1,
                column=parsed._column(row, col) + 1,
            )
    return parsed


def parser_view(data: bytes) -> bytes:
    """Return `data` as tree-sitter is given it: each lone `\\r` made a `\\n`.

    tree-sitter-cpp ends a line comment and a preprocessor directive at `\\n` only, so in
    a file whose lines end in a lone `\\r` (classic Mac OS) an `#include` takes in the
    rest of the file. A lone `\\r` ends a line for lintgv too (lintgv.lines), and one byte
    for another keeps every offset: the tree's nodes stand where they do in `data`, and
    its rows are lintgv's lines."""
    return _LONE_CR.sub(b"\n", data) if b"\r" in data else data


def _bounded_parse(data: bytes, old_tree: tree_sitter.Tree | None) -> tree_sitter.Tree:
    """Parse `data` (reusing `old_tree`) in at most PARSE_SECONDS of this thread's CPU."""
    deadline = time.thread_time() + PARSE_SECONDS
    # A thread's CPU time grows no faster than the wall clock, so the deadline cannot pass
    # before this much wall time has: until then the callback, which tree-sitter calls
    # every 150 bytes or so, reads only the monotonic clock (a tenth of a microsecond;
    # the thread's CPU clock is a system call of 1.4).
    earliest = time.monotonic() + PARSE_SECONDS

    # Only parsing from a callback can be given up. tree-sitter asks for the text about
    # twice a file; a node's `.text` would ask again (and crashes the process on
    # anything but bytes), so lintgv slices text out of ParsedCpp.data instead.
    # py-tree-sitter (0.25 to 0.26.1 at least) keeps one reference to every object the
    # callback returns and never drops it. Handed `data` itself, it kept every C++ text
    # the process ever parsed (the language server's every version of a document);
    # handed a view of it per call, released after the parse, it kept the views: two
    # small objects a parse, for as long as the process lives, each keeping the
    # allocator's arena it was made in (one plan of supply threading across TVM's C++
    # files left 105 arenas of a MiB where 47 now remain, once the collector has run).
    # It is handed only objects that live anyway: this thread's buffer, filled with the
    # text from the offset asked for, and b"" at the end.
    buffer = _read_buffer()

    def read(offset: int, _point: tree_sitter.Point) -> bytes | bytearray:
        if offset >= len(data):
            return b""
        # tree-sitter reads what it was handed before it asks again: refilling is safe.
        buffer[:] = memoryview(data)[offset:]
        return buffer

    def given_up(_offset: int, _has_error: bool) -> bool:
        return time.monotonic() > earliest and time.thread_time() > deadline

    parser = _parser()
    try:
        if old_tree is None:
            return parser.parse(read, progress_callback=given_up)
        return parser.parse(read, old_tree, progress_callback=given_up)
    except SystemError as error:
        # A Ctrl-C that lands in `read` is kept pending by the binding, which parses on
        # and lets the next call into Python fail with this error instead; the
        # interrupt must still end the run as one, not as a file that could not be parsed.
        parser.reset()
        raise _interrupt_behind(error) from None
    except ValueError:  # the parse was given up
        # A parser given up resumes that parse on its next call unless it is reset.
        parser.reset()
        raise ParseError(
            f"C++ could not be parsed: tree-sitter gave no tree within {PARSE_SECONDS:g} s "
            "of CPU time (its error recovery is slow on this file's syntax errors)",
            line=1,
            column=1,
        ) from None
    except BaseException:
        # An interrupt that lands in `given_up` comes straight out; the parser, halted
        # mid-parse, would resume that parse on its next call (a caller that goes on
        # after an interrupt, as the language server may, would get a wrong tree).
        parser.reset()
        raise
    finally:
        del buffer[:]  # no text is kept between parses


def _interrupt_behind(error: SystemError) -> BaseException:
    """Return the interrupt (or exit) an error from a C callback stands for, else itself."""
    cause: BaseException | None = error
    while cause is not None:
        if not isinstance(cause, Exception):
            return cause
        cause = cause.__cause__ or cause.__context__
    return error


def error_free(text: str) -> int:
    """Return the number of ERROR and MISSING nodes tree-sitter finds in `text`."""
    return len(parse_cpp(text).error_nodes())
