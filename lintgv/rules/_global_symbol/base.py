"""Rule bases for GV301 and GV302: one scan, each code reporting its own kind."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import ClassVar

from lintgv.config import Config
from lintgv.helpers.names import DICT_SCAN
from lintgv.model import Language, Message, Severity
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.python import ParsedPython
from lintgv.rules._base import CppRule, PythonRule, RuleContext
from lintgv.rules._global_symbol import python_scan
from lintgv.rules._global_symbol.cpp_scan import mutations_of
from lintgv.rules._global_symbol.messages import Evidence, Kind, remove_message, set_message
from lintgv.rules._global_symbol.python_scan import FunctionState, Read

CPP_TRIGGERS = (r'kGlobalSymbol|"global_symbol"',)
# The whole function is parsed: its earlier lines show whether a symbol existed.
PYTHON_TRIGGERS = (
    r"""(?:with_attr|without_attr)\(\s*["']global_symbol"""
    rf"""|with_attrs?\(\s*\{{[^}}]{{0,{DICT_SCAN}}}["']global_symbol""",
)


def message_for(rule: PythonRule | CppRule, kind: Kind, evidence: Evidence | None) -> Message:
    language = rule.LANGUAGE or Language.PYTHON
    if kind is Kind.SET:
        return set_message(rule.config, language, evidence)
    return remove_message(rule.config, language, evidence)


def soften_first_setting(rule: PythonRule | CppRule, kind: Kind, evidence: Evidence | None) -> None:
    """Report a first setting as info, below an overwrite, unless configured otherwise."""
    configured = dict(rule.config.severity)
    if kind is Kind.SET and evidence is None and rule.META.code not in configured:
        rule.findings[-1] = replace(rule.findings[-1], severity=Severity.INFO)


class GlobalSymbolCpp(CppRule):
    KIND: ClassVar[Kind]
    QUERY = ""  # `run` uses CppScan

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return CPP_TRIGGERS, ()

    def run(self) -> None:
        """Report each mutation of this rule's kind."""
        for mutation in mutations_of(self.parsed):
            if mutation.kind is self.KIND:
                self.report(mutation.call, message_for(self, self.KIND, mutation.evidence))
                soften_first_setting(self, self.KIND, mutation.evidence)


class GlobalSymbolPython(PythonRule):
    KIND: ClassVar[Kind]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return (), PYTHON_TRIGGERS

    def __init__(self, context: RuleContext, parsed: ParsedPython) -> None:
        super().__init__(context, parsed)
        self._states = [FunctionState()]
        self._ifs: list[cst.If] = []
        # id() of an assigned value: its targets (their code is worked out only for a
        # value that sets an attribute: most assignments set none).
        self._assigned: dict[int, Sequence[cst.AssignTarget]] = {}
        # Open `transform.Apply(lambda f: ...)` calls: each hands its lambda every function
        # of the module, so `f` is taken from the module.
        self._handed: list[tuple[cst.Call, frozenset[str]]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._states.append(FunctionState())

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._states.pop()

    def visit_If(self, node: cst.If) -> None:
        self._ifs.append(node)

    def leave_If(self, original_node: cst.If) -> None:
        self._ifs.pop()

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._bind(target.target, node.value)
        # `f = f.with_attr(...)` changes `f`; a bare `f.with_attr(...)` makes a copy.
        self._assigned[id(node.value)] = node.targets

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, node.iter)

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        for name in python_scan.bound_names(target):
            self._states[-1].bindings.setdefault(name, []).append(value)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self._read(node)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self._read(node)

    def _read(self, node: cst.CSTNode) -> None:
        subject = python_scan.read_subject(node)
        if subject is None:
            return
        test_of = None
        for branch in reversed(self._ifs):
            if python_scan.contains(branch.test, node):
                test_of = branch
                break
        negated = test_of is not None and python_scan.is_negated(test_of.test, node)
        names = set(python_scan.names_in(subject))
        self._states[-1].reads.append(Read(node, names, test_of, negated))

    def leave_Call(self, original_node: cst.Call) -> None:
        if self._handed and self._handed[-1][0] is original_node:
            self._handed.pop()

    def visit_Call(self, node: cst.Call) -> None:
        handed = python_scan.applied_to_each_function(node)
        if handed:
            self._handed.append((node, handed))
        self._read(node)
        mutation = python_scan.classify(node)
        if mutation is None:
            return
        kind, target = mutation.kind, mutation.target
        if mutation.value is not None and python_scan.is_copied_symbol(mutation.value):
            return  # an existing symbol carried over unchanged
        family, traced = self._family(self._states[-1], target)
        evidence = self._evidence(node, target, family) or traced
        state = self._states[-1]
        code = self._code(target)
        targets = self._assigned.get(id(node), ())
        if kind is Kind.SET and any(self._code(t.target) == code for t in targets):
            state.sets.append((code, node))
        if kind is self.KIND:
            self.report(node, message_for(self, kind, evidence))
            soften_first_setting(self, kind, evidence)

    def _code(self, node: cst.CSTNode) -> str:
        return "".join(self.parsed.module.code_for_node(node).split())

    def _line(self, node: cst.CSTNode) -> int:
        return self.span_of(node).start_line

    def _evidence(
        self, call: cst.Call, target: cst.BaseExpression, family: set[str]
    ) -> Evidence | None:
        state = self._states[-1]
        for read in state.reads:
            if read.subject & family and not python_scan.guards_absence(read, call):
                return Evidence("its global_symbol is read first", self._line(read.node))
        code = self._code(target)
        for earlier, node in state.sets:
            # Only a variable is the same function twice; `make()` makes a new one each time.
            if earlier == code and isinstance(target, cst.Name | cst.Attribute):
                return Evidence("it is set earlier", self._line(node))
        if python_scan.MODULE_LOOKUP.search(code):
            return Evidence("the function is taken from the module", self._line(target))
        names = set(python_scan.names_in(target))
        for apply, parameters in reversed(self._handed):
            if names & parameters:
                name = sorted(names & parameters)[0]
                reason = f"`{name}` is each function of the module (transform.Apply)"
                return Evidence(reason, self._line(apply))
        return None

    def _family(
        self, state: FunctionState, target: cst.BaseExpression
    ) -> tuple[set[str], Evidence | None]:
        """Follow the target's variables back through their bindings, a few hops; return
        every variable met and where the function was taken from a module, if it was."""
        names = python_scan.names_in(target)
        seen: set[str] = set()
        found: Evidence | None = None
        for _ in range(python_scan.MAX_HOPS):
            following: list[str] = []
            for name in names:
                if name in seen:
                    continue
                seen.add(name)
                for value in state.bindings.get(name, ()):
                    if not found and python_scan.MODULE_LOOKUP.search(self._code(value)):
                        found = Evidence(f"`{name}` is taken from the module", self._line(value))
                    following.extend(python_scan.names_in(value))
            names = following
        return seen, found
