"""Python text to a libcst module with metadata, parsing only the parts that can matter.

libcst parses about 2 MB/s, far too slow for a whole compiler tree. Most files hold no
trigger word and are never parsed; in the others, only the functions (or top-level
statements) around a trigger are kept, together with the imports that name resolution
needs. Every other line is blanked, so line and column numbers stay those of the file.
"""

import ast
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper

from lintgv.errors import ParseError
from lintgv.parsing.names import NameTable
from lintgv.parsing.positions import LazyPositions
from lintgv.parsing.walk import parents, walk
from lintgv.prefilter import Triggers

_TOKEN = re.compile(r'"""|\'\'\'|"|\'|#|[\[\](){}]|\\\r?\n|\n')
_HEADER = re.compile(r"[ \t]*(?:async[ \t]+def|def|class)\b")
_DEF = re.compile(r"[ \t]*(?:async[ \t]+def|def)\b")
_DECORATOR = re.compile(r"[ \t]*@")
_IMPORT = re.compile(r"(?:import|from)[ \t]")
_IMPORT_LINE = re.compile(r"^[ \t]*(?:import|from)[ \t]", re.M)
_CONTINUES_BLOCK = re.compile(r"[ \t]*(?:elif|else|except|finally|case)\b")
# A top-level compound statement that imports something is kept whole when it is this short.
_MAX_IMPORT_BLOCK = 40


@dataclass(frozen=True)
class _Logical:
    first: int  # 0-based physical line where the logical line starts
    last: int  # 0-based physical line where it ends
    indent: int


def _logical_lines(text: str, offsets: list[int]) -> list[_Logical] | None:
    """Split `text` into logical lines, or return None when the scan loses its way."""
    result: list[_Logical] = []
    line = 0
    depth = 0
    start = 0  # physical line where the current logical line began
    pos = 0
    at_line_start = True
    n = len(text)
    while pos < n:
        if at_line_start and depth == 0:
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
        match = _TOKEN.search(text, pos)
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
            depth = max(depth - 1, 0)
        elif token.startswith("\\"):
            line += 1
        else:  # a newline
            if depth == 0:
                result.append(_Logical(start, line, _indent(text, offsets[start])))
                at_line_start = True
            line += 1
    if not at_line_start:
        result.append(_Logical(start, line, _indent(text, offsets[start])))
    return result


def _indent(text: str, begin: int) -> int:
    i = begin
    while i < len(text) and text[i] in " \t":
        i += 1
    return i - begin


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


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    index = text.find("\n")
    while index != -1:
        offsets.append(index + 1)
        index = text.find("\n", index + 1)
    return offsets


def _parents(logical: Sequence[_Logical]) -> list[int]:
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


@dataclass(frozen=True)
class Selection:
    """The lines of a file worth parsing: kept lines, and lines replaced by `pass` stubs."""

    keep: frozenset[int]
    stubs: tuple[tuple[int, str], ...] = ()

    @property
    def is_empty(self) -> bool:
        return not self.keep


class _Segmenter:
    """Chooses the lines that let each trigger parse in context; see the module docstring."""

    def __init__(self, text: str, offsets: list[int], logical: list[_Logical]) -> None:
        self.text = text
        self.offsets = offsets
        self.logical = logical
        self.firsts = [item.first for item in logical]
        self.keep: set[int] = set()
        self.stub_clauses: set[int] = set()
        self.imports = [i for i in range(len(logical)) if self._starts(i, _IMPORT)]
        # Worked out once for the file, so that each trigger costs its nesting depth, not
        # a walk over the lines of its function (quadratic in a long function).
        self.parents = _parents(logical)
        self._block_ends: dict[int, int] = {}
        self._clauses: dict[int, list[int]] = {}
        self._headers_kept: set[int] = set()
        self._functions_kept: set[int] = set()

    def _starts(self, index: int, pattern: re.Pattern[str]) -> bool:
        return pattern.match(self.text, self.offsets[self.logical[index].first]) is not None

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
_ASSIGNED = re.compile(r"^[ \t]*(\w+)[ \t]*=[ \t]*[\w.]*$")


