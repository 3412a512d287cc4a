"""What every rule is made of: metadata, examples, and a libcst or tree-sitter visitor."""

from __future__ import annotations

import ast
import logging
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import field
from enum import Enum, auto
from functools import cache
from pathlib import Path
from typing import ClassVar, cast

import tree_sitter

from lintgv.config import Config
from lintgv.errors import RuleCrash
from lintgv.model import (
    Applicability,
    Blocker,
    Edit,
    Finding,
    Fix,
    Language,
    Message,
    Severity,
    Span,
)
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.cpp import ParsedCpp, compile_query
from lintgv.parsing.cpp_regions import joined_ranges
from lintgv.parsing.python import ParsedPython
from lintgv.parsing.python_ast import ParsedAst
from lintgv.prefilter import bytes_pattern
from lintgv.records import frozen
from lintgv.suppress import Suppression

log = logging.getLogger(__name__)


class MigrationPhase(Enum):
    """The phase of a migration that works through a rule's sites (migration.py describes
    the phases and puts them in order)."""

    UNIQUE_NAME_HELPERS = auto()
    UNIQUING_LOOPS = auto()
    GLOBAL_VARS = auto()
    REMOVED_APIS = auto()
    GLOBAL_SYMBOLS = auto()
    SUPPRESSIONS = auto()


@frozen
class RuleMeta:
    code: str
    name: str
    severity: Severity
    message: Message
    fix: Applicability = Applicability.NONE
    default_enabled: bool = True
    # Regular expressions; a file (or, in Python, a statement) with no match is not parsed
    # for this rule. Function triggers make the whole enclosing Python function visible.
    triggers: tuple[str, ...] = ()
    function_triggers: tuple[str, ...] = ()
    # A rule about names made by hand: it does not run on the supply's own implementation
    # (`supply-paths`), which is where names are made.
    makes_names: bool = False
    # Its fix is one change across files (a helper with its declarations and calls),
    # made by `lintgv fix` and the editor's multi-file action, not by a finding's edits.
    across_files: bool = False
    # It finds the unique-name helpers whose calls other files are checked for (GV203),
    # all of them (GV201 and GV203 alike): an index of a tree's helpers needs one of them.
    finds_helpers: bool = False
    # It notes the functions with a helper's name that are thin wrappers around a supply
    # (GV201 and GV202 alike), which GV202 and GV203 then leave alone in other files.
    finds_thin_wrappers: bool = False
    # Its findings are the unique-name copies themselves, each named by its subject
    # (GV201): a change across files starts from one, and a run plans changes for them.
    reports_copies: bool = False
    # With nothing in scope to name a site (its blocker Blocker.NOTHING_IN_SCOPE), `fix
    # --unsafe` threads a supply parameter into the function from its callers, and this
    # rule's own fix then names the site through it (GV101).
    threads_supply: bool = False
    # A name its fixes replace (`GlobalVar`): once a Python file settles, an import of it
    # the fixes left unused is dropped.
    fix_replaces_name: str = ""
    # How an editor marks what it flags: "unnecessary" (faded: code that can go) or
    # "deprecated" (struck through: an API a newer release removed); "" for neither.
    marks: str = ""
    # The migration phase its sites are worked through in; None for a check of what a
    # build or proof produces, which no migration step changes.
    phase: MigrationPhase | None = None
    # Its sites are the callees of its phase's other sites (a helper's definition, its
    # declarations in headers): a migration works through their directories first.
    reports_callees: bool = False

    @property
    def offered_fix(self) -> Applicability:
        """The fix a user is offered for a finding: its own edits', or, for a rule fixed
        across files, the unsafe change `lintgv fix --unsafe` makes."""
        if self.across_files and self.fix == Applicability.NONE:
            return Applicability.UNSAFE
        return self.fix


@frozen
class Valid:
    code: str
    path: str = ""
    config: Mapping[str, object] = field(default_factory=dict)


@frozen
class Invalid:
    code: str
    # Where the example is reported, as (start_line, start_col, end_line, end_col) with
    # 1-based lines and columns as printed: the first finding, then any others in order.
    span: tuple[int, int, int, int]
    also: tuple[tuple[int, int, int, int], ...] = ()
    message: Message | str | None = None
    fixed: str | None = None
    path: str = ""
    config: Mapping[str, object] = field(default_factory=dict)


