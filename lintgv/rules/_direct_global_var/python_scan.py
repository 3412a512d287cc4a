"""GV101 in Python: calls that resolve to tvm's GlobalVar, their fixes planned together."""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING

from lintgv.codemods.supply_python import OwnerFacts, SupplyPlanner
from lintgv.config import Config
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.python import ParsedPython, code_of
from lintgv.rules._base import PythonRule, RuleContext
from lintgv.rules._direct_global_var.common import SUPPLY_METHODS, extra_triggers, message_for

if TYPE_CHECKING:
    from lintgv.codemods.supply_python import Owner

PYTHON_CONSTRUCTOR = re.compile(r"^tvm(\.\w+)*\.GlobalVar$")
# GV101 runs on a Python file where GlobalVar can be constructed: called (`(GlobalVar)(`
# too), or bound to another name (`import ... as`, `X = tvm.ir.GlobalVar`, `X =
# ((tvm.ir.GlobalVar))`), which calls then use. A file that mentions it only as a type
# (`isinstance(x, GlobalVar)`, `-> GlobalVar`) constructs none and is not parsed. Where
# the rule runs, its triggers keep every line that mentions GlobalVar (imports in a
# function or a long `try` block, aliases), as name resolution needs them.
PYTHON_GATE = (
    r"GlobalVar(?:\s*\))*\s*[(\\]|GlobalVar[ \t]+as\b"
    r"|=[(\s\\]*(?:\w+\s*\.\s*)*GlobalVar\b"
)


class PythonSites(PythonRule):
    """Finds the constructions of a module and plans their fixes when it is left."""

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return cls.META.triggers + extra_triggers(config), cls.META.function_triggers

    @classmethod
    def gate(cls, config: Config) -> tuple[str, ...]:
        return (PYTHON_GATE, *extra_triggers(config))

    def __init__(self, context: RuleContext, parsed: ParsedPython) -> None:
        super().__init__(context, parsed)
        self._class_depth = 0
        self._supplied_names: list[set[str]] = [set()]
        self._sites: list[cst.Call] = []
        # Noted during the walk, so that planning fixes walks nothing again: the functions,
        # lambdas and classes holding each site (innermost first), each function's facts,
        # and the plain names used or bound in each function (nested ones included).
        self._owners: list[Owner] = []
        self._chains: dict[int, tuple[Owner, ...]] = {}
        self._facts: dict[int, OwnerFacts] = {}
        self._owner_names: list[set[str]] = []  # one set for each of `_owners`
        self._names: dict[int, set[str]] = {}

    @property
    def module(self) -> cst.Module:
        return self.parsed.module

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """Return the parent of `node` (None for the module)."""
        return self.parsed.parent_of(node)

    def visit_Module(self, node: cst.Module) -> None:
        self._enter(node)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._enter(node)
        # The constructor's own definition (class GlobalVar in tvm.ir.expr) is allowed.
        if node.name.value == "GlobalVar" or self._class_depth:
            self._class_depth += 1

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._leave()
        if self._class_depth:
            self._class_depth -= 1

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._enter(node)
        self._supplied_names.append(set())

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._leave()
        self._supplied_names.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._enter(node)

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self._leave()

    def _enter(self, owner: Owner) -> None:
        self._owners.append(owner)
        names: set[str] = set()
        self._owner_names.append(names)
        if isinstance(owner, cst.FunctionDef | cst.Module):
            self._facts[id(owner)] = OwnerFacts(partial(code_of, self.parsed.module))
            self._names[id(owner)] = names

    def _leave(self) -> None:
        self._owners.pop()
        names = self._owner_names.pop()
        if self._owner_names:
            self._owner_names[-1].update(names)  # the one holding it uses them too

    def visit_Name(self, node: cst.Name) -> None:
        if self._owner_names:
            self._owner_names[-1].add(node.value)

    def _note_facts(self, node: cst.Assign | cst.Call) -> None:
        """Feed `node` to the facts of every function holding it (see SupplyPlanner)."""
        for owner in self._owners:
            facts = self._facts.get(id(owner))
            if facts is not None:
                if isinstance(node, cst.Call):
                    facts.visit_Call(node)
                else:
                    facts.visit_Assign(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._note_facts(node)
        if _is_supply_call(node.value):
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    self._supplied_names[-1].add(target.target.value)

    def visit_Call(self, node: cst.Call) -> None:
        self._note_facts(node)
        if self._class_depth or not node.args:
            return
        # `names.reserve_name(x)`: from 0.25 on, GlobalVar(x) is sanctioned after it.
        func, first = node.func, node.args[0].value
        if (
            _is_supply_call(node)
            and isinstance(func, cst.Attribute)
            and isinstance(first, cst.Name)
            and func.attr.value in ("reserve_name", "ReserveName")
        ):
            self._supplied_names[-1].add(first.value)
        names = self.qualified_names(node.func)
        extra = set(self.config.extra_constructors)
        if not any(PYTHON_CONSTRUCTOR.match(n) or n in extra for n in names):
            return
        if self.config.release.has_unique_name_supply and self._is_supplied(node):
            return
        self._sites.append(node)
        self._chains[id(node)] = tuple(reversed(self._owners))

    def leave_Module(self, original_node: cst.Module) -> None:
        # Fixes are planned together: sites of one function share one supply.
        if not self._sites:
            return
        unique_names = self.config.release.has_unique_name_supply
        planner = SupplyPlanner(
            self,
            self.parsed.complete,
            unique_names,
            facts=self._facts,
            owners=self._chains,
            names=self._names,
        )
        suppressed = self.suppressed_among(self._sites)
        outcomes = planner.plan([call for call in self._sites if id(call) not in suppressed])
        if any(o.unseen for o in outcomes.values()):
            # A module-level site: its supply and module are names the partial parse left
            # out (see SupplyPlanner).
            self.wants_whole_parse = True
            return
        for call in self._sites:
            if id(call) in suppressed:
                self.report(call)  # dropped with its suppression, which it marks as used
                continue
            outcome = outcomes[call]
            message = message_for(self.config, self.META.message, outcome.reason)
            self.report(
                call, message, fix=outcome.fix, reason=outcome.reason, blocker=outcome.blocker
            )

    def _is_supplied(self, node: cst.Call) -> bool:
        first = node.args[0].value
        if _is_supply_call(first):
            return True
        return isinstance(first, cst.Name) and first.value in self._supplied_names[-1]


def _is_supply_call(node: cst.BaseExpression) -> bool:
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value in SUPPLY_METHODS
    )