def _alias_after(text: str, hit: re.Match[str]) -> re.Match[str] | None:
    """Return a match whose group 1 is a name that `hit`'s import or assignment binds."""
    after = _AS.match(text, hit.end())
    if after is not None:
        return after
    start = text.rfind("\n", 0, hit.start()) + 1
    end = text.find("\n", hit.end())
    line = text[start : end if end != -1 else len(text)]
    return _ASSIGNED.match(line) if line[hit.end() - start :].strip() == "" else None


def select_lines(
    text: str,
    statement_trigger: Triggers | None,
    function_trigger: Triggers | None = None,
) -> Selection | None:
    """Return the lines to parse so every trigger parses in context, or None for all.

    A statement trigger keeps its statement and the headers around it; a function
    trigger keeps its whole innermost function.
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
    offsets = _line_offsets(text)
    logical = _logical_lines(text, offsets)
    if logical is None:
        return None
    segmenter = _Segmenter(text, offsets, logical)
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


@dataclass
class _Parents:
    """Each node's parent in one module. It holds the module, never the ParsedPython
    that holds it: positions ask it their way up, and a cycle back to the parse would
    keep the whole tree alive until the garbage collector's next full pass."""

    module: cst.Module
    found: dict[int, cst.CSTNode] = field(default_factory=dict)  # by the node's id
    complete: bool = False

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """Return the parent of `node` (None for the module): noted by a walk, or all
        mapped on first use when there was none."""
        if node is self.module:  # a walk notes no parent for the root
            return None
        if not self.complete and id(node) not in self.found:
            self.found.update(parents(self.module))
            self.complete = True
        return self.found.get(id(node))


@dataclass(frozen=True)
class ParsedPython:
    """A parsed file; positions and names are worked out only when a rule asks."""

    wrapper: MetadataWrapper
    # The dotted module name of the file, for resolving relative imports ("" if unknown).
    module_name: str
    # For a partial parse, the file's line number of each parsed line; empty when whole.
    line_map: tuple[int, ...] = ()
    # The line each top-level statement's code starts on, when known (see LazyPositions).
    starts: tuple[int, ...] | None = None

    @property
    def module(self) -> cst.Module:
        return self.wrapper.module

    @property
    def complete(self) -> bool:
        return not self.line_map

    @cached_property
    def positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        """Return every node's range in the parsed text (computed as nodes are asked for)."""
        return LazyPositions(self.module, self.starts, self._parents.parent_of)

    @cached_property
    def _parents(self) -> _Parents:
        return _Parents(self.module)

    def walk(self, visitors: Iterable[Mapping[str, Callable[[cst.CSTNode], None]]]) -> None:
        """Walk the module with `visitors` (see walk.walk), noting every node's parent."""
        walk(self.module, visitors, self._parents.found)
        self._parents.complete = True

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """Return the parent of `node` (None for the module): noted by the walk, or all
        mapped on first use when there was none."""
        return self._parents.parent_of(node)

    @cached_property
    def names(self) -> NameTable:
        """Return the names the file binds (computed on first use)."""
        return NameTable.of(self.module, self.module_name)

    def file_line(self, line: int) -> int:
        """Return the file's 1-based line for 1-based `line` of the parsed text."""
        if not self.line_map:
            return line
        return self.line_map[min(line, len(self.line_map)) - 1]


# CPython's words for nesting it refuses; libcst's native parser has no such limit and
# overflows its stack (killing the process) somewhere past a thousand levels.
_TOO_DEEP = ("too many nested", "too many levels", "too complex")


def parse_module(text: str) -> cst.Module:
    """Parse `text` with libcst once CPython's parser, which fails cleanly, has ruled out
    nesting deep enough to crash libcst; raise ParseError for such nesting."""
    return _parse_both(text)[0]


def _parse_both(
    text: str, parts: "ModuleParts | None" = None
) -> tuple[cst.Module, ast.Module | None]:
    """Return libcst's module of `text` and CPython's, if CPython accepts it too."""
    tree = None
    try:
        tree = ast.parse(text)
    except (MemoryError, RecursionError) as exc:
        raise ParseError("Python nesting too deep to parse") from exc
    except SyntaxError as exc:
        if any(words in str(exc.msg) for words in _TOO_DEEP):
            raise ParseError(f"Python syntax error: {exc.msg}", exc.lineno) from exc
    except ValueError:
        pass  # NUL bytes: libcst reports them
    if parts is not None and tree is not None:
        return parts.parse(text), tree
    return cst.parse_module(text), tree


