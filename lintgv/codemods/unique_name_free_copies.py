"""GV2xx in C++: a free copy of GetUniqueName that takes its name → counter map from each
caller becomes a NameSupply in each caller, as TVM's #12066 did by hand for
`relay::tec::GetUniqueName(name, &name_map)`.

One change across every file involved:

* each map a caller hands the copy — a local of the calling function, or a member of its
  class — makes way, where it was declared, for `NameSupply name_supply = NameSupply("");`
  (`name_supply_` for a member);
* each call becomes `name_supply->FreshName(x)`, or `ReserveName(x)` where the result is
  thrown away;
* `map[x] = 1;`, the copy's own mark of a taken name (the next one is `x_1`), becomes
  `name_supply->ReserveName(x, false);`; `map.count(x)` becomes `ContainsName(x)`
  and `map.clear()` a new supply;
* the copy's definition and its declarations go, with their doc comments;
* `#include <tvm/ir/name_supply.h>` is added where a map was declared.

A call is the copy's when ordinary lookup from where it is written, through the
namespaces around it, reaches the copy's namespace before any other function of that
name, and no class around it has a method of that name; a call that could be the copy's
but reaches no function lintgv can see, a use of the copy other than a call (taken by
address, in a macro), or a map a supply cannot replace (see
codemods.unique_name_caller_maps) stops the change, and the copy is reported with the
reason. As for a class's copy, nothing tells without
running it whether the copy names as NameSupply does: the change is unsafe unless
`lintgv fix --prove-names` proves it.
"""

import tree_sitter

from lintgv.codemods import cpp_edits, cpp_scope
from lintgv.codemods.cpp_lookup import (
    Namespace,
    candidates,
    declares_method,
    macro_mentions,
    namespace_of,
    qualifier,
)
from lintgv.codemods.unique_name_caller_maps import CallerMaps
from lintgv.codemods.unique_name_copies import FreeCopy, Project, Unit, class_of_code
from lintgv.codemods.unique_name_edits import Edits, nodes_of, where
from lintgv.codemods.unique_name_shapes import MAP_TYPE, NotRewritable
from lintgv.parsing.cpp_nodes import listed, parameters, within
from lintgv.records import frozen


@frozen
class _Function:
    """A function of the copy's name and arity at namespace level, declared or defined."""

    namespace: Namespace
    ours: bool


