"""Python text to a libcst module with metadata, parsing only the parts that can matter:
the lines a partial parse keeps (python_lines), parsed piece by piece (python_parts).
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from functools import cached_property
from itertools import islice
from typing import TYPE_CHECKING, cast

from lintgv.collector import collector_paused
from lintgv.errors import ParseError
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.ast_statements import statements_only
from lintgv.parsing.cst_parse import unchecked_parse
from lintgv.parsing.names import NameTable
from lintgv.parsing.python_lines import Selection, compact, has_lone_return
from lintgv.parsing.python_parts import ModuleParts
from lintgv.parsing.walk import parents, trivia, walk
from lintgv.records import frozen, mutable

# positions.py builds on libcst's code generation, so importing it imports libcst: it is
# imported where a parse needs it, not with this module.
if TYPE_CHECKING:
    from libcst._position import CodeRange

    from lintgv.parsing.positions import Located


@mutable
class _Parents:
    """Each node's parent in one module. It holds the module, never the ParsedPython
    that holds it: positions ask it their way up, and a cycle back to the parse would
    keep the whole tree alive until the garbage collector's next full pass."""

    module: cst.Module
    found: dict[int, cst.CSTNode] = field(default_factory=dict)  # by the node's id
    complete: bool = False
    walked: bool = False  # a walk noted every node but the trivia it skipped

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """Return the parent of `node` (None for the module, and for a node not in it):
        noted by a walk, or all mapped on first use when there was none or when `node`
        is trivia the walk skipped."""
        if node is self.module:  # a walk notes no parent for the root
            return None
        if (
            not self.complete
            and id(node) not in self.found
            and (not self.walked or type(node) in trivia())
        ):
            self.found.update(parents(self.module))
            self.complete = True
        return self.found.get(id(node))


@frozen
class ParsedPython:
    """A parsed file; positions and names are worked out only when a rule asks."""

    module: cst.Module
    # The dotted module name of the file, for resolving relative imports ("" if unknown).
    module_name: str
    # For a partial parse, the file's line number of each parsed line; empty when whole.
    line_map: tuple[int, ...] = ()
    # The line each top-level statement's code starts on, when known (see LazyPositions).
    starts: tuple[int, ...] | None = None
    # Where every statement starts, from CPython's parse of the same text, when known.
    located: Located | None = None

    @property
    def complete(self) -> bool:
        return not self.line_map

    @cached_property
    def positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        """Return every node's range in the parsed text (computed as nodes are asked for)."""
        from lintgv.parsing.positions import LazyPositions  # imports libcst: see above

        return LazyPositions(self.module, self.starts, self._parents.parent_of, self.located)

    @cached_property
    def _parents(self) -> _Parents:
        return _Parents(self.module)

    def walk(self, visitors: Iterable[Mapping[str, Callable[[cst.CSTNode], None]]]) -> None:
        """Walk the module with `visitors` (see walk.walk), noting the parent of each node
        it meets."""
        walk(self.module, visitors, self._parents.found)
        self._parents.walked = True

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """Return the parent of `node` (None for the module): noted by the walk, or all
        mapped on first use when there was none."""
        return self._parents.parent_of(node)

    def note_parents(self, found: dict[int, cst.CSTNode]) -> None:
        """Take each node's parent, by the node's id, from a caller's own walk of every
        node but the trivia (as `walk` notes them), unless a walk noted them already."""
        if not self._parents.walked and not self._parents.complete:
            self._parents.found = found  # nothing was noted yet: taken, not copied
            self._parents.walked = True

    @cached_property
    def names(self) -> NameTable:
        """Return the names the file binds (computed on first use)."""
        return NameTable.of(self.module, self.module_name)

    def statement_lines(self, lines: Sequence[int]) -> list[int]:
        """Return, for each of the file's `lines`, the first line of the innermost
        statement (a compound one's header only) that holds it; the line itself if none."""
        starts = []
        for line in lines:
            inside = [r for r in self._statement_ranges if r[0] <= line <= r[1]]
            starts.append(max(inside)[0] if inside else line)
        return starts

    @cached_property
    def _statement_ranges(self) -> list[tuple[int, int]]:
        """The file's first and last line of each statement (of a compound one, its
        header): asked by a rule that plans around suppressed sites, then by the engine."""
        positions = self.positions
        ranges = []
        for node, where in positions.items():
            if isinstance(node, cst.SimpleStatementLine | cst.BaseCompoundStatement):
                end = where.end.line
                if isinstance(node, cst.Match):
                    # Cases and no body: the header ends on the subject's last line.
                    end = positions[node.subject].end.line
                elif isinstance(node, cst.BaseCompoundStatement):
                    end = positions[node.body].start.line  # only the header
                ranges.append((self.file_line(where.start.line), self.file_line(end)))
        return ranges

    def file_line(self, line: int) -> int:
        """Return the file's 1-based line for 1-based `line` of the parsed text."""
        if not self.line_map:
            return line
        return self.line_map[min(line, len(self.line_map)) - 1]


