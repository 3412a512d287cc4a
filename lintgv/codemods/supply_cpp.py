"""GV101 in C++: a hand-made `GlobalVar` becomes `supply->FreshGlobal(name, false)` or
`supply->UniqueGlobalFor(name, false)` (TVM 0.10 to 0.24), or
`GlobalVar(names->FreshName(name, false))` with a UniqueNameSupply (TVM 0.25 on).

The supply is a GlobalVarSupply variable, parameter or member already in scope; else one
is declared from the IRModule the global is added to (`mod->Add(gv, f)`) or the only
IRModule in scope, once per function, just before the first site that needs it.
`add_prefix` is false, as TVM did by hand in PR 12066: names change only on collision.
"""

import re
from dataclasses import field
from enum import StrEnum

import tree_sitter

from lintgv.codemods import cpp_scope, nothing_in_scope
from lintgv.codemods.cpp_edits import follows_error, insert_before, statement_indent
from lintgv.codemods.includes import (
    GLOBAL_VAR_SUPPLY_HEADER,
    UNIQUE_NAME_SUPPLY_HEADER,
    include_edit,
)
from lintgv.codemods.names import free_name
from lintgv.model import Applicability, Blocker, Edit, Fix, Span
from lintgv.parsing.cpp import ParsedCpp, node_cursor
from lintgv.parsing.cpp_nodes import listed
from lintgv.records import frozen, mutable

_REGISTER_METHODS = frozenset({"Add", "Update", "AddUnchecked"})
_LOOKUPS = frozenset({"GetGlobalVar", "Lookup"})
_SYMBOL = re.compile(r"kGlobalSymbol|global_symbol")
# A chain of members ending in name_hint (`gv->name_hint`, `op->func->name_hint`).
_NAME_HINT = re.compile(r"^[\w:]+(?:(?:->|\.)\w+)*(?:->|\.)name_hint$")
# Conversions that keep a name as it is.
_SAME_NAME = re.compile(r"^(?:std::string|std::move|(?:tvm::)?(?:runtime::)?String)\((.*)\)$")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_NOT_ROOTS = frozenset({"std", "move", "this", "runtime", "tvm", "String"})


class SiteKind(StrEnum):
    CALL = "call"  # GlobalVar("f"), tvm::GlobalVar(...)
    DECLARATION = "declaration"  # GlobalVar gv("f"); GlobalVar gv{"f"};
    MAKE_OBJECT = "make_object"  # make_object<GlobalVarNode>()


@frozen
class CppSite:
    kind: SiteKind
    node: tree_sitter.Node  # the call, or the declaration's type
    args: tree_sitter.Node  # argument_list or initializer_list
    declarator: tree_sitter.Node | None = None  # the init_declarator of a declaration


@frozen
class Outcome:
    fix: Fix | None
    reason: str | None = None
    blocker: Blocker | None = None


@mutable
class _Plan:
    site: CppSite
    function: tree_sitter.Node | None = None
    method: str = "fresh"
    supply: str | None = None
    module: str | None = None  # expression of an IRModule (`mod`, `*device_mod_`)
    block: tree_sitter.Node | None = None  # where a new supply may be declared
    note: str | None = None
    reason: str | None = None
    blocker: Blocker | None = None
    # No supply or module to use: a new, empty supply is shown as a suggestion.
    suggest_new: bool = False
    edits: list[Edit] = field(default_factory=list)


def _strip_parens(text: str) -> str:
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text


def _root_of(expression: str) -> str:
    names = [n for n in _IDENTIFIER.findall(expression) if n != "this"]
    return names[0] if names else ("this" if "this" in expression else "")


def _names_existing(text: str) -> bool:
    """Tell whether an expression is an existing function's name: its global_symbol or a
    global's name_hint, not something derived from them (`gv->name_hint + "_grad"`)."""
    text = cpp_scope.normalized(text)
    if "+" in text or "<<" in text:
        return False
    while (inner := _SAME_NAME.match(text)) is not None:
        text = inner.group(1)
    return _SYMBOL.search(text) is not None or _NAME_HINT.match(text) is not None


def _unwrapped(text: str) -> str:
    """Return an expression without the conversions that keep a name as it is."""
    text = cpp_scope.normalized(text)
    while (inner := _SAME_NAME.match(text)) is not None:
        text = inner.group(1)
    return text


def _point(line: int, column: int) -> Span:
    return Span(line, column, line, column)


