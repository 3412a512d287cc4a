"""GV101 in Python: `GlobalVar(name)` becomes a GlobalVarSupply's `fresh_global` or
`unique_global_for` (TVM 0.10 to 0.24), or `GlobalVar(names.fresh_name(name, False))`
with a UniqueNameSupply (TVM 0.25 on).

The supply is one already in scope, else one built from the IRModule the new global is
added to (or the only IRModule in scope): inline for a single site, or one variable
inserted before the first of several sites of a function. `add_prefix` is passed as
False, as TVM did by hand in PR 12066, so names change only where they would collide.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING

from lintgv.codemods import nothing_in_scope
from lintgv.codemods import python_scope as scope
from lintgv.codemods.includes import SUPPLY_MODULE, import_edit
from lintgv.codemods.names import free_name
from lintgv.model import Applicability, Blocker, Edit, Fix, Span
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.python import code_of
from lintgv.parsing.walk import methods_of, walk
from lintgv.records import frozen, mutable

_REGISTER_METHODS = frozenset({"update_func", "add"})
_LOOKUPS = frozenset({"get_global_var"})
# A chain of attributes ending in name_hint, perhaps passed through str().
_NAME_HINT = re.compile(r"^(?:str\()?\w+(?:\.\w+)*\.name_hint\)?$")


def _is_type(name: str, wanted: str) -> bool:
    return name == wanted or name.endswith("." + wanted)


def _is_module_value(name: str) -> bool:
    return _is_type(name, "IRModule") or any(
        name.endswith(f"IRModule.{m}") for m in ("from_expr", "from_expr_in_context")
    )


if TYPE_CHECKING:
    Owner = scope.FunctionLike | cst.Lambda | cst.ClassDef


@frozen
class Outcome:
    fix: Fix | None
    reason: str | None = None  # why there is no fix; None when unknown or fixed
    blocker: Blocker | None = None
    # The site is at module level and the parse was partial: its supply and module are
    # names that were not parsed, so nothing can be said yet.
    unseen: bool = False


@mutable
class _Site:
    call: cst.Call
    owner: scope.FunctionLike
    method: str = "fresh"  # or "unique"
    supply: str | None = None  # text of a supply already in scope
    module: cst.BaseExpression | None = None
    inline: bool = False  # build the supply inside the call (lambdas, single sites)
    note: str | None = None  # a human choice is needed: display only
    reason: str | None = None
    blocker: Blocker | None = None
    late: str = ""  # a module the global is added to, but bound only after the site
    # No supply or module to use: a new, empty supply is shown as a suggestion.
    suggest_new: bool = False
    edits: list[Edit] = field(default_factory=list)


class SupplyPlanner:
    """Plans the GV101 fixes of one Python file; see the module docstring."""

    def __init__(
        self,
        tools: scope.Tools,
        complete: bool,
        unique_names: bool,
        *,
        facts: Mapping[int, OwnerFacts] | None = None,
        owners: Mapping[int, tuple[Owner, ...]] | None = None,
        names: Mapping[int, set[str]] | None = None,
    ) -> None:
        """`facts` (by id of function), `owners` (by id of call: the functions, lambdas
        and classes holding it, innermost first) and `names` (by id of function: the
        plain names used or bound in it, as python_scope.names_in finds them) may come
        from a walk already made."""
        self.tools = tools
        self.complete = complete
        self.unique_names = unique_names  # target TVM 0.25's UniqueNameSupply
        self._bindings: dict[int, scope.Visible] = {}
        self._typed_bindings: dict[tuple[int, str], list[scope.PyBinding]] = {}
        self._taken: dict[int, set[str]] = {}
        self._facts: dict[int, OwnerFacts] = dict(facts or {})
        self._owners = owners or {}
        self._names = names or {}

    def code(self, node: cst.CSTNode) -> str:
        return code_of(self.tools.module, node)

    @property
    def supply_type(self) -> str:
        return "UniqueNameSupply" if self.unique_names else "GlobalVarSupply"

    def plan(self, calls: Sequence[cst.Call]) -> dict[cst.Call, Outcome]:
        """Return the fix (or the reason there is none) for each GlobalVar call."""
        sites = [self._site(call) for call in calls]
        groups: dict[tuple[int, str], list[_Site]] = {}
        for site in sites:
            if site.reason is None and site.supply is None and site.module is not None:
                key = (id(site.owner), self.code(site.module))
                groups.setdefault(key, []).append(site)
        for members in groups.values():
            self._share_supply(members)
        imports = import_edit(
            self.tools.module, self.tools.span_of, SUPPLY_MODULE, self.supply_type
        )
        return {site.call: self._outcome(site, imports) for site in sites}

    def _site(self, call: cst.Call) -> _Site:
        chain = self._owners.get(id(call))
        owner = chain[0] if chain else scope.owner_of(self.tools, call)
        inline = False
        while isinstance(owner, cst.Lambda):
            inline = True
            if chain:
                chain = chain[1:]
            owner = chain[0] if chain else scope.owner_of(self.tools, owner)
        if isinstance(owner, cst.ClassDef):
            return _Site(call, self.tools.module, reason="in a class body; no supply can be made")
        site = _Site(call, owner, inline=inline)
        if isinstance(owner, cst.Module) and not self.complete:
            site.reason = ""  # module-level names are not parsed: GV101 asks for a whole parse
            return site
        args = call.args
        if args[0].keyword is not None or args[0].star:
            site.reason = "the name is passed by keyword or unpacked"
        elif len(args) > 1 and not self.unique_names:
            site.reason = "the call also passes a type or span, which fresh_global cannot take"
        if site.reason is not None:
            return site
        self._choose_supply(site)
        return site

    def facts(self, owner: scope.FunctionLike) -> OwnerFacts:
        if id(owner) not in self._facts:
            facts = OwnerFacts(self.code)
            walk(owner, [methods_of(facts)])
            self._facts[id(owner)] = facts
        return self._facts[id(owner)]

    def bindings(self, owner: scope.FunctionLike) -> scope.Visible:
        if id(owner) not in self._bindings:
            self._bindings[id(owner)] = scope.Visible(scope.bindings(self.tools, owner))
        return self._bindings[id(owner)]

    def _typed(self, owner: scope.FunctionLike, type_name: str) -> list[scope.PyBinding]:
        """Return the bindings of `owner` that hold a `type_name`, in order (worked out once
        per function, not once per site)."""
        key = (id(owner), type_name)
        if key not in self._typed_bindings:
            found = self.bindings(owner).found
            self._typed_bindings[key] = [b for b in found if self._binds(b, type_name)]
        return self._typed_bindings[key]

    def _choose_supply(self, site: _Site) -> None:
        line = self.tools.span_of(site.call).start_line
        visible = self.bindings(site.owner)
        site.method = "unique" if self._is_existing_name(site, line) else "fresh"
        supplies = visible.latest_of(self._typed(site.owner, self.supply_type), line)
        if supplies:
            site.supply = supplies[0].name
            if len(supplies) > 1:
                names = ", ".join(f"`{b.name}`" for b in supplies)
                site.note = f"several supplies in scope ({names}); check the choice"
            return
        target = self._added_to(site, line)
        if target is not None:
            site.module = target
            return
        modules = visible.latest_of(self._typed(site.owner, "IRModule"), line)
        if not modules and site.late:
            site.reason = f"the IRModule it is added to (`{site.late}`) is made after this line"
            site.suggest_new = True
            return
        if not modules:
            site.suggest_new = True
            if isinstance(site.owner, cst.Module):
                # No function here can take a supply parameter: nothing to thread (and no
                # migration plan counts on it).
                site.reason = (
                    f"at module level, with no {self.supply_type} or IRModule to name it "
                    "with and no function to take a supply parameter"
                )
                return
            site.reason = nothing_in_scope(self.supply_type)
            if not self.unique_names:  # threading passes a GlobalVarSupply
                site.blocker = Blocker.NOTHING_IN_SCOPE
            return
        site.module = cst.Name(modules[0].name)
        if len(modules) > 1:
            names = ", ".join(f"`{b.name}`" for b in modules)
            site.note = f"several IRModules in scope ({names}); check which one gets the global"

    def supply_at(self, owner: scope.FunctionLike, line: int) -> str | None:
        """Return what a call at `line` of `owner` can pass as a GlobalVarSupply: a supply
        in scope, else one built from an IRModule in scope (a binding of that type, or a
        parameter named like one: `mod`), else None. For supply threading."""
        visible = self.bindings(owner)
        supplies = visible.latest_of(self._typed(owner, self.supply_type), line)
        if supplies:
            return supplies[0].name
        modules = visible.latest_of(self._typed(owner, "IRModule"), line)
        if not modules:
            modules = [
                b
                for b in visible.found
                if b.statement is None
                and scope.looks_like_module(cst.Name(b.name))
                and visible.at(b.name, line) is b
            ]
        return f"{self.supply_type}({modules[0].name})" if modules else None

    def _binds(self, binding: scope.PyBinding, type_name: str) -> bool:
        def wanted(name: str) -> bool:
            return _is_module_value(name) if type_name == "IRModule" else _is_type(name, type_name)

        if binding.annotation is not None and scope.resolves_to(
            self.tools, binding.annotation, wanted
        ):
            return True
        return isinstance(binding.value, cst.Call) and scope.resolves_to(
            self.tools, binding.value, wanted
        )

    def _is_existing_name(self, site: _Site, line: int) -> bool:
        """Tell whether the name belongs to an existing function: a global_symbol, another
        global's name_hint, or a name this function also looks up or constructs again."""
        code = self.code
        first = site.call.args[0].value
        text = code(first)
        if _names_existing(text):
            return True
        if isinstance(first, cst.Name):
            bound = self.bindings(site.owner).at(first.value, line)
            if bound is not None and bound.value is not None and _names_existing(code(bound.value)):
                return True
        facts = self.facts(site.owner)
        return (
            facts.lookups.get(text, 0) > 0
            or facts.constructions.get(text, 0) > 1
            or text in facts.symbols
        )

    def _added_to(self, site: _Site, line: int) -> cst.BaseExpression | None:
        """Return the module the new global is registered in (`mod[gv] = f`), if usable."""
        parent = self.tools.parent_of(site.call)
        target_name = None
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            target = parent.targets[0].target
            target_name = target.value if isinstance(target, cst.Name) else None
        for module in self.facts(site.owner).modules_for(site.call, target_name):
            usable = self._usability(site, module, line)
            if usable == "yes":
                return module
            if usable == "late" and not site.late:
                site.late = self.code(module)
        return None

    def _usability(self, site: _Site, module: cst.BaseExpression, line: int) -> str:
        """Return "yes" when `module` can build the supply at the site, "late" when it is
        an IRModule bound only after the site, else "no"."""
        root = scope.root_name(module)
        if not root:
            return "no"
        bound_here = self.bindings(site.owner).named(root)
        before = self.bindings(site.owner).at(root, line)
        if bound_here and before is None:
            is_module = self._binds(bound_here[0], "IRModule") or scope.looks_like_module(module)
            return "late" if is_module else "no"
        if isinstance(module, cst.Name) and before and self._binds(before, "IRModule"):
            return "yes"
        return "yes" if scope.looks_like_module(module) else "no"

    def _share_supply(self, members: list[_Site]) -> None:
        """Give the sites of one function that use one module a single supply variable."""
        if len(members) == 1 and not self.unique_names:
            members[0].inline = True
            return
        first = members[0]
        module = first.module
        assert module is not None
        owner = first.owner
        outer: cst.CSTNode = scope.block_of(owner)
        root = scope.root_name(module)
        line = self.tools.span_of(first.call).start_line
        binding = self.bindings(owner).at(root, line)
        if binding is not None and binding.statement is not None:
            outer = self.tools.parent_of(binding.statement) or outer
        inside = [
            m
            for m in members
            if not m.inline and scope.block_child(self.tools, outer, m.call) is not None
        ]
        held = {id(m) for m in inside}
        self._inline_or_fail([m for m in members if id(m) not in held])
        if not inside:
            return
        block = scope.common_block(self.tools, outer, [m.call for m in inside])
        anchor = scope.block_child(self.tools, block, inside[0].call)
        assert anchor is not None, "the common block holds every site"
        if binding is not None and binding.end_line >= self.tools.span_of(anchor).start_line:
            self._inline_or_fail(inside)
            return
        taken = self._taken.get(id(owner))
        if taken is None:
            known = self._names.get(id(owner))
            taken = set(known) if known is not None else scope.names_in(owner)
            self._taken[id(owner)] = taken
        name = free_name(taken, "global_names" if self.unique_names else "global_var_supply")
        taken.add(name)
        edit = self._declaration(anchor, name, self.code(module), taken)
        for member in inside:
            member.supply = name
            member.edits.append(edit)

    def _inline_or_fail(self, members: list[_Site]) -> None:
        for member in members:
            if self.unique_names:
                member.reason = "no place before the sites where the module is in scope"
            else:
                member.inline = True

    def _declaration(self, anchor: cst.CSTNode, name: str, module: str, taken: set[str]) -> Edit:
        indent = scope.indent_of(self.tools, anchor)
        line = scope.insertion_line(self.tools, anchor)
        if not self.unique_names:
            text = f"{indent}{name} = GlobalVarSupply({module})\n"
        else:
            loop = free_name(taken, "_gvar")
            taken.add(loop)
            inner = indent + self.tools.module.default_indent
            text = (
                f"{indent}{name} = UniqueNameSupply()\n"
                f"{indent}for {loop} in {module}.get_global_vars():\n"
                f"{inner}{name}.reserve_name({loop}.name_hint, False)\n"
            )
        return Edit(Span(line, 0, line, 0), text, "")

    def _outcome(self, site: _Site, imports: Edit | None) -> Outcome:
        if site.reason is not None and site.suggest_new and not self.unique_names:
            # Shown, never applied: a new supply knows no other function's name, so the
            # caller's supply (or the module's) has to be passed in for real.
            shown = self._rewritten(site, "GlobalVarSupply()", imports, builds=True)
            title = f"{shown.title}: a new supply; pass the module's supply in instead"
            fix = Fix(title, Applicability.DISPLAY, shown.edits)
            return Outcome(fix, site.reason, site.blocker)
        if site.reason is not None:
            return Outcome(None, site.reason or None, unseen=site.reason == "")
        code = self.code
        builds = site.supply is None
        supply = site.supply or f"{self.supply_type}({code(site.module) if site.module else ''})"
        if builds and self.unique_names:
            return Outcome(None, "a UniqueNameSupply cannot be built inline")
        fix = self._rewritten(site, supply, imports, builds)
        if site.note is not None:
            return Outcome(Fix(f"{fix.title} ({site.note})", Applicability.DISPLAY, fix.edits))
        return Outcome(fix)

    def _rewritten(self, site: _Site, supply: str, imports: Edit | None, builds: bool) -> Fix:
        """Return the unsafe fix naming the site's global with `supply`."""
        code = self.code
        value = site.call.args[0].value
        value_span = self.tools.span_of(value)
        edits = list(site.edits)
        if self.unique_names:
            method = "reserve_name" if site.method == "unique" else "fresh_name"
            edits += [
                Edit(_start_of(value_span), f"{supply}.{method}(", ""),
                Edit(_end_of(value_span), ", False)", ""),
            ]
            title = f"Name it with {supply}.{method}(..., False)"
        else:
            method = "unique_global_for" if site.method == "unique" else "fresh_global"
            edits += [
                Edit(
                    self.tools.span_of(site.call.func), f"{supply}.{method}", code(site.call.func)
                ),
                Edit(_end_of(value_span), ", False", ""),
            ]
            title = f"Use {supply}.{method}(..., False)"
        if imports is not None and (builds or site.edits):
            edits.append(imports)
        return Fix(title, Applicability.UNSAFE, tuple(edits))


