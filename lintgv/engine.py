"""One file's text and config in, its findings out: pure, no I/O, no printing."""

import logging
import os
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from lintgv import registry
from lintgv.collector import collector_paused
from lintgv.config import Config
from lintgv.errors import ParseError, RuleCrash
from lintgv.helpers import python_shape_gate
from lintgv.helpers.cpp_loops import may_hold_loop
from lintgv.helpers.cpp_shape import may_copy
from lintgv.helpers.names import CPP_RETRY_TRIGGERS, CPP_SHAPE_TRIGGERS, PYTHON_SHAPE_TRIGGERS
from lintgv.identities import bare_names
from lintgv.lines import LineIndex
from lintgv.model import (
    NO_FIX,
    FileError,
    FileResult,
    Finding,
    Language,
    ProjectFacts,
    Severity,
    SourceFile,
)
from lintgv.parsing.cpp import ParsedCpp, parse_cpp
from lintgv.parsing.python import ParsedPython, parse_python, quiet_parse
from lintgv.parsing.python_ast import NewerSyntax, parse_ast
from lintgv.parsing.python_lines import LineScan, has_lone_return, partial_text, select_lines
from lintgv.parsing.python_parts import ModuleParts
from lintgv.paths import matches_any, relative_to_root
from lintgv.prefilter import Hints, Triggers, combined, search_of
from lintgv.rules._base import (
    CommentRule,
    CppRule,
    PythonAstRule,
    PythonRule,
    Rule,
    RuleContext,
)
from lintgv.suppress import Covering, Judgement, apply_suppressions, find_suppressions

log = logging.getLogger(__name__)


def rules_for(path: Path, language: Language, config: Config) -> tuple[type[Rule], ...]:
    """Return the rules that apply to the file at `path`, honouring per-file settings."""
    table = _table(config)
    relative = table.relative(path)
    dropped: set[str] = set()
    for pattern, codes in config.per_file_ignores:
        # `!tests/**` drops the codes everywhere but there, as in ruff.
        negated = pattern.startswith("!")
        if matches_any(relative, (pattern.removeprefix("!"),)) != negated:
            dropped.update(codes)
    in_supply = matches_any(relative, table.supply_paths)
    if not dropped:
        return table.by_language[language, in_supply]
    selected = []
    for rule in table.by_language[language, in_supply]:
        if not any(rule.META.code.startswith(d) for d in dropped):
            selected.append(rule)
    return tuple(selected)


# The codes the file's rules report, their severities, and the comment rules' judges.
_Reporting = tuple[frozenset[str], dict[str, Severity], list[tuple[str, str, Judgement]]]