class FreeRewrite:
    def __init__(self, project: Project, copy: FreeCopy, kind: str, header: str) -> None:
        self.project = project
        self.copy = copy
        self.edits = Edits()
        self.maps = CallerMaps(project, kind, header, self.edits, self._inside_copy)
        self.namespace = namespace_of(copy.unit.parsed, copy.definition)

    def plan(self) -> tuple[Edits, int]:
        """Return the change's edits and the number of calls rewritten."""
        copy = self.copy
        units = self.project.users(copy.name)
        functions = self._functions(units)
        sites = 0
        for unit in units:
            macro = macro_mentions(unit.parsed, copy.name)
            if macro is not None:
                raise NotRewritable(f"`{copy.name}` is named in a macro at {where(unit, macro)}")
            for node in nodes_of(unit.parsed.root, "identifier"):
                if unit.parsed.text(node) == copy.name and not self._inside_copy(unit, node):
                    sites += self._use(unit, node, functions)
        self.maps.replace_all(1 - copy.map_index)
        self.edits.add(copy.unit, cpp_edits.delete(copy.unit.parsed, copy.definition))
        return self.edits, sites

    def _inside_copy(self, unit: Unit, node: tree_sitter.Node) -> bool:
        return unit.path == self.copy.unit.path and within(self.copy.definition, node)

    def _functions(self, units: list[Unit]) -> list[_Function]:
        """Return every namespace-level function of the copy's name taking two
        parameters that the files declare or define, the copy's own first."""
        found = [_Function(self.namespace, True)]
        for unit in units:
            for node in nodes_of(unit.parsed.root, "function_declarator"):
                inner = node.child_by_field_name("declarator")
                holder = unit.parsed.parent(node)
                if (
                    inner is None
                    or cpp_scope.normalized(unit.parsed.text(inner)).rsplit("::", 1)[-1]
                    != self.copy.name
                    or holder is None
                    or holder.type not in ("declaration", "function_definition")
                    or len(parameters(node)) != 2
                    or class_of_code(unit.parsed, node) is not None
                ):
                    continue
                where_ = namespace_of(unit.parsed, node)
                _, qualified = qualifier(unit.parsed, inner)
                found.append(_Function(where_ + qualified, False))
        return found

    def _use(self, unit: Unit, node: tree_sitter.Node, functions: list[_Function]) -> int:
        """Plan the edit of one use of the copy's name; return 1 for a call rewritten."""
        parsed = unit.parsed
        callee = node
        parent = parsed.parent(node)
        while parent is not None and parent.type == "qualified_identifier":  # tec::F
            callee, parent = parent, parsed.parent(parent)
        if parent is not None and parent.type == "function_declarator":
            declaration = parsed.parent(parent)
            if (
                declaration is not None
                and declaration.type == "declaration"
                and self._is_prototype(unit, declaration, parent)
            ):
                self.edits.add(unit, cpp_edits.delete(parsed, declaration))
            return 0  # a definition or declaration of a function of that name
        if parent is None or parent.type != "call_expression":
            if parent is not None and parent.type in ("field_declaration", "declaration"):
                return 0  # a method's declaration without parameters listed (a macro's)
            raise NotRewritable(
                f"`{self.copy.name}` is used at {where(unit, node)} other than in a call"
            )
        args = listed(parent.child_by_field_name("arguments"))
        if len(args) != 2 or not self._calls_copy(unit, parent, callee, functions):
            return 0  # another function of that name
        self.maps.of_argument(unit, parent, args[self.copy.map_index], self.copy.by_pointer)
        return 1

    def _calls_copy(
        self,
        unit: Unit,
        call: tree_sitter.Node,
        callee: tree_sitter.Node,
        functions: list[_Function],
    ) -> bool:
        """Tell whether a two-argument call names the copy (see the module docstring)."""
        parsed = unit.parsed
        absolute, qualified = qualifier(parsed, callee)
        owner = class_of_code(parsed, call)
        if not qualified and not absolute and owner is not None:
            classes = self.project.classes(owner)
            if any(declares_method(u.parsed, cls, self.copy.name) for u, cls in classes):
                return False  # the class's own method hides any function outside it
        for namespace in candidates(namespace_of(parsed, call), absolute, qualified):
            reached = [f for f in functions if f.namespace == namespace]
            if reached:
                return any(f.ours for f in reached)
        if self._names_a_class(qualified):
            return False  # `Util::GetUniqueName(...)`: a class's static method
        raise NotRewritable(
            f"cannot tell which `{self.copy.name}` the call at {where(unit, call)} calls"
        )

    def _names_a_class(self, qualified: Namespace) -> bool:
        return bool(qualified) and bool(self.project.classes(qualified[-1]))

    def _is_prototype(
        self, unit: Unit, declaration: tree_sitter.Node, declarator: tree_sitter.Node
    ) -> bool:
        """Tell whether a declaration outside any class declares the copy itself."""
        taken = parameters(declarator)
        if class_of_code(unit.parsed, declaration) is not None or len(taken) != 2:
            return False
        inner = declarator.child_by_field_name("declarator")
        _, qualified = qualifier(unit.parsed, inner) if inner is not None else (False, ())
        if namespace_of(unit.parsed, declaration) + qualified != self.namespace:
            return False
        kind = taken[self.copy.map_index].child_by_field_name("type")
        text = cpp_scope.normalized(unit.parsed.text(kind)) if kind is not None else ""
        return bool(MAP_TYPE.match(text.removeprefix("const")))