@frozen
class Session:
    """An artifact rule's example: the files a session starts from (path, text), the
    arguments of the `lintgv` command run among them, and lines it prints, in order. The
    rule's page shows it; a test runs it and finds those lines."""

    files: tuple[tuple[str, str], ...]
    args: tuple[str, ...]
    prints: tuple[str, ...]


@frozen
class Exported:
    """An example of a symbol check no manifest can show (lintgv's emitter never writes
    such a symbol; the check guards the build): the symbols one model's object file
    exports, as `nm` lists them, and the lines `lintgv validate` prints for them. A test
    checks them with the check `validate` runs."""

    model: str
    symbols: tuple[str, ...]
    prints: tuple[str, ...]


@frozen
class RuleContext:
    path: Path
    config: Config
    # Tells whether one of some trigger patterns matches in the file's text; each pattern
    # is searched once per file, however many rules ask.
    mentions: Callable[[Sequence[str]], bool]
    # Names of unique-name helpers defined anywhere in the run (see GV203).
    helper_names: frozenset[str] = frozenset()
    # Functions with a helper's name defined as thin wrappers in the run (see GV202).
    thin_names: frozenset[str] = frozenset()
    # Tells whether a suppression comment covers a finding; None when the file has none.
    # A rule that plans its fixes together (GV101) leaves suppressed sites out of the
    # plan: a site kept by hand must not shape the fix of another.
    suppressed: Callable[[Finding], bool] | None = None