class _Table:
    """What a config makes of the rules, the same for each of its files: worked out once
    for all of them (a tree of 5,000 files asked it 5,000 times, for 0.2 s of CPU)."""

    def __init__(self, config: Config) -> None:
        self.supply_paths = config.supply_paths + config.extend_supply_paths
        selected = registry.select(config)
        # The rules of each language, then those of each in a supply module (which make
        # no names there).
        self.by_language = {
            (language, in_supply): tuple(
                rule
                for rule in selected
                if rule.LANGUAGE in (language, None) and not (in_supply and rule.META.makes_names)
            )
            for language in Language
            for in_supply in (False, True)
        }
        self.triggers = {rule: rule.triggers(config) for rule in selected}
        self.gates = {rule: rule.gate(config) for rule in selected}
        self.known = frozenset(registry.rule_codes())
        self._reporting: dict[tuple[type[Rule], ...], _Reporting] = {}
        self._asked: dict[tuple[type[Rule], ...], _Asked] = {}
        self._folders: dict[str, str] = {}
        self._config = config

    def relative(self, path: Path) -> str:
        """Return `relative_to_root(path, root)`, the folder's part worked out once per
        folder (pathlib's arithmetic took 40 microseconds a file)."""
        folder, name = os.path.split(path)
        if name in ("", ".", ".."):
            return relative_to_root(path, self._config.root)
        if not os.path.isabs(folder):
            # Read from the current folder, as relative_to_root reads a relative path (a
            # check of `.` names every file so).
            folder = os.path.join(os.getcwd(), folder)
        known = self._folders.get(folder)
        if known is None:
            known = self._folders[folder] = relative_to_root(Path(folder), self._config.root)
        if os.path.isabs(known):
            # A folder outside the root: its files are named in full, but for the one
            # that is the root itself.
            joined = f"{known}{name}" if known.endswith("/") else f"{known}/{name}"
            if joined == self._config.root.as_posix():
                return relative_to_root(path, self._config.root)
            return joined
        return name if known == "." else f"{known}/{name}"

    def asked(self, rules: tuple[type[Rule], ...]) -> "_Asked":
        """Return what `rules` ask of a file's text (see _Triggered)."""
        known = self._asked.get(rules)
        if known is None:
            known = self._asked[rules] = _Asked(rules, self.triggers, self.gates)
        return known

    def reporting(self, rules: tuple[type[Rule], ...]) -> _Reporting:
        """Return what suppressions are judged by for a file checked by `rules`."""
        known = self._reporting.get(rules)
        if known is not None:
            return known
        config = self._config
        judges: list[tuple[str, str, Judgement]] = [
            (r.META.code, r.META.name, r.judge) for r in rules if issubclass(r, CommentRule)
        ]
        made = (
            frozenset(r.META.code for r in rules),
            {r.META.code: config.severity_for(r.META.code, r.META.severity) for r in rules},
            judges,
        )
        self._reporting[rules] = made
        return made


# A run has one config per project root; a worker gets a copy of it with each batch of
# files, equal to the last (a config hashes by its values).
@lru_cache(maxsize=64)
def _table(config: Config) -> _Table:
    return _Table(config)


_Triggers = tuple[tuple[str, ...], tuple[str, ...]]


class _Asked:
    """What a set of rules asks of a file's text, the same for each file it checks (worked
    out once, not for every file of a tree): each rule's triggers, and the patterns of
    which one must match for it to run."""

    def __init__(
        self,
        rules: tuple[type[Rule], ...],
        triggers: dict[type[Rule], _Triggers],
        gates: dict[type[Rule], tuple[str, ...] | None],
    ) -> None:
        self.triggers = {rule: triggers[rule] for rule in rules}
        self.own = []
        for rule, (statement, function) in self.triggers.items():
            gate = gates[rule]
            self.own.append((rule, (*statement, *function) if gate is None else gate))