def code_of(module: cst.Module, node: cst.CSTNode) -> str:
    """Return `module.code_for_node(node)`. A name, a plain string, or a dotted name of
    them, with no parentheses and no line break in it (most of what rules ask the code
    of) is read off its fields as libcst's code generation would write it: a generation
    costs microseconds a node, and one function of thousands of sites asks thousands of
    times."""
    text = _plain_code(node)
    return module.code_for_node(node) if text is None else text


def _plain_code(node: cst.CSTNode) -> str | None:
    kind = type(node)
    if kind is cst.Name or kind is cst.SimpleString:
        leaf = cast(cst.Name | cst.SimpleString, node)
        return None if leaf.lpar or leaf.rpar else leaf.value
    if kind is cst.Attribute:
        attribute = cast(cst.Attribute, node)
        before, after = attribute.dot.whitespace_before, attribute.dot.whitespace_after
        if attribute.lpar or attribute.rpar:
            return None
        if not isinstance(before, cst.SimpleWhitespace) or not isinstance(
            after, cst.SimpleWhitespace
        ):
            return None  # a line break in it: indentation comes from around the node
        value, name = _plain_code(attribute.value), _plain_code(attribute.attr)
        if value is None or name is None:
            return None
        return f"{value}{before.value}.{after.value}{name}"
    return None


# CPython's words for nesting it refuses; libcst's native parser has no such limit and
# overflows its stack (killing the process) somewhere past a thousand levels.
_TOO_DEEP = ("too many nested", "too many levels", "too complex")
# `a and b and c ...` is one flat node to CPython and a chain nested once per operator to
# libcst: its parser overflows its stack (a segmentation fault: no error, no report)
# between 6,000 and 10,000 of them in one expression, and the rules' recursive walks of
# its tree fail past about 490 (a rule's crash). Far fewer are all a program holds.
_MAX_OPERANDS = 300
_BOOLEAN_WORD = re.compile(r"\b(?:and|or)\b")


def parse_module(text: str) -> cst.Module:
    """Parse `text` with libcst once CPython's parser, which fails cleanly, has ruled out
    nesting deep enough to crash libcst; raise ParseError for such nesting."""
    return _parse_both(text)[0]


def _parse_both(
    text: str, parts: ModuleParts | None = None
) -> tuple[cst.Module, ast.Module | None]:
    """Return libcst's module of `text` and CPython's, if CPython accepts it too."""
    tree = None
    try:
        tree = quiet_parse(text)
    except (MemoryError, RecursionError) as exc:
        raise ParseError("Python nesting too deep to parse") from exc
    except SyntaxError as exc:
        if any(words in str(exc.msg) for words in _TOO_DEEP):
            raise ParseError(f"Python syntax error: {exc.msg}", exc.lineno) from exc
    except ValueError:
        pass  # NUL bytes: libcst reports them
    if tree is not None and _too_long_a_chain(text, tree):
        raise ParseError(
            f"Python nesting too deep to parse: over {_MAX_OPERANDS} `and`/`or` operands "
            "in one expression"
        )
    if tree is not None:
        # Only where statements start is read from CPython's tree from here on; its
        # expressions, freed before libcst builds its own tree, leave their memory to it.
        statements_only(tree)
    if parts is not None and tree is not None:
        return parts.parse(text), tree
    return unchecked_parse(text), tree