class Rule:
    """A check with stable code; subclasses are PythonRule, PythonAstRule or CppRule."""

    META: ClassVar[RuleMeta]
    LANGUAGE: ClassVar[Language | None]
    VALID: ClassVar[list[Valid]] = []
    INVALID: ClassVar[list[Invalid]] = []

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Return the statement and function triggers of this rule under `config`."""
        return cls.META.triggers, cls.META.function_triggers

    @classmethod
    def gate(cls, config: Config) -> tuple[str, ...] | None:
        """Return the patterns of which one must match in a file for the rule to run on
        it, when they are narrower than its triggers (None: its triggers). A rule whose
        triggers keep every line it needs (imports, aliases) but match in many files it
        has nothing to find in (a type named in annotations) gates on what it can find."""
        return None

    def __init__(self, context: RuleContext) -> None:
        self.context = context
        self.findings: list[Finding] = []
        # Names of unique-name helpers this file defines (only GV201 fills it).
        self.defined_helpers: set[str] = set()
        # Functions with a helper's name this file defines as thin wrappers (GV201).
        self.thin_helpers: set[str] = set()
        # Set by a rule that met, in a partial parse, a site whose finding depends on
        # lines that were left out: the engine then checks the file whole, so that `check`
        # and `fix` report the same findings with the same fixes.
        self.wants_whole_parse = False

    @property
    def config(self) -> Config:
        return self.context.config

    def finding(
        self,
        span: Span,
        statement_line: int,
        message: Message | None,
        fix: Fix | None,
        reason: str | None = None,
        subject: str = "",
        blocker: Blocker | None = None,
    ) -> Finding:
        """Return a Finding of this rule at `span`."""
        meta = self.META
        said = message or meta.message
        return Finding(
            code=meta.code,
            rule=meta.name,
            path=self.context.path,
            span=span,
            message=str(said),
            severity=self.config.severity_for(meta.code, meta.severity),
            fix=fix,
            statement_line=statement_line or span.start_line,
            reason=reason,
            subject=subject,
            blocker=blocker,
            remedy=said.remedy,
        )


def as_tvm(name: str, packages: Sequence[str]) -> str:
    """Return `name` with a package that re-exports TVM (`tvm-packages`) read as `tvm`:
    `mypkg.compat.ir.GlobalVar` → `tvm.ir.GlobalVar` for `mypkg.compat`."""
    for package in packages:
        if name == package or name.startswith(package + "."):
            return "tvm" + name[len(package) :]
    return name


class CommentRule(Rule):
    """A rule about suppression comments themselves, in both languages: suppress.py finds
    the comments and what they silenced, and asks each such rule to judge them."""

    LANGUAGE = None

    @classmethod
    def judge(
        cls,
        suppression: Suppression,
        used: frozenset[str],
        ran: frozenset[str],
        known: frozenset[str],
    ) -> list[tuple[Message, Fix | None]]:
        """Return a (message, fix) for each finding on `suppression`: `used` are the codes
        it named that silenced a finding, `ran` the codes whose rules ran on the file,
        `known` every code there is."""
        raise NotImplementedError


class ArtifactRule(Rule):
    """A check of what a build or a proof produces (a model's exported C symbols, the names
    a unique-name copy makes), not of source text: `check` never runs it; the command
    named in REPORTED_BY does, and builds its findings with `finding_at`."""

    LANGUAGE = None
    REPORTED_BY: ClassVar[str]
    # Its inputs are build products, not one source file: instead of Valid/Invalid source
    # examples it has a session, or the symbols that give the finding.
    EXAMPLE: ClassVar[Session | Exported]

    @classmethod
    def finding_at(cls, path: Path, line: int, message: Message) -> Finding:
        """Return a finding of this code on `line` of `path` (a manifest or a source file)."""
        meta = cls.META
        span = Span(line, 0, line, 0)
        return Finding(
            meta.code, meta.name, path, span, str(message), meta.severity, remedy=message.remedy
        )


class PythonRule(Rule):
    """A visitor of libcst nodes; all Python rules share one traversal per file (the walk
    of parsing/walk.py, which calls the visit_/leave_ methods `get_visitors` returns)."""

    LANGUAGE = Language.PYTHON
    # No libcst metadata providers: positions and names are computed lazily by
    # ParsedPython, only for files where some rule reports (see parsing/names.py).

    def __init__(self, context: RuleContext, parsed: ParsedPython) -> None:
        super().__init__(context)
        self.parsed = parsed
        self.crash: RuleCrash | None = None

    def get_visitors(self) -> Mapping[str, Callable[[cst.CSTNode], None]]:
        """Return the visit methods, each guarded so a crash stops only this rule."""
        kind: type = type(self)  # mypy takes type[PythonRule] for unhashable
        return {name: self._guard(getattr(self, name)) for name in _visitor_names(kind)}

    def _guard(self, method: Callable[[cst.CSTNode], None]) -> Callable[[cst.CSTNode], None]:
        def run(node: cst.CSTNode) -> None:
            if self.crash is not None:
                return
            try:
                method(node)
            except Exception as exc:  # a rule bug must not hide the other rules' results
                log.debug("rule %s crashed", self.META.code, exc_info=True)
                self.crash = RuleCrash(self.META.code, exc)

        return run

    def span_of(self, node: cst.CSTNode) -> Span:
        """Return the file Span of `node`."""
        where = self.parsed.positions[node]
        return Span(
            self.parsed.file_line(where.start.line),
            where.start.column,
            self.parsed.file_line(where.end.line),
            where.end.column,
        )

    def qualified_names(self, node: cst.BaseExpression) -> set[str]:
        """Return the dotted names `node` may refer to, relative imports resolved."""
        names = self.parsed.names.qualified_names(node)
        packages = self.config.tvm_packages
        if not packages:
            return names
        return {as_tvm(name, packages) for name in names}

    def report(
        self,
        node: cst.CSTNode,
        message: Message | None = None,
        *,
        replacement: cst.CSTNode | None = None,
        fix: Fix | None = None,
        title: str | None = None,
        applicability: Applicability | None = None,
        reason: str | None = None,
        subject: str = "",
        blocker: Blocker | None = None,
    ) -> None:
        """Record a finding on `node`; `replacement` builds a one-edit fix; `reason` says
        why there is no fix, `subject` what the finding is about and `blocker` what keeps
        the fix from it (see Finding)."""
        span = self.span_of(node)
        if replacement is not None and fix is None:
            code = self.parsed.module.code_for_node
            text = code(replacement)
            fix = Fix(
                title or f"Replace with `{text}`",
                applicability or self.META.fix,
                (Edit(span, text, code(node)),),
            )
        self.findings.append(self.finding(span, 0, message, fix, reason, subject, blocker))

    def suppressed_among(self, nodes: Sequence[cst.CSTNode]) -> set[int]:
        """Return the ids of the `nodes` whose finding a suppression comment covers."""
        covered = self.context.suppressed
        if covered is None or not nodes:
            return set()
        spans = [self.span_of(node) for node in nodes]
        starts = self.parsed.statement_lines([span.start_line for span in spans])
        return {
            id(node)
            for node, span, start in zip(nodes, spans, starts, strict=True)
            if covered(self.finding(span, start, None, None))
        }


class PythonAstRule(Rule):
    """A Python rule that reads CPython's ast (parsing/python_ast.py): it only reports, so
    it needs no concrete tree, and CPython's parser is several times faster than
    libcst's. `run` reports what the parse holds."""

    LANGUAGE = Language.PYTHON

    def __init__(self, context: RuleContext, parsed: ParsedAst) -> None:
        super().__init__(context)
        self.parsed = parsed

    def run(self) -> None:
        raise NotImplementedError

    def report(self, node: ast.AST, message: Message | None = None) -> None:
        """Record a finding on `node`."""
        self.findings.append(self.finding(self.parsed.span_of(node), 0, message, None))