def _starts(module: cst.Module, tree: ast.Module | None) -> tuple[int, ...] | None:
    """Return the line where each top-level statement's code starts, its leading lines
    included, from CPython's line numbers; None when the two parses do not line up."""
    if tree is None:
        return None
    ours: list[int] = []
    theirs = tree.body
    taken = 0
    for statement in module.body:
        count = len(statement.body) if isinstance(statement, cst.SimpleStatementLine) else 1
        if taken + count > len(theirs):
            return None
        first = theirs[taken]
        line = first.lineno
        # libcst puts the lines before the first decorator in the statement's leading lines.
        if getattr(statement, "decorators", ()) and isinstance(first, _DECORATED):
            line = min(d.lineno for d in first.decorator_list)
        ours.append(line - len(statement.leading_lines))
        taken += count
    return tuple(ours) if taken == len(theirs) else None


_DECORATED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class ModuleParts:
    """libcst's parse of one document's top-level statements, by their text: the
    document's next version is parsed by parsing only the statements an edit changed, and
    putting the module together from those and the kept ones. Only the last version's
    statements are kept, so memory follows the document. Used by one thread at a time."""

    def __init__(self) -> None:
        self._parsed: dict[str, cst.Module] = {}

    def __len__(self) -> int:
        """Return how many statements' parses are kept."""
        return len(self._parsed)

    def parse(self, text: str) -> cst.Module:
        """Return libcst's module of `text`, equal to `cst.parse_module(text)`."""
        pieces = _pieces(text)
        kept: dict[str, cst.Module] = {}
        modules = [self._piece(piece, kept) for piece in pieces or ()]
        self._parsed = kept
        module = _joined(modules)
        return module if module is not None else cst.parse_module(text)

    def _piece(self, piece: str, kept: dict[str, cst.Module]) -> cst.Module:
        """Return the module of one top-level statement: a long class member by member."""
        parts = _class_parts(piece) if len(piece) > CLASS_SPLIT_SIZE else None
        if parts is not None:
            head, members = parts
            newline = "\r\n" if "\r\n" in head else "\n"
            shell = self._part(head + members[0], kept)
            wrapped = [self._part(f"class _:{newline}{member}", kept) for member in members[1:]]
            module = _class_joined(shell, wrapped)
            if module is not None:
                return module
        return self._part(piece, kept)

    def _part(self, text: str, kept: dict[str, cst.Module]) -> cst.Module:
        # A node appears once in a module (rules map nodes by identity): a part that
        # repeats is parsed again.
        module = None if text in kept else self._parsed.get(text)
        if module is None:
            module = cst.parse_module(text)
        kept.setdefault(text, module)
        return module


# A top-level class longer than this is parsed one member at a time: libcst's native
# parser holds several hundred bytes per byte of its input until it is done, so a large
# class would set a run's peak memory (and an edit of one method would parse them all).
CLASS_SPLIT_SIZE = 4096
_CLASS = re.compile(r"class\b")


# A comment that does not start its line.
_INDENTED_COMMENT = re.compile(r"^[ \t\f]+#", re.M)
# A logical line at the top level that continues the statement before it.
_CONTINUES = re.compile(r"(?:elif|else|except|finally)\b|@")


def _pieces(text: str) -> list[str] | None:
    """Split `text` before each top-level statement and the comment and blank lines
    above it, unless one of those comments is indented (libcst may give it to the block
    above); None when `text` cannot be scanned or does not end with a newline."""
    if not text.endswith("\n"):
        return None
    offsets = _line_offsets(text)
    logical = _logical_lines(text, offsets)
    if logical is None:
        return None
    cuts = [0]
    for before, item in pairwise(logical):
        if item.indent or _CONTINUES.match(text, offsets[item.first]):
            continue
        if text.startswith("@", offsets[before.first]):
            continue  # a decorator and what it decorates are one statement
        cut = offsets[before.last + 1]
        if _INDENTED_COMMENT.search(text, cut, offsets[item.first]) is None:
            cuts.append(cut)
    cuts.append(len(text))
    return [text[a:b] for a, b in pairwise(cuts)]