def _too_long_a_chain(text: str, tree: ast.Module) -> bool:
    """Tell whether an `and`/`or` expression of `tree` has more than _MAX_OPERANDS
    operands; the tree is walked only when the text holds that many of the words."""
    words = _BOOLEAN_WORD.finditer(text)
    if next(islice(words, _MAX_OPERANDS - 1, None), None) is None:
        return False
    return any(
        isinstance(node, ast.BoolOp) and len(node.values) > _MAX_OPERANDS for node in ast.walk(tree)
    )


def quiet_parse(text: str) -> ast.Module:
    """Return CPython's parse of `text`; the warnings it gives about the tree's code (an
    invalid escape such as "\\d") are not the run's, and under `-W error` they would
    raise."""
    # Its node objects are none of them garbage: see collector_paused (the language server
    # parses whole documents outside a check, for fixes and ignore comments).
    with warnings.catch_warnings(), collector_paused():
        warnings.simplefilter("ignore")
        return ast.parse(text)


def _starts(module: cst.Module, tree: ast.Module | None) -> tuple[int, ...] | None:
    """Return the line where each top-level statement's code starts, its leading lines
    included, from CPython's line numbers; None when the two parses do not line up."""
    from lintgv.parsing.positions import top_level_starts  # imports libcst: see above

    return top_level_starts(module, tree) if tree is not None else None


def python_error(text: str) -> tuple[int, int, str] | None:
    """Return where and why Python's own parser rejects `text` (line, 1-based column,
    message): libcst's tokenizer often points a line late. Parsing runs nothing. A
    partial parse sees no error outside the lines it keeps: this is how a caller that
    reuses a partial check for fixes (which a whole parse would refuse) tells."""
    try:
        quiet_parse(text)
    except SyntaxError as exc:
        if exc.lineno is not None:
            return exc.lineno, exc.offset or 1, exc.msg
    except (RecursionError, MemoryError, ValueError):
        return None
    return None


def parse_python(
    text: str,
    module_name: str = "",
    selection: Selection | None = None,
    parts: ModuleParts | None = None,
) -> ParsedPython:
    """Parse `text` (only the selected lines, when given) into a metadata wrapper; with
    `parts`, reuse the parse of every top-level statement parsed before."""
    if selection is not None:
        try:
            partial, line_map = compact(text, selection)
            module, tree = _parse_both(partial, parts)
            return ParsedPython(
                module,
                module_name,
                line_map,
                _starts(module, tree),
                _located(partial, tree),
            )
        except (cst.ParserSyntaxError, ParseError):
            pass  # the line scan misjudged a block: the whole file settles it
    try:
        module, tree = _parse_both(text, parts)
    except cst.ParserSyntaxError as exc:
        located = python_error(text)
        if located is not None:
            raise ParseError(f"Python syntax error: {located[2]}", located[0], located[1]) from exc
        raise ParseError(
            f"Python syntax error: {exc.message}", exc.raw_line, exc.raw_column + 1
        ) from exc
    except RecursionError as exc:
        raise ParseError("Python nesting too deep to parse") from exc
    return ParsedPython(
        module, module_name, starts=_starts(module, tree), located=_located(text, tree)
    )


def _located(text: str, tree: ast.Module | None) -> Located | None:
    from lintgv.parsing.positions import Located  # imports libcst: see above

    # CPython and libcst end a line at a lone `\r` too; Located splits at `\n` only.
    if tree is None or has_lone_return(text):
        return None
    return Located(text, tree)