class SupplyPlanner:
    """Plans the GV101 fixes of one C++ file; see the module docstring."""

    def __init__(self, parsed: ParsedCpp, unique_names: bool) -> None:
        self.parsed = parsed
        self.unique_names = unique_names
        self._taken: dict[int, set[str]] = {}
        self._late: dict[int, str] = {}
        self._body_facts: dict[int, _BodyFacts] = {}
        # Sites whose plan read a class defined elsewhere in the file.
        self.looked_outside: list[tree_sitter.Node] = []

    @property
    def supply_type(self) -> str:
        return "UniqueNameSupply" if self.unique_names else "GlobalVarSupply"

    def include(self) -> Edit | None:
        """Return the edit that includes the supply's header, unless the file does."""
        header = GLOBAL_VAR_SUPPLY_HEADER if not self.unique_names else UNIQUE_NAME_SUPPLY_HEADER
        return include_edit(self.parsed, header)

    def plan(self, sites: list[CppSite]) -> list[Outcome]:
        """Return the fix (or the reason there is none) for each site, in order; each fix
        also needs `include()`, which depends on the whole file."""
        plans = [self._plan(site) for site in sites]
        self._mark_repeated_names(plans)
        groups: dict[tuple[int, str], list[_Plan]] = {}
        for plan in plans:
            if plan.reason is None and plan.supply is None and plan.module is not None:
                assert plan.function is not None
                groups.setdefault((plan.function.id, plan.module), []).append(plan)
        for members in groups.values():
            self._declare_supply(members)
        return [self._outcome(plan) for plan in plans]

    def _plan(self, site: CppSite) -> _Plan:
        plan = _Plan(site)
        if site.kind == SiteKind.MAKE_OBJECT:
            plan.reason = "make_object<GlobalVarNode>() fills the node by hand; take the "
            plan.reason += "GlobalVar from a supply instead"
            return plan
        arguments = listed(site.args)
        if len(arguments) > 1 and not self.unique_names:
            plan.reason = "the call also passes a type or span, which FreshGlobal cannot take"
            return plan
        scope = cpp_scope.scope_at(self.parsed, site.node)
        if scope.looked_outside:
            self.looked_outside.append(site.node)
        if scope.function is None or scope.body is None:
            plan.reason = "outside any function, where no supply can be declared"
            return plan
        if not self._is_in_body(site.node, scope.body):
            plan.reason = "not inside a function body (a default argument or initializer list)"
            return plan
        if cpp_scope.made_once(self.parsed, site.node):
            # Its initializer runs at the first call only: that call's supply would name
            # it for the modules of every later call, which know nothing of it.
            plan.reason = (
                "a static local is made once, at the first call; make the GlobalVar where "
                "its module is built"
            )
            return plan
        plan.function = scope.function
        if self._is_existing_name(arguments[0], scope):
            plan.method = "unique"
        supplies = scope.of_type(self.supply_type)
        if supplies:
            plan.supply = self._reference(supplies[0])
            if len(supplies) > 1:
                names = ", ".join(f"`{b.name}`" for b in supplies)
                plan.note = f"several supplies in scope ({names}); check the choice"
            return plan
        self._choose_module(plan, scope)
        return plan

    def _is_in_body(self, node: tree_sitter.Node, body: tree_sitter.Node) -> bool:
        return body.start_byte <= node.start_byte and node.end_byte <= body.end_byte

    @staticmethod
    def _reference(binding: cpp_scope.Binding) -> str:
        return f"(*{binding.name})" if binding.pointer else binding.name

    def _choose_module(self, plan: _Plan, scope: cpp_scope.Scope) -> None:
        assert scope.body is not None
        target = self._added_to(plan.site, scope)
        if target is not None:
            plan.module, plan.block = target
            return
        modules = scope.of_type("IRModule")
        late = self._late.get(id(plan.site))
        if not modules and late:
            plan.reason = f"the IRModule it is added to (`{late}`) is made after this line"
            plan.suggest_new = True
            return
        if not modules:
            plan.reason = nothing_in_scope(self.supply_type)
            plan.suggest_new = True
            if not self.unique_names:  # threading passes a GlobalVarSupply
                plan.blocker = Blocker.NOTHING_IN_SCOPE
            return
        chosen = modules[0]
        plan.module = f"*{chosen.name}" if chosen.pointer else chosen.name
        plan.block = self._block_for(plan.site.node, scope, chosen)
        if len(modules) > 1:
            names = ", ".join(f"`{b.name}`" for b in modules)
            plan.note = f"several IRModules in scope ({names}); check which one gets the global"

    def _block_for(
        self, node: tree_sitter.Node, scope: cpp_scope.Scope, binding: cpp_scope.Binding | None
    ) -> tree_sitter.Node:
        """Return the block to declare a supply in: where the module is declared, or the
        function body, whichever is innermost."""
        assert scope.body is not None
        if binding is None or binding.kind != cpp_scope.Kind.LOCAL:
            return scope.body
        for block in self.parsed.ancestors(node):
            if block == scope.body:
                break
            if block.type == "compound_statement" and any(
                c.start_byte < binding.start <= c.end_byte for c in block.named_children
            ):
                return block
        return scope.body

    def _added_to(
        self, site: CppSite, scope: cpp_scope.Scope
    ) -> tuple[str, tree_sitter.Node] | None:
        """Return the module the new global is added to (`mod->Add(gv, f)`), if visible."""
        assert scope.body is not None
        target = self._target_name(site)
        for call in self._facts(scope.body).registering(site.node, target):
            func = call.child_by_field_name("function")
            argument = func.child_by_field_name("argument") if func is not None else None
            if argument is None:
                continue
            module = _strip_parens(self.parsed.text(argument))
            root = _root_of(module)
            binding = scope.find(root)
            if binding is None and root != "this" and self._declares_local(scope.body, root):
                self._late[id(site)] = module  # a local declared after the site
                continue
            return module, self._block_for(site.node, scope, binding)
        return None

    def _declares_local(self, body: tree_sitter.Node, name: str) -> bool:
        return cpp_scope.declaring_block(self.parsed, body, name) is not None

    def _target_name(self, site: CppSite) -> str | None:
        if site.kind == SiteKind.DECLARATION and site.declarator is not None:
            inner = site.declarator.child_by_field_name("declarator")
            return self.parsed.text(inner) if inner is not None else None
        parent = site.node.parent
        if parent is not None and parent.type == "init_declarator":
            inner = parent.child_by_field_name("declarator")
            return self.parsed.text(inner) if inner is not None else None
        if parent is not None and parent.type == "assignment_expression":
            left = parent.child_by_field_name("left")
            return self.parsed.text(left) if left is not None else None
        return None

    def _facts(self, body: tree_sitter.Node) -> "_BodyFacts":
        if body.id not in self._body_facts:
            self._body_facts[body.id] = _BodyFacts.of(self.parsed, body)
        return self._body_facts[body.id]

    def _is_existing_name(self, argument: tree_sitter.Node, scope: cpp_scope.Scope) -> bool:
        """Tell whether the name is an existing function's: a global_symbol, a name_hint,
        or a name this function also looks up (`mod->GetGlobalVar(name)`)."""
        text = self.parsed.text(argument)
        if _names_existing(text):
            return True
        for name in _IDENTIFIER.findall(text):
            binding = scope.find(name)
            initializer = binding.initializer if binding is not None else None
            if initializer is not None and _names_existing(self.parsed.text(initializer)):
                return True
        assert scope.body is not None
        facts = self._facts(scope.body)
        wanted = cpp_scope.normalized(text)
        # Given as a kGlobalSymbol too (itself, or the variable it was copied from): the
        # global must keep exactly that name.
        names = {wanted}
        binding = scope.find(wanted)
        if binding is not None and binding.initializer is not None:
            names.add(_unwrapped(self.parsed.text(binding.initializer)))
        return (
            not names.isdisjoint(facts.given_as_symbol)
            or facts.is_assigned_a_symbol(wanted)
            or wanted in facts.looked_up
        )

    def _mark_repeated_names(self, plans: list[_Plan]) -> None:
        """A name constructed twice in one function is looked up again: UniqueGlobalFor."""
        seen: dict[tuple[int, str], list[_Plan]] = {}
        for plan in plans:
            arguments = listed(plan.site.args)
            if plan.function is None or not arguments:
                continue
            key = (plan.function.id, cpp_scope.normalized(self.parsed.text(arguments[0])))
            seen.setdefault(key, []).append(plan)
        for group in seen.values():
            if len(group) > 1:
                for plan in group:
                    plan.method = "unique"

    def _declare_supply(self, members: list[_Plan]) -> None:
        """Declare one supply for the sites of one function that use one module: in the
        innermost block holding them all (outside loops), before the first of them."""
        members = sorted(members, key=lambda m: m.site.node.start_byte)
        first = members[0]
        assert first.block is not None and first.function is not None and first.module
        outer = first.block
        inside = [
            m
            for m in members
            if cpp_scope.statement_in(self.parsed, outer, m.site.node) is not None
        ]
        held = {id(m) for m in inside}
        for member in members:
            if id(member) not in held:
                member.reason = "the module is declared in a block that does not hold this site"
        if not inside:
            return
        block = cpp_scope.common_block(self.parsed, outer, [m.site.node for m in inside])
        anchor = cpp_scope.statement_in(self.parsed, block, inside[0].site.node)
        assert anchor is not None, "the common block holds every site"
        if follows_error(anchor):
            for member in inside:
                member.reason = (
                    "a macro before the statement would be taken from it by a supply declared there"
                )
            return
        body = first.function.child_by_field_name("body")
        if body is not None and _has_label(body):
            # A goto may jump over a declaration to a label after it, into its scope, and
            # that does not compile: the supply is declared first thing in the function,
            # which no jump can pass, when its module is in scope there.
            if outer != body:
                for member in inside:
                    member.reason = "a goto label in this function could jump over a supply"
                return
            anchor = next(c for c in body.named_children if c.type != "comment")
        taken = self._taken.setdefault(
            first.function.id, cpp_scope.identifiers(self.parsed, first.function)
        )
        name = free_name(taken, "global_names" if self.unique_names else "global_var_supply")
        taken.add(name)
        edit = self._declaration(anchor, name, first.module)
        for member in inside:
            member.supply = name
            member.edits.append(edit)

    def _declaration(self, anchor: tree_sitter.Node, name: str, module: str) -> Edit:
        if self.unique_names:
            arrow = f"({module})" if module.startswith("*") else module
            pad = " " * (len(self.supply_type) + len(name) + 2)
            indent = statement_indent(self.parsed, anchor)
            text = (
                f"{self.supply_type} {name}({arrow}->functions.begin(), {arrow}->functions.end(),"
                f"\n{indent}{pad}[](const auto& kv) {{ return kv.first->name_hint; }});"
            )
        else:
            text = f"GlobalVarSupply {name} = GlobalVarSupply({module});"
        return insert_before(self.parsed, anchor, text)

    def _outcome(self, plan: _Plan) -> Outcome:
        if plan.reason is not None and plan.suggest_new and not self.unique_names:
            # Shown, never applied: a new supply knows no other function's name, so the
            # caller's supply (or the module's) has to be passed in for real.
            plan.supply = 'GlobalVarSupply(NameSupply(""))'
            shown = self._rewritten(plan)
            title = f"{shown.title}: a new supply; pass the module's supply in instead"
            fix = Fix(title, Applicability.DISPLAY, shown.edits)
            return Outcome(fix, plan.reason, plan.blocker)
        if plan.reason is not None:
            return Outcome(None, plan.reason)
        fix = self._rewritten(plan)
        if plan.note is not None:
            return Outcome(Fix(f"{fix.title} ({plan.note})", Applicability.DISPLAY, fix.edits))
        return Outcome(fix)

    def _rewritten(self, plan: _Plan) -> Fix:
        """Return the unsafe fix naming the site's global with the plan's supply."""
        site = plan.site
        assert plan.supply is not None, "every planned site has a supply by now"
        first = listed(site.args)[0]
        first_span = self.parsed.span(first)
        edits = list(plan.edits)
        if self.unique_names:
            method = "ReserveName" if plan.method == "unique" else "FreshName"
            edits.append(
                Edit(
                    _point(first_span.start_line, first_span.start_col),
                    f"{plan.supply}->{method}(",
                    "",
                )
            )
            edits.append(Edit(_point(first_span.end_line, first_span.end_col), ", false)", ""))
            title = f"Name it with {plan.supply}->{method}(..., false)"
        else:
            method = "UniqueGlobalFor" if plan.method == "unique" else "FreshGlobal"
            call = f"{plan.supply}->{method}"
            edits.extend(self._rewrite(site, call))
            edits.append(Edit(_point(first_span.end_line, first_span.end_col), ", false", ""))
            title = f"Use {call}(..., false)"
        return Fix(title, Applicability.UNSAFE, tuple(edits))

    def _rewrite(self, site: CppSite, call: str) -> list[Edit]:
        if site.kind == SiteKind.CALL:
            func = site.node.child_by_field_name("function")
            assert func is not None
            return [self.parsed.replace(func, call)]
        args = site.args
        start = self.parsed.span(args)
        edits = [Edit(_point(start.start_line, start.start_col), f" = {call}", "")]
        if args.type == "initializer_list":
            opening, closing = args.children[0], args.children[-1]
            edits.append(self.parsed.replace(opening, "("))
            edits.append(self.parsed.replace(closing, ")"))
        return edits


