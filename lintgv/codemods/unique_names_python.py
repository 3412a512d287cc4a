"""GV2xx in Python: a private copy of get_unique_name becomes one NameSupply.

Two shapes are rewritten, each as one change:

* a method `C.m(self, name)` whose table is `self.X`, set to an empty dict or set in
  `C.__init__`: that line becomes `self.name_supply = NameSupply("")`, the calls
  `self.m(x)` inside `C` become `self.name_supply.fresh_name(x)` (`reserve_name(x)` where
  the result is thrown away) and `x in self.X` becomes `self.name_supply.contains_name(x)`;
* a module-level `m(name)` whose table is a module-level `X = {}`: `X` makes way for
  `name_supply = NameSupply("")` and the calls `m(x)` become `name_supply.fresh_name(x)`.

The copy is deleted with its comments and `from tvm.ir.supply import NameSupply` is
added (with TVM 0.25 on: `UniqueNameSupply()`). Any other use of the copy or its table
(a subclass, another file, the table passed around or iterated) stops the change, and
the copy is reported with the reason. The change is always unsafe: a copy numbers
collisions its own way (`a1` rather than `a_1`), so generated names may change.
"""

import re
from collections.abc import Callable, Collection, Iterable, Iterator
from functools import cached_property
from pathlib import Path

from lintgv.codemods.includes import SUPPLY_MODULE, import_edit
from lintgv.codemods.unique_name_copies import Skipped
from lintgv.codemods.unique_name_shapes import NotRewritable
from lintgv.config import Config, config_for
from lintgv.edits import apply_edits, offsets_of
from lintgv.errors import ParseError
from lintgv.helpers.names import (
    PYTHON_SHAPE_TRIGGERS,
    Verdict,
    judge,
    name_triggers,
)
from lintgv.helpers.python_shape import facts_of
from lintgv.lines import LineIndex, split_lines
from lintgv.model import Edit, Span
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.libcst_import import complete
from lintgv.parsing.names import dotted
from lintgv.parsing.python import parse_module
from lintgv.parsing.walk import descendants
from lintgv.prefilter import combined
from lintgv.reading import may_name
from lintgv.records import frozen

PYTHON_SUFFIXES = (".py", ".pyi")
EVIDENCE = "Python copies are not run beside NameSupply; the names they make may change"
_EMPTY_TABLES = frozenset({"{}", "set()", "dict()", "collections.defaultdict(int)"})
_SUPPLY_NAMES = ("name_supply", "unique_name_supply")


@frozen
class PythonChange:
    """One Python copy replaced by a NameSupply (the fields of unique_names.Change)."""

    helper: str
    path: Path
    text: str
    sites: int
    title: str