class _Triggered:
    """The rules a file's text calls for, and the trigger patterns that match in it.

    A pattern is searched only when asked about, only when its literals occur (see
    prefilter.py), and each once: rules share patterns, and rules ask again (see
    `RuleContext.mentions`).
    """

    def __init__(
        self,
        rules: Sequence[type[Rule]],
        config: Config,
        text: str,
        helper_names: frozenset[str],
        run_all: bool,
        hints: Hints | None = None,
    ) -> None:
        self._text = text
        # Where patterns matched in the document's last version (an editor's; see
        # Reuse): a match still there settles a pattern without a search.
        self._hints = hints if hints is not None else Hints()
        self._last_length = self._hints.length or len(text)
        self._hints.length = len(text)
        self._seen: dict[str, bool] = {}
        self._hits: dict[str, bool] = {}
        asked = self._asked = _table(config).asked(tuple(rules))
        # The second pass looks for calls of helpers found in other files (GV203).
        helpers = tuple(re.escape(name) for name in sorted(bare_names(helper_names)))
        self.run_all = run_all or self.mentions(helpers)
        self.rules = tuple(
            r for r, own in asked.own if self.run_all or not own or self.mentions(own)
        )
        # Some trigger matched: rules without triggers of their own have nothing to find.
        self.wanted = self.run_all or any(own and r in self.rules for r, own in asked.own)
        self._helpers = helpers

    def hit(self, pattern: str) -> bool:
        """Tell whether `pattern` matches in the text."""
        found = self._hits.get(pattern)
        if found is None:
            found = self._hits[pattern] = self._search(pattern)
        return found

    def _search(self, pattern: str) -> bool:
        regex, guard = search_of(pattern)
        if regex is None or not guard.admits(self._text, self._seen):
            return False
        if self._still_matches(pattern, regex):
            return True
        match = regex.search(self._text)
        positions = self._hints.positions
        if match is None:
            positions.pop(pattern, None)
            return False
        positions[pattern] = match.start()
        return True

    def _still_matches(self, pattern: str, regex: Triggers) -> bool:
        """Tell whether `pattern` matches where it did in the last version: at the same
        place (an edit after it) or as far on as the text grew (an edit before it)."""
        last = self._hints.positions.get(pattern)
        if last is None:
            return False
        moved = last + len(self._text) - self._last_length
        for at in (last, moved):
            if 0 <= at <= len(self._text) and regex.matches_at(self._text, at):
                self._hints.positions[pattern] = at
                return True
        return False

    def mentions(self, patterns: Sequence[str]) -> bool:
        """Tell whether one of `patterns` matches in the text (searched until one does;
        those that matched in the document's last version first)."""
        positions = self._hints.positions
        ordered = sorted(patterns, key=lambda p: p not in positions) if positions else patterns
        return any(self.hit(p) for p in ordered)

    def hits(
        self, rules: Sequence[type[Rule]], helpers: bool
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """Return the statement and the function trigger patterns of `rules` that match;
        with `helpers`, calls of the helpers the second pass looks for count as statement
        triggers."""
        running = {r for r in rules if r in self.rules}
        statement = sorted({p for r in running for p in self._asked.triggers[r][0]})
        function = sorted({p for r in running for p in self._asked.triggers[r][1]})
        called = self._helpers if helpers else ()
        return (
            tuple(p for p in (*statement, *called) if self.hit(p)),
            tuple(p for p in function if self.hit(p)),
        )

    def none_but(self, allowed: frozenset[str], rules: Sequence[type[Rule]]) -> bool:
        """Tell whether no trigger pattern of `rules` but `allowed` ones matches; those
        already known to match are asked first."""
        running = [r for r in rules if r in self.rules]
        every = {
            p for r in running for p in (*self._asked.triggers[r][0], *self._asked.triggers[r][1])
        }
        others = sorted(every - allowed, key=lambda p: not self._hits.get(p, False))
        return not any(self.hit(p) for p in others)

    def patterns(
        self, rules: Sequence[type[Rule]], helpers: bool
    ) -> tuple[Triggers | None, Triggers | None]:
        """Return `hits`, each set to search together (None for none).

        Patterns that match nowhere are left out of the alternation, which changes no
        match of the others. The lines to parse are those these triggers keep."""
        statement, function = self.hits(rules, helpers)
        return combined(statement), combined(function)


class Reuse(Protocol):
    """What a caller keeps of one document between its versions, so that the next
    version is checked faster; the findings are the same without it. The language server
    keeps one for each open document (its workspace state); `lintgv check` has none."""

    # Where each trigger matched in the last version (C++): most edits leave a match in
    # place, and looking there costs far less than a search.
    hints: Hints
    # libcst's parses of the last version's top-level statements (Python).
    python_parts: ModuleParts

    def parse_cpp(self, text: str) -> ParsedCpp:
        """Parse this version, incrementally from the last one."""
        ...


# A file checked alone: nothing known of other files.
NO_FACTS = ProjectFacts()


def check(
    source: SourceFile,
    config: Config,
    facts: ProjectFacts = NO_FACTS,
    *,
    whole: bool = False,
    reuse: Reuse | None = None,
) -> FileResult:
    """Return the findings and errors of one file's text under `config`, knowing the
    `facts` of the other files of its project.

    `whole` parses every line of a Python file (fixes need the full scope); otherwise
    only the parts near a trigger are parsed, which finds the same things faster (and
    tests/test_one_analysis.py proves the same). `reuse` is what an editor kept of the
    document's last version (see Reuse): it changes how fast, never what is found.
    """
    unencodable = _surrogate_in(source)
    if unencodable is not None:
        return FileResult(source.path, errors=(unencodable,))
    helper_names, thin_names = facts.helpers, facts.thin
    rules = rules_for(source.path, source.language, config)
    code_rules = [r for r in rules if r.LANGUAGE is not None]
    suppressions = find_suppressions(source.text, source.language)
    # A whole parse does not run every rule: a rule whose triggers match nowhere finds
    # nothing in a partial check, and a whole check (a fix's proof) must find the same.
    run_all = bool(suppressions)
    hints = reuse.hints if reuse is not None and source.language == Language.CPP else None
    triggered = _Triggered(code_rules, config, source.text, helper_names, run_all, hints)
    covering = Covering(suppressions) if suppressions else None
    context = RuleContext(
        source.path,
        config,
        triggered.mentions,
        helper_names,
        thin_names,
        None if covering is None else lambda finding: bool(covering(finding)),
    )
    code_rules = list(triggered.rules)
    try:
        if source.language == Language.PYTHON:
            with collector_paused():
                findings, errors, defined = _check_python(
                    source,
                    context,
                    code_rules,
                    triggered,
                    whole,
                    bool(suppressions),
                    reuse.python_parts if reuse is not None else None,
                )
        else:
            if not triggered.wanted and not suppressions:
                return FileResult(source.path)
            if not suppressions and not _may_hold_cpp_shapes(source.text, triggered, code_rules):
                return FileResult(source.path)  # shape triggers alone, and no copy's words
            findings, errors, defined = _check_cpp(source, context, code_rules, reuse)
    except ParseError as exc:
        error = FileError(source.path, str(exc), exc.line, exc.column)
        return FileResult(source.path, errors=(error,))
    table = _table(config)
    enabled, severities, judges = table.reporting(rules)
    # A rule that could not check the file (a crash, a text its parser refuses) found
    # nothing either way: whether its suppressions are used is not known.
    finished = enabled - {e.code for e in errors if e.code is not None}
    kept = apply_suppressions(
        findings, suppressions, source.path, judges, finished, severities, table.known
    )
    kept.sort(key=lambda f: (f.span, f.code))
    if not config.release.has_name_supply:
        kept = [_without_supply(f, config) for f in kept]
    helpers, thin = defined
    return FileResult(source.path, tuple(kept), tuple(errors), frozenset(helpers), frozenset(thin))


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_in(source: SourceFile) -> FileError | None:
    """Return the error of a text holding a surrogate code point, which no UTF-8 holds
    and neither parser can read: a file is decoded strictly, but an editor may send one
    (a JSON string can hold `\\udcff`)."""
    if source.text.isascii():
        return None
    found = _SURROGATE.search(source.text)
    if found is None:
        return None
    line, column = LineIndex(source.text).position(found.start())
    what = f"U+{ord(found.group()):04X}, a surrogate code point UTF-8 cannot hold"
    return FileError(source.path, f"holds {what}; not checked", line, column + 1)


def _without_supply(finding: Finding, config: Config) -> Finding:
    """Return a finding about a name made by hand without the fix its rule would offer:
    every such fix names through a supply, and the release has none. The finding stays,
    for a fork to see what a port of the supply would replace."""
    if not registry.rule_meta(finding.code).makes_names:
        return finding
    why = config.release.no_supply
    message = finding.message
    if NO_FIX not in message:
        message = f"{message}{NO_FIX}{why}"
    return replace(finding, message=message, fix=None, reason=why, blocker=None)


# Findings, errors, and what the file defines: helpers found by their structure, and
# functions with a helper's name that are thin wrappers (see FileResult).
_Defined = tuple[set[str], set[str]]
_Outcome = tuple[list[Finding], list[FileError], _Defined]


def _check_python(
    source: SourceFile,
    context: RuleContext,
    rules: Sequence[type[Rule]],
    triggered: _Triggered,
    whole: bool,
    has_suppressions: bool,
    parts: ModuleParts | None,
) -> _Outcome:
    """Run the libcst rules and the ast rules (see PythonAstRule), each over the lines
    its own triggers keep."""
    concrete = [r for r in rules if issubclass(r, PythonRule)]
    abstract = [r for r in rules if issubclass(r, PythonAstRule)]
    statement_hits, function_hits = triggered.hits(concrete, helpers=True)
    kept = combined(statement_hits), combined(function_hits)
    abstract_kept = triggered.patterns(abstract, helpers=False)
    # A file with suppression comments is checked whole by every rule once any trigger
    # matched in it (see check): each rule then sees every line.
    if has_suppressions and not whole and kept == abstract_kept == (None, None):
        return [], [], (set(), set())
    whole = whole or has_suppressions
    scan = LineScan(source.text)  # both selections read it
    only_shapes = not statement_hits and _SHAPES.issuperset(function_hits)
    if not whole and only_shapes and not _may_hold_shapes(source.text, kept[1], scan):
        concrete = []  # what the shape triggers matched holds no shape: libcst is not asked
    parsed, findings, errors, defined = _check_concrete(
        source, context, concrete, *kept, whole, parts, scan
    )
    if abstract and (whole or abstract_kept != (None, None)):
        more, failed = _check_abstract(source, context, abstract, *abstract_kept, whole, scan)
        findings += more
        errors += failed
    if has_suppressions and findings:
        if parsed is None:
            parsed = parse_python(source.text, source.module_name)
        findings = _with_python_statements(parsed, findings)
    return findings, errors, defined


# The triggers of the functions whose structure the shape rules judge (GV201, GV203,
# GV204): loose, so what they match is read by CPython's parser first.
_SHAPES = frozenset(PYTHON_SHAPE_TRIGGERS)


def _may_hold_shapes(text: str, function: Triggers | None, scan: LineScan) -> bool:
    """Tell whether the lines the shape triggers keep may hold what the shape rules find
    (see python_shape_gate); yes when CPython cannot read them, which libcst then tells."""
    selection = select_lines(text, None, function, scan)
    if selection is not None and selection.is_empty:
        return False
    selected = partial_text(text, selection)
    readable = text if selected is None else selected[0]
    try:
        return python_shape_gate.may_hold_shapes(quiet_parse(readable.removeprefix("\ufeff")))
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return True  # and libcst says what a check of such code always said


def _check_concrete(
    source: SourceFile,
    context: RuleContext,
    rules: Sequence[type[PythonRule]],
    statement: Triggers | None,
    function: Triggers | None,
    whole: bool,
    parts: ModuleParts | None,
    scan: LineScan,
) -> tuple[ParsedPython | None, list[Finding], list[FileError], _Defined]:
    """Run the libcst rules (every line when `whole`); return the parse too (None when
    nothing was parsed)."""
    nothing: _Defined = (set(), set())
    if not rules:
        return None, [], [], nothing
    selection = None if whole else select_lines(source.text, statement, function, scan)
    if selection is not None and selection.is_empty:
        return None, [], [], nothing
    if has_lone_return(source.text):
        # The partial parse (selected lines, the editor's kept statements) splits at `\n`
        # only; libcst and the line model also end a line at a lone `\r`: parse it whole.
        selection, parts = None, None
    # Parsed one top-level statement (or member of a long class, or run of statements of
    # a long function) at a time, even without an editor's kept parts: libcst's native
    # parser holds several hundred bytes per byte it parses until it is done, so a file's
    # peak is its largest piece's, not its own.
    parts = parts if parts is not None else ModuleParts()
    parsed = parse_python(source.text, source.module_name, selection, parts)
    visitors = [r(context, parsed) for r in rules]
    try:
        parsed.walk([v.get_visitors() for v in visitors])
    except RecursionError as exc:
        raise ParseError("Python nesting too deep to analyse") from exc
    if not parsed.complete and any(v.wants_whole_parse for v in visitors):
        return _check_concrete(source, context, rules, statement, function, True, None, scan)
    findings: list[Finding] = []
    errors: list[FileError] = []
    defined: _Defined = (set(), set())
    for visitor in visitors:
        if visitor.crash is not None:
            crash = visitor.crash
            errors.append(FileError(source.path, str(crash), code=crash.code, crash=True))
            continue
        findings.extend(visitor.findings)
        defined[0].update(visitor.defined_helpers)
        defined[1].update(visitor.thin_helpers)
    return parsed, findings, errors, defined


def _check_abstract(
    source: SourceFile,
    context: RuleContext,
    rules: Sequence[type[PythonAstRule]],
    statement: Triggers | None,
    function: Triggers | None,
    whole: bool,
    scan: LineScan,
) -> tuple[list[Finding], list[FileError]]:
    """Run the ast rules over the lines their triggers keep (every line when `whole`)."""
    selection = None if whole else select_lines(source.text, statement, function, scan)
    if selection is not None and selection.is_empty:
        return [], []
    triggers = [t for t in (statement, function) if t is not None]

    def wanted(text: str) -> bool:
        """Tell whether a statement CPython refuses may hold what the rules look for."""
        return any(t.search(text) is not None for t in triggers)

    try:
        parsed = parse_ast(source.text, selection, wanted)
    except NewerSyntax as exc:
        release = f"{sys.version_info.major}.{sys.version_info.minor}"
        why = (
            # No line number in the text: the error's own line says where, and a fix's
            # proof compares the errors before and after by their text.
            f"could not check the code around its triggers: the parser of Python {release}, "
            f"which lintgv runs on, rejects this line ({exc.message}), which libcst reads: "
            "syntax of a later Python, or none that Python accepts"
        )
        return [], [
            FileError(source.path, f"{r.META.code} {why}", exc.line, code=r.META.code)
            for r in rules
        ]
    findings, errors, _ = _run_each(source, (rule(context, parsed) for rule in rules))
    return findings, errors


def _with_python_statements(parsed: ParsedPython, findings: list[Finding]) -> list[Finding]:
    """Set each finding's statement line (the first line of its innermost statement)."""
    starts = parsed.statement_lines([f.span.start_line for f in findings])
    return [replace(f, statement_line=start) for f, start in zip(findings, starts, strict=True)]


# The triggers of the C++ functions and loops whose structure GV201 to GV204 judge.
_CPP_SHAPES = frozenset(CPP_SHAPE_TRIGGERS + CPP_RETRY_TRIGGERS)


def _may_hold_cpp_shapes(text: str, triggered: _Triggered, rules: Sequence[type[Rule]]) -> bool:
    """Tell whether the rules may find something in a C++ file: yes when a trigger other
    than a shape's matched (a helper's name, a GlobalVar, a call of a helper found in
    another file), else when the text passes the shape rules' own first tests, which they
    ask of each function body (cpp_shape.may_copy) and declaration (cpp_loops.may_hold_loop):
    a file that fails them has no part that passes. The tests are asked of the whole
    file, not of the declarations the triggers match in: a parsed file has every function
    judged, a copy that no trigger matches included."""
    if triggered.run_all or not triggered.none_but(_CPP_SHAPES, rules):
        return True
    data = text.encode()  # no surrogate: check refused those first
    return may_copy(data) or may_hold_loop(data)


def _check_cpp(
    source: SourceFile,
    context: RuleContext,
    rules: Sequence[type[Rule]],
    reuse: Reuse | None,
) -> _Outcome:
    parsed = reuse.parse_cpp(source.text) if reuse is not None else parse_cpp(source.text)
    cpp = (rule(context, parsed) for rule in rules if issubclass(rule, CppRule))
    return _run_each(source, cpp)


def _run_each(source: SourceFile, instances: Iterable[CppRule | PythonAstRule]) -> _Outcome:
    """Run each rule; a rule that crashes gives an error, and the others still run."""
    findings: list[Finding] = []
    errors: list[FileError] = []
    defined: _Defined = (set(), set())
    for instance in instances:
        code = instance.META.code
        try:
            instance.run()
        except Exception as exc:  # a rule bug must not hide the other rules' results
            log.debug("rule %s crashed on %s", code, source.path, exc_info=True)
            crash = str(RuleCrash(code, exc))
            errors.append(FileError(source.path, crash, code=code, crash=True))
            continue
        findings.extend(instance.findings)
        defined[0].update(instance.defined_helpers)
        defined[1].update(instance.thin_helpers)
    return findings, errors, defined