@mutable
class _BodyFacts:
    """What one function body does with names, gathered in one walk for all its sites."""

    register_calls: list[tree_sitter.Node] = field(default_factory=list)  # mod->Add(gv, f)
    # The register calls by their first argument: its node, and its text.
    registering_node: dict[int, list[tree_sitter.Node]] = field(default_factory=dict)
    registering_text: dict[str, list[tree_sitter.Node]] = field(default_factory=dict)
    looked_up: set[str] = field(default_factory=set)  # mod->GetGlobalVar(name)
    # Arguments after a kGlobalSymbol key (`WithAttr(f, tvm::attr::kGlobalSymbol, name)`).
    given_as_symbol: set[str] = field(default_factory=set)
    symbols: set[str] = field(default_factory=set)  # variables declared from a global_symbol
    assigned: dict[str, list[str]] = field(default_factory=dict)  # variable → values given

    @classmethod
    def of(cls, parsed: ParsedCpp, body: tree_sitter.Node) -> "_BodyFacts":
        facts = cls()
        cursor = node_cursor()
        cursor.set_byte_range(body.start_byte, body.end_byte)
        captured = cursor.captures(body)
        # Calls, declarations (`if (auto opt = ...)` declares in a condition: a
        # declaration with a value) and the other bindings.
        found = [*captured.get("site", []), *captured.get("binding", [])]
        # Outer nodes first, as a walk from the body meets them; nodes the range only
        # touches (a call holding a lambda whose body this is) are not the body's.
        found.sort(key=lambda n: (n.start_byte, -n.end_byte))
        for node in found:
            if node.start_byte < body.start_byte or node.end_byte > body.end_byte:
                continue
            if node.type == "call_expression":
                facts._call(parsed, node)
            else:
                facts._binding(parsed, node)
        return facts

    def _call(self, parsed: ParsedCpp, node: tree_sitter.Node) -> None:
        func = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        given = listed(arguments) if arguments is not None else []
        name = func.child_by_field_name("field") if func is not None else None
        is_member_call = func is not None and func.type == "field_expression"
        if is_member_call and name is not None and parsed.text(name) in _REGISTER_METHODS:
            self.register_calls.append(node)
            if given:
                self.registering_node.setdefault(given[0].id, []).append(node)
                self.registering_text.setdefault(parsed.text(given[0]), []).append(node)
        called = cpp_scope.normalized(parsed.text(func)) if func else ""
        if called.rsplit("->", 1)[-1].rsplit(".", 1)[-1] in _LOOKUPS and given:
            self.looked_up.add(cpp_scope.normalized(parsed.text(given[0])))
        texts = [parsed.text(a) for a in given]
        keys = [i for i, t in enumerate(texts) if _SYMBOL.search(t)]
        if keys:
            self.given_as_symbol.update(_unwrapped(t) for t in texts[keys[0] + 1 :])

    def registering(self, node: tree_sitter.Node, text: str | None) -> list[tree_sitter.Node]:
        """Return the register calls whose first argument is `node`, or reads `text`, in
        source order: a lookup per site instead of a walk over every call."""
        found = {c.id: c for c in self.registering_node.get(node.id, ())}
        for call in self.registering_text.get(text, ()) if text else ():
            found[call.id] = call
        return sorted(found.values(), key=lambda c: c.start_byte)

    def _binding(self, parsed: ParsedCpp, node: tree_sitter.Node) -> None:
        is_assignment = node.type == "assignment_expression"
        left = node.child_by_field_name("left" if is_assignment else "declarator")
        right = node.child_by_field_name("right" if is_assignment else "value")
        if left is None or right is None:
            return
        name, value = cpp_scope.normalized(parsed.text(left)), parsed.text(right)
        if _names_existing(value):
            self.symbols.add(name)
        self.assigned.setdefault(name, []).append(value)

    def is_assigned_a_symbol(self, wanted: str) -> bool:
        """Tell whether the variable `wanted` is assigned a global_symbol
        (`gv_name = opt.value();` where `auto opt = f->GetAttr<String>(kGlobalSymbol)`)."""
        return any(
            _names_existing(value) or _root_of(_unwrapped(value)) in self.symbols
            for value in self.assigned.get(wanted, [])
        )


def _has_label(body: tree_sitter.Node) -> bool:
    """Tell whether a function body holds a label a goto can jump to."""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "labeled_statement":
            return True
        stack.extend(node.named_children)
    return False