class _File:
    """One parsed Python file, with positions and parents."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text
        self.module = parse_module(text)
        # Its metadata providers are not among what a parse loads of libcst.
        libcst = complete()
        from libcst.metadata import ParentNodeProvider, PositionProvider

        wrapper = libcst.MetadataWrapper(self.module, unsafe_skip_copy=True)
        self.positions = wrapper.resolve(PositionProvider)
        self.parents = wrapper.resolve(ParentNodeProvider)

    def span(self, node: cst.CSTNode) -> Span:
        where = self.positions[node]
        return Span(where.start.line, where.start.column, where.end.line, where.end.column)

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def replace(self, node: cst.CSTNode, text: str) -> Edit:
        """Return the edit replacing `node` by `text`, carrying the node's own code."""
        return Edit(self.span(node), text, self.code(node))

    @cached_property
    def lines(self) -> LineIndex:
        return LineIndex(self.text)

    def nodes(self) -> Iterator[cst.CSTNode]:
        return iter(self.positions)

    def enclosing(
        self, node: cst.CSTNode, kind: type[cst.CSTNode] | tuple[type[cst.CSTNode], ...]
    ) -> cst.CSTNode | None:
        current = self.parents.get(node)
        while current is not None and not isinstance(current, kind):
            current = self.parents.get(current)
        return current

    def inside(self, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
        current: cst.CSTNode | None = node
        while current is not None:
            if current is outer:
                return True
            current = self.parents.get(current)
        return False


def plan_python_changes(
    paths: Iterable[Path],
    read: Callable[[Path], str | None],
    config_of: Callable[[Path], Config] = config_for,
    within: Collection[Path] | None = None,
) -> tuple[list[PythonChange], list[Skipped]]:
    """Return a change for every copy among the Python files `paths` (only those defined
    in `within`, when given), and the copies that cannot be changed, with the reason."""
    ordered = sorted(paths, key=lambda p: p.as_posix())
    changes: list[PythonChange] = []
    skipped: list[Skipped] = []
    for path in ordered:
        if within is not None and path not in within:
            continue
        text = read(path)
        if text is None:
            continue
        config = config_of(path)
        # Only a file in which GV201 could see a copy is parsed: most files of a tree hold
        # none, and libcst is slow.
        if not _may_hold_copy(text, config):
            continue
        try:
            parsed = _File(path, text)
        except (cst.ParserSyntaxError, ParseError):
            continue
        for function, owner in _copies(parsed, config):
            helper = f"{owner.name.value}.{function.name.value}" if owner else function.name.value
            if not config.release.has_name_supply:
                line = parsed.span(function).start_line
                skipped.append(Skipped(helper, path, line, config.release.no_supply))
                continue
            try:
                changes.append(_Rewrite(parsed, function, owner, config, ordered, read).change())
            except NotRewritable as exc:
                line = parsed.span(function).start_line
                skipped.append(Skipped(helper, path, line, str(exc)))
    return changes, skipped


def _may_hold_copy(text: str, config: Config) -> bool:
    triggers = combined(name_triggers(config) + PYTHON_SHAPE_TRIGGERS)
    return triggers is not None and triggers.search(text) is not None


def _copies(parsed: _File, config: Config) -> Iterator[tuple[cst.FunctionDef, cst.ClassDef | None]]:
    """Yield the copies GV201 reports defined at module level or directly in a class."""
    for function in [n for n in parsed.nodes() if isinstance(n, cst.FunctionDef)]:
        verdict = judge(function.name.value, facts_of(function, config), config)
        if verdict not in (Verdict.BY_NAME, Verdict.BY_STRUCTURE):
            continue
        block = parsed.parents.get(parsed.parents.get(function) or function)
        if parsed.parents.get(function) is parsed.module:
            yield function, None
        elif isinstance(block, cst.ClassDef):
            yield function, block


def _parameters(function: cst.FunctionDef) -> list[str]:
    params = function.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params:
        return []
    if params.star_kwarg is not None or params.posonly_params:
        return []
    return [p.name.value for p in params.params]


class _Rewrite:
    def __init__(
        self,
        parsed: _File,
        function: cst.FunctionDef,
        owner: cst.ClassDef | None,
        config: Config,
        paths: list[Path],
        read: Callable[[Path], str | None],
    ) -> None:
        self.parsed = parsed
        self.function = function
        self.owner = owner
        self.unique = config.release.has_unique_name_supply
        self.paths = paths
        self.read = read
        self.edits: list[Edit] = []
        self.prefix = "self." if owner is not None else ""

    @property
    def helper(self) -> str:
        name = self.function.name.value
        return f"{self.owner.name.value}.{name}" if self.owner is not None else name

    def change(self) -> PythonChange:
        function = self.function
        if function.decorators:
            raise NotRewritable("it is decorated; replace it by hand")
        wanted = 2 if self.owner is not None else 1
        params = _parameters(function)
        if len(params) != wanted or (self.owner is not None and params[0] != "self"):
            raise NotRewritable("it takes other arguments than one name; replace it by hand")
        table, setup = self._table()
        supply = self._supply_name()
        self._other_files()
        sites = self._calls(supply)
        self._table_uses(table, setup, supply)
        self._declare(setup, supply)
        self._delete()
        kind = "UniqueNameSupply" if self.unique else "NameSupply"
        imported = import_edit(self.parsed.module, self.parsed.span, SUPPLY_MODULE, kind)
        if imported is not None:
            self.edits.append(imported)
        if "\r\n" in self.parsed.text:  # added lines take the file's line ends
            self.edits = [
                Edit(e.span, e.text.replace("\n", "\r\n"), e.old_text) for e in self.edits
            ]
        try:
            text = apply_edits(self.parsed.text, self.edits)
            parse_module(text)
        except (ValueError, cst.ParserSyntaxError, ParseError) as exc:
            raise NotRewritable(f"the rewrite would not be valid Python: {exc}") from exc
        title = f"Replace {self.helper} with a {kind} `{self.prefix}{supply}`"
        return PythonChange(self.helper, self.parsed.path, text, sites, title)

    def _table(self) -> tuple[str, cst.SimpleStatementLine]:
        """Return the copy's table (`self.X` or `X`) and the line that sets it up empty."""
        used = {
            d
            for n in descendants(self.function.body)
            if isinstance(n, cst.Attribute | cst.Name)
            and (d := dotted(n)) is not None
            and d.startswith(self.prefix)
            and "." not in d.removeprefix(self.prefix)
        }
        setups = {d: s for s in self._setup_lines() if (d := _target(s)) in used}
        if len(setups) != 1:
            where = "`__init__`" if self.owner is not None else "the module"
            raise NotRewritable(
                f"it keeps no single dict or set of names set up empty in {where}; "
                "replace it by hand"
            )
        return next(iter(setups.items()))

    def _setup_lines(self) -> Iterator[cst.SimpleStatementLine]:
        if self.owner is None:
            body: Iterable[cst.CSTNode] = self.parsed.module.body
        else:
            inits = [
                s
                for s in self.owner.body.body
                if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"
            ]
            body = inits[0].body.body if len(inits) == 1 else ()
        for statement in body:
            if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
                yield statement

    def _supply_name(self) -> str:
        for name in _SUPPLY_NAMES:
            taken = rf"\bself\.{name}\b" if self.owner is not None else rf"(?<![\w.]){name}\b"
            if not re.search(taken, self.parsed.text):
                return name
        raise NotRewritable("the names of a supply are taken in this file")

    def _other_files(self) -> None:
        name = self.function.name.value
        pattern = re.compile(rf"\b{re.escape(name)}\b")
        for path in self.paths:
            if path == self.parsed.path or path.suffix not in PYTHON_SUFFIXES:
                continue
            text = self.read(path)
            if text is None and may_name(path, name):
                raise NotRewritable(f"{path.name} names {name}, and cannot be read as text")
            if text is not None and pattern.search(text):
                raise NotRewritable(f"`{name}` is also named in {path}; replace it by hand")

    def _where(self, node: cst.CSTNode) -> str:
        return f"{self.parsed.path}:{self.parsed.span(node).start_line}"

    def _calls(self, supply: str) -> int:
        """Rewrite every call of the copy; return how many."""
        name = self.function.name.value
        count = 0
        for node in list(self.parsed.nodes()):
            if not isinstance(node, cst.Name) or node.value != name:
                continue
            if self.parsed.inside(node, self.function):
                continue
            call = self._call_of(node)
            if call is None:
                text = self.parsed.code(self.parsed.parents.get(node) or node).strip()
                raise NotRewritable(
                    f"it is used other than called at {self._where(node)} (`{text}`)"
                )
            discarded = isinstance(self.parsed.parents.get(call), cst.Expr)
            method = "reserve_name" if discarded else "fresh_name"
            new = f"{self.prefix}{supply}.{method}"
            self.edits.append(self.parsed.replace(call.func, new))
            count += 1
        return count

    def _call_of(self, node: cst.Name) -> cst.Call | None:
        """Return the call `node` names the copy in, when it is one this change can make."""
        parent = self.parsed.parents.get(node)
        func: cst.CSTNode = node
        if self.owner is not None:
            if not (
                isinstance(parent, cst.Attribute)
                and parent.attr is node
                and dotted(parent.value) == "self"
                and self.parsed.enclosing(node, cst.ClassDef) is self.owner
            ):
                return None
            func, parent = parent, self.parsed.parents.get(parent)
        if not isinstance(parent, cst.Call) or parent.func is not func:
            return None
        args = parent.args
        if len(args) != 1 or args[0].keyword is not None or args[0].star:
            return None
        return parent

    def _table_uses(self, table: str, setup: cst.SimpleStatementLine, supply: str) -> None:
        """Rewrite `x in table`; stop at any other use of the table."""
        attr = table.removeprefix(self.prefix)
        for node in list(self.parsed.nodes()):
            if not isinstance(node, cst.Name) or node.value != attr:
                continue
            if self.parsed.inside(node, self.function) or self.parsed.inside(node, setup):
                continue
            parent = self.parsed.parents.get(node)
            if isinstance(parent, cst.Attribute) and parent.attr is node:
                if self.owner is None or dotted(parent) != table:
                    continue  # another object's attribute of that name
                target: cst.CSTNode = parent
            elif self.owner is not None or isinstance(parent, cst.Param):
                continue  # a local or a parameter of that name
            else:
                target = node
            self._contains(target, supply, table)

    def _contains(self, target: cst.CSTNode, supply: str, table: str) -> None:
        parent = self.parsed.parents.get(target)
        comparison = self.parsed.parents.get(parent) if parent is not None else None
        if (
            isinstance(parent, cst.ComparisonTarget)
            and isinstance(comparison, cst.Comparison)
            and len(comparison.comparisons) == 1
            and isinstance(parent.operator, cst.In | cst.NotIn)
            and (self.owner is None or self.parsed.enclosing(target, cst.ClassDef) is self.owner)
        ):
            negated = "not " if isinstance(parent.operator, cst.NotIn) else ""
            left = self.parsed.code(comparison.left).strip()
            new = f"{negated}{self.prefix}{supply}.contains_name({left})"
            self.edits.append(self.parsed.replace(comparison, new))
            return
        statement = self.parsed.enclosing(
            target, (cst.BaseSmallStatement, cst.BaseCompoundStatement)
        )
        line = split_lines(self.parsed.code(statement or target).strip())[0]
        raise NotRewritable(
            f"the table `{table}` is also used at {self._where(target)} (`{line}`); "
            "replace it by hand"
        )

    def _declare(self, setup: cst.SimpleStatementLine, supply: str) -> None:
        built = "UniqueNameSupply()" if self.unique else 'NameSupply("")'
        self.edits.append(self.parsed.replace(setup.body[0], f"{self.prefix}{supply} = {built}"))

    def _delete(self) -> None:
        """Remove the copy's lines, with the comments and blank lines above it."""
        span = self.parsed.span(self.function)
        first = span.start_line - len(self.function.leading_lines)
        lines = self.parsed.lines
        if span.end_line + 1 <= len(lines):
            gone = Span(first, 0, span.end_line + 1, 0)
        else:
            gone = Span(first, 0, span.end_line, span.end_col)
        start, end = offsets_of(lines, gone)
        self.edits.append(Edit(gone, "", self.parsed.text[start:end]))


def _target(statement: cst.SimpleStatementLine) -> str | None:
    """Return what an `X = {}` line sets up empty, or None."""
    small = statement.body[0]
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target, value = small.targets[0].target, small.value
    elif isinstance(small, cst.AnnAssign) and small.value is not None:
        target, value = small.target, small.value
    else:
        return None
    code = cst.Module(body=[]).code_for_node(value).replace(" ", "")
    return dotted(target) if code in _EMPTY_TABLES else None