def _class_parts(piece: str) -> tuple[str, list[str]] | None:
    """Split one top-level class statement (its decorators and the comment and blank
    lines above it included) into its head, up to the end of the `class` line, and its
    members, each with the comment and blank lines above it; None when the piece is not
    one such class or a cut could move a line to another owner (see _pieces)."""
    offsets = _line_offsets(piece)
    logical = _logical_lines(piece, offsets)
    if not logical:
        return None
    at = 0
    while at < len(logical) and piece.startswith("@", offsets[logical[at].first]):
        at += 1  # decorators
    if at == len(logical) or not _CLASS.match(piece, offsets[logical[at].first]):
        return None
    header, body = logical[at], logical[at + 1 :]
    if not body or offsets[body[-1].last + 1 : body[-1].last + 2] != [len(piece)]:
        return None  # the class's suite is on its line, or lines follow its last one
    first = offsets[body[0].first]
    indent = piece[first : first + body[0].indent]
    if not indent or any(line.indent < len(indent) for line in body):
        return None  # something at the top level after the class line: not one class
    cuts = [offsets[header.last + 1]]
    for before, item in pairwise(body):
        start = offsets[item.first]
        if item.indent != len(indent) or not piece.startswith(indent, start):
            continue
        if _CONTINUES.match(piece, start + len(indent)):
            continue  # elif, else, except, finally, or a decorated definition
        if piece.startswith(indent + "@", offsets[before.first]):
            continue  # a decorator and what it decorates are one member
        cut = offsets[before.last + 1]
        # Comment and blank lines before a member lead it, as they do in the class,
        # only when they sit at the members' indentation.
        between = piece[cut:start].splitlines()
        if all(not line or line.startswith(indent + "#") for line in between):
            cuts.append(cut)
    if len(cuts) < 2:
        return None  # one member: nothing to split
    cuts.append(len(piece))
    return piece[: cuts[0]], [piece[a:b] for a, b in pairwise(cuts)]


def _class_joined(shell: cst.Module, wrapped: list[cst.Module]) -> cst.Module | None:
    """Return `shell` (a module of one class with its first member) with the members of
    the `wrapped` modules (each `class _:` around members) added, or None when their
    parses do not fit together as one class's would."""
    if len(shell.body) != 1 or not isinstance(shell.body[0], cst.ClassDef):
        return None
    cls = shell.body[0]
    if not isinstance(cls.body, cst.IndentedBlock) or cls.body.footer:
        return None
    members = list(cls.body.body)
    for module in wrapped:
        holder = module.body[0] if len(module.body) == 1 else None
        if (
            not isinstance(holder, cst.ClassDef)
            or not isinstance(holder.body, cst.IndentedBlock)
            or holder.body.footer
            or module.header
            or module.footer
            or module.default_indent != shell.default_indent
            or module.default_newline != shell.default_newline
        ):
            return None
        members.extend(holder.body.body)
    return shell.with_changes(body=(cls.with_changes(body=cls.body.with_changes(body=members)),))


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


def _python_error(text: str) -> tuple[int, int, str] | None:
    """Return where and why Python's own parser rejects `text` (line, 1-based column,
    message): libcst's tokenizer often points a line late. Parsing runs nothing."""
    try:
        ast.parse(text)
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
                MetadataWrapper(module, unsafe_skip_copy=True),
                module_name,
                line_map,
                _starts(module, tree),
            )
        except (cst.ParserSyntaxError, ParseError):
            pass  # the line scan misjudged a block: the whole file settles it
    try:
        module, tree = _parse_both(text, parts)
    except cst.ParserSyntaxError as exc:
        located = _python_error(text)
        if located is not None:
            raise ParseError(f"Python syntax error: {located[2]}", located[0], located[1]) from exc
        raise ParseError(
            f"Python syntax error: {exc.message}", exc.raw_line, exc.raw_column + 1
        ) from exc
    except RecursionError as exc:
        raise ParseError("Python nesting too deep to parse") from exc
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    return ParsedPython(wrapper, module_name, starts=_starts(module, tree))