def _names_existing(text: str) -> bool:
    """Tell whether an expression is an existing function's name: its global_symbol or a
    global's name_hint, not something derived from them (`gv.name_hint + "_grad"`)."""
    if any(op in text for op in ("+", "%", "format(", "join(")) or text.startswith(("f'", 'f"')):
        return False
    return "global_symbol" in text or _NAME_HINT.match(text.replace(" ", "")) is not None


def _start_of(span: Span) -> Span:
    return Span(span.start_line, span.start_col, span.start_line, span.start_col)


def _end_of(span: Span) -> Span:
    return Span(span.end_line, span.end_col, span.end_line, span.end_col)


class OwnerFacts:
    """What a function does with globals: where it registers them (`M[gv] = f`,
    `M.update_func(gv, f)`) and which names it looks up or constructs."""

    def __init__(self, code: Callable[[cst.CSTNode], str]) -> None:
        self.code = code
        # (the registered call itself, or the name of the variable holding it) → modules
        self.registered: dict[object, list[cst.BaseExpression]] = {}
        self.lookups: dict[str, int] = {}
        self.constructions: dict[str, int] = {}
        # Names also given as a function's global_symbol (`f.with_attr("global_symbol", n)`):
        # the global must keep exactly that name, so it is not a fresh one.
        self.symbols: set[str] = set()

    def _register(self, node: cst.BaseExpression, module: cst.BaseExpression) -> None:
        key: object = node.value if isinstance(node, cst.Name) else id(node)
        self.registered.setdefault(key, []).append(module)

    def modules_for(self, call: cst.Call, target: str | None) -> list[cst.BaseExpression]:
        found = list(self.registered.get(id(call), []))
        return found + (list(self.registered.get(target, [])) if target else [])

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            sub = target.target
            if isinstance(sub, cst.Subscript) and len(sub.slice) == 1:
                index = sub.slice[0].slice
                if isinstance(index, cst.Index):
                    self._register(index.value, sub.value)

    def visit_Call(self, node: cst.Call) -> None:
        if not node.args:
            return
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else ""
        if isinstance(func, cst.Name):
            name = func.value
        if name == "with_attr" and len(node.args) == 2:
            key = node.args[0].value
            if isinstance(key, cst.SimpleString) and key.evaluated_value == "global_symbol":
                self.symbols.add(self.code(node.args[1].value))
        if isinstance(func, cst.Attribute) and name in _REGISTER_METHODS:
            self._register(node.args[0].value, func.value)
        elif name in _LOOKUPS or name == "GlobalVar":
            counts = self.lookups if name in _LOOKUPS else self.constructions
            text = self.code(node.args[0].value)
            counts[text] = counts.get(text, 0) + 1