# What a query match holds: its nodes by capture name.
Captures = dict[str, list[tree_sitter.Node]]


@cache
def _visitor_names(cls: type) -> tuple[str, ...]:
    """Return the visit_/leave_ methods a rule class defines (looked up once per class:
    the names depend on the class only)."""
    return tuple(
        name
        for name in dir(cls)
        if name.startswith(("visit_", "leave_")) and callable(getattr(cls, name))
    )


# Node types at which a C++ statement begins, for suppression comments on its first line.
_CPP_STATEMENTS = frozenset(
    {
        "declaration",
        "field_declaration",
        "expression_statement",
        "return_statement",
        "if_statement",
        "for_statement",
        "for_range_loop",
        "while_statement",
        "do_statement",
        "switch_statement",
        "function_definition",
        "template_declaration",
        "using_declaration",
        "alias_declaration",
        "throw_statement",
        "case_statement",
    }
)


class CppRule(Rule):
    """A tree-sitter query and a handler for its matches."""

    LANGUAGE = Language.CPP
    QUERY: ClassVar[str]
    # True when every match of QUERY lies in a declaration whose text matches one of the
    # rule's statement triggers: where those declarations are a small part of the file,
    # the query runs over them alone.
    MATCHES_HOLD_TRIGGER: ClassVar[bool] = False
    # True when the findings in a region (ParsedCpp.regions) depend on its text and the
    # config alone: an editor's next version of the document then reuses those of every
    # region an edit did not touch. A finding that depended on more (a class defined
    # elsewhere in the file) has its node listed in `looked_outside`; its region is
    # worked out afresh each time.
    LOCAL: ClassVar[bool] = False

    def __init__(self, context: RuleContext, parsed: ParsedCpp) -> None:
        super().__init__(context)
        self.parsed = parsed
        # Nodes whose findings depended on text outside their region (see LOCAL).
        self.looked_outside: list[tree_sitter.Node] = []

    def run(self) -> None:
        """Check the file; with a memo, only the regions it does not know (see LOCAL)."""
        memo = self.parsed.memo
        if not self.LOCAL or memo is None:
            self.check(self._query_ranges())
            return
        regions = self.parsed.regions
        table = memo.table(self.META.code)
        fingerprint = self.config.fingerprint
        keys = [(fingerprint, r.key) for r in regions]
        known = [table.get(key) for key in keys]
        fresh = [i for i, value in enumerate(known) if value is None]
        self.check(joined_ranges(regions, fresh))
        found: dict[int, list[Finding]] = {i: [] for i in fresh}
        firsts = [regions[i].first_line for i in fresh]
        for finding in self.findings:
            at = bisect_right(firsts, finding.span.start_line) - 1
            index = fresh[at] if at >= 0 else -1
            if index >= 0 and finding.span.start_line <= regions[index].last_line:
                found[index].append(finding)
            else:
                found.clear()  # outside every region: keep nothing, find it again next time
                break
        for node in self.looked_outside:
            found.pop(self._region_holding(node.start_byte), None)
        # Stored with lines counted from the region's first line, which is line 1.
        for index, findings in found.items():
            above = regions[index].first_line - 1
            table.put(keys[index], tuple(f.moved(-above) for f in findings))
        for region, value in zip(regions, known, strict=True):
            if value:  # None: worked out above; (): nothing to report
                stored = cast(tuple[Finding, ...], value)
                self.findings.extend(f.moved(region.first_line - 1) for f in stored)

    def _region_holding(self, offset: int) -> int:
        starts = [r.start_byte for r in self.parsed.regions]
        return bisect_right(starts, offset) - 1

    def check(self, ranges: Sequence[tuple[int, int]]) -> None:
        """Hand each match in the byte `ranges` to `on_match`."""
        for captures in self.matches(ranges):
            self.on_match(captures)

    def matches(self, ranges: Sequence[tuple[int, int]]) -> Iterator[Captures]:
        """Yield the captures of each match in the byte `ranges`, in tree-sitter's order."""
        for start, end in ranges:
            for captures in self.matches_in(start, end):
                # A match reaching into this range from before it was handed over already.
                if min(n.start_byte for nodes in captures.values() for n in nodes) >= start:
                    yield captures

    def matches_in(self, start: int, end: int) -> Iterable[Captures]:
        """Return the captures of each match of the query that reaches into the byte
        range from `start` to `end`."""
        cursor = tree_sitter.QueryCursor(compile_query(self.QUERY))
        cursor.set_byte_range(start, end)
        return (captures for _, captures in cursor.matches(self.parsed.root))

    def _query_ranges(self) -> list[tuple[int, int]]:
        whole = [(0, len(self.parsed.data))]
        statement, _ = self.triggers(self.config)
        if not self.MATCHES_HOLD_TRIGGER or not statement:
            return whole
        ranges = self.parsed.declarations_around(bytes_pattern(statement))
        # Each range costs a pass of its own: worth it only when they skip most of the file.
        if ranges is None or sum(e - s for s, e in ranges) > len(self.parsed.data) // 2:
            return whole
        return ranges

    def on_match(self, captures: Captures) -> None:
        raise NotImplementedError

    def text(self, node: tree_sitter.Node) -> str:
        """Return the source text of `node`."""
        return self.parsed.text(node)

    def report(
        self,
        node: tree_sitter.Node,
        message: Message | None = None,
        *,
        end: tree_sitter.Node | None = None,
        fix: Fix | None = None,
        replacement: str | None = None,
        title: str | None = None,
        applicability: Applicability | None = None,
        reason: str | None = None,
        subject: str = "",
        blocker: Blocker | None = None,
    ) -> None:
        """Record a finding on `node` (through `end`); `replacement` builds a one-edit fix;
        `reason`, `subject` and `blocker` as for PythonRule.report."""
        span = self.parsed.span(node, end)
        if replacement is not None and fix is None:
            fix = Fix(
                title or f"Replace with `{replacement}`",
                applicability or self.META.fix,
                (self.parsed.replace(node, replacement, end),),
            )
        line = self._statement_line(node, span)
        self.findings.append(self.finding(span, line, message, fix, reason, subject, blocker))

    def suppressed_among(
        self, nodes: Sequence[tuple[tree_sitter.Node, tree_sitter.Node | None]]
    ) -> set[int]:
        """Return the indexes of the (node, end) pairs whose finding a suppression comment
        covers."""
        covered = self.context.suppressed
        if covered is None:
            return set()
        found = set()
        for index, (node, end) in enumerate(nodes):
            span = self.parsed.span(node, end)
            if covered(self.finding(span, self._statement_line(node, span), None, None)):
                found.add(index)
        return found

    def _statement_line(self, node: tree_sitter.Node, span: Span) -> int:
        """Return the first line of the statement `node` is in (a suppression there covers
        it)."""
        statement = (
            node if node.type in _CPP_STATEMENTS else self.parsed.enclosing(node, _CPP_STATEMENTS)
        )
        if statement is None:
            return span.start_line
        return self.parsed.position(statement.start_byte)[0]
