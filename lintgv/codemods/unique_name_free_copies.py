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

Any other use of a map or of the copy (taken by address, called with a map the caller
was itself handed), or a map declared together with other variables, stops the change,
and the copy is reported with the reason. As for a class's copy, nothing tells without
running it whether the copy names as NameSupply does: the change is unsafe unless
`lintgv fix --prove-names` proves it.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import tree_sitter

from lintgv.codemods import cpp_edits, cpp_scope
from lintgv.codemods.includes import include_edit
from lintgv.codemods.unique_name_copies import (
    MAP_TYPE,
    Edits,
    FreeCopy,
    NotRewritable,
    Project,
    Unit,
    accessed,
    class_of_code,
    fields,
    map_call_edit,
    nodes_of,
    where,
)
from lintgv.lines import split_lines
from lintgv.parsing.cpp_nodes import function_declarator


@dataclass
class _Map:
    """A map callers hand the copy, and the supply that takes its place."""

    unit: Unit
    declaration: tree_sitter.Node
    name: str
    member: bool
    scope: tree_sitter.Node  # the function (a local) or the class (a member)
    owner: str = ""  # the class of a member
    supply: str = ""
    calls: list[tuple[Unit, tree_sitter.Node]] = field(default_factory=list)


class FreeRewrite:
    def __init__(self, project: Project, copy: FreeCopy, kind: str, header: str) -> None:
        self.project = project
        self.copy = copy
        self.kind = kind
        self.header = header
        self.edits = Edits()
        self.maps: dict[tuple[Path, int], _Map] = {}

    def plan(self) -> tuple[Edits, int]:
        """Return the change's edits and the number of calls rewritten."""
        copy = self.copy
        sites = 0
        for unit in self.project.units(copy.name):
            for node in nodes_of(unit.parsed.root, "identifier"):
                if unit.parsed.text(node) != copy.name or self._inside_copy(unit, node):
                    continue
                sites += self._use(unit, node)
        for found in self.maps.values():
            self._replace_map(found)
        self.edits.add(copy.unit, cpp_edits.delete(copy.unit.parsed, copy.definition))
        return self.edits, sites

    def _inside_copy(self, unit: Unit, node: tree_sitter.Node) -> bool:
        definition = self.copy.definition
        return (
            unit.path == self.copy.unit.path
            and definition.start_byte <= node.start_byte < definition.end_byte
        )

    def _use(self, unit: Unit, node: tree_sitter.Node) -> int:
        """Plan the edit of one use of the copy's name; return 1 for a call rewritten."""
        parsed = unit.parsed
        parent = parsed.parent(node)
        while parent is not None and parent.type == "qualified_identifier":  # tec::F
            parent = parsed.parent(parent)
        if parent is not None and parent.type == "function_declarator":
            declaration = parsed.parent(parent)
            if declaration is not None and declaration.type == "function_definition":
                return 0  # another function of that name (a class's own copy)
            if declaration is not None and self._is_prototype(unit, declaration):
                self.edits.add(unit, cpp_edits.delete(parsed, declaration))
            return 0
        if parent is None or parent.type != "call_expression":
            raise NotRewritable(
                f"`{self.copy.name}` is used at {where(unit, node)} other than in a call"
            )
        arguments = parent.child_by_field_name("arguments")
        args = [a for a in arguments.named_children if a.type != "comment"] if arguments else []
        if len(args) != 2:
            return 0  # another function of that name, with its own parameters
        found = self._map_of(unit, parent, args[self.copy.map_index])
        found.calls.append((unit, parent))
        return 1

    def _is_prototype(self, unit: Unit, declaration: tree_sitter.Node) -> bool:
        """Tell whether a declaration outside any class declares the copy itself."""
        if declaration.type != "declaration":
            return False
        declarator = function_declarator(declaration)
        params = declarator.child_by_field_name("parameters") if declarator else None
        listed = [p for p in params.named_children if p.type != "comment"] if params else []
        if len(listed) != 2:
            return False
        kind = listed[self.copy.map_index].child_by_field_name("type")
        text = cpp_scope.normalized(unit.parsed.text(kind)) if kind is not None else ""
        return bool(MAP_TYPE.match(text.removeprefix("const")))

    def _map_of(self, unit: Unit, call: tree_sitter.Node, argument: tree_sitter.Node) -> _Map:
        """Return the map a call hands the copy: a local or a member of the caller."""
        parsed = unit.parsed
        target = argument
        if self.copy.by_pointer:
            operator = argument.child_by_field_name("operator")
            if argument.type != "pointer_expression" or operator is None or operator.type != "&":
                raise NotRewritable(
                    f"the call at {where(unit, call)} hands on a map it did not declare "
                    f"(`{parsed.text(argument)}`)"
                )
            target = argument.child_by_field_name("argument") or argument
        name = parsed.text(target)
        if target.type == "field_expression" and name.replace(" ", "").startswith("this->"):
            name = name.replace(" ", "").removeprefix("this->")
        elif target.type != "identifier":
            raise NotRewritable(
                f"the call at {where(unit, call)} hands it `{parsed.text(argument)}`, not a "
                "map of its own"
            )
        scope = cpp_scope.scope_at(parsed, call)
        binding = scope.find(name) if target.type == "identifier" else None
        if binding is not None and binding.kind == cpp_scope.Kind.LOCAL:
            return self._local(unit, call, scope, name)
        if binding is not None and binding.kind == cpp_scope.Kind.PARAMETER:
            raise NotRewritable(
                f"the call at {where(unit, call)} hands on the map `{name}` its caller gave"
            )
        return self._member(unit, call, name)

    def _local(self, unit: Unit, call: tree_sitter.Node, scope: cpp_scope.Scope, name: str) -> _Map:
        parsed = unit.parsed
        body = scope.body
        assert body is not None, "a local is declared in a function"
        block = cpp_scope.declaring_block(parsed, body, name)
        declaration = next(
            (
                c
                for c in (block.named_children if block is not None else [])
                if c.type == "declaration"
                and c.start_byte < call.start_byte
                and any(b.name == name for b in cpp_scope.declared(parsed, c, cpp_scope.Kind.LOCAL))
            ),
            None,
        )
        if declaration is None:
            raise NotRewritable(
                f"cannot find where the map `{name}` of {where(unit, call)} is declared"
            )
        assert scope.function is not None, "a local is declared in a function"
        return self._known(unit, declaration, name, member=False, scope=scope.function)

    def _member(self, unit: Unit, call: tree_sitter.Node, name: str) -> _Map:
        owner = class_of_code(unit.parsed, call)
        classes = self.project.classes(owner) if owner is not None else []
        if len(classes) != 1:
            raise NotRewritable(f"cannot tell what `{name}` at {where(unit, call)} is")
        class_unit, cls = classes[0]
        for member in fields(class_unit.parsed, cls):
            if any(
                b.name == name
                for b in cpp_scope.declared(class_unit.parsed, member, cpp_scope.Kind.MEMBER)
            ):
                return self._known(
                    class_unit, member, name, member=True, scope=cls, owner=owner or ""
                )
        raise NotRewritable(f"`{name}` at {where(unit, call)} is not a member of `{owner}`")

    def _known(
        self,
        unit: Unit,
        declaration: tree_sitter.Node,
        name: str,
        *,
        member: bool,
        scope: tree_sitter.Node,
        owner: str = "",
    ) -> _Map:
        key = (unit.path, declaration.start_byte)
        if key not in self.maps:
            parsed = unit.parsed
            kind = declaration.child_by_field_name("type")
            text = cpp_scope.normalized(parsed.text(kind)) if kind is not None else ""
            if (
                not MAP_TYPE.match(text)
                or len(declaration.children_by_field_name("declarator")) != 1
            ):
                raise NotRewritable(
                    f"the map `{name}` at {where(unit, declaration)} is not declared alone as "
                    "a name → counter map"
                )
            if any(c.type == "storage_class_specifier" for c in declaration.children):
                raise NotRewritable(
                    f"the map `{name}` at {where(unit, declaration)} is static, shared by "
                    "every caller; a supply in its place would not be"
                )
            found = _Map(unit, declaration, name, member, scope, owner)
            taken = cpp_scope.identifiers(parsed, scope)
            base = "name_supply_" if member else "name_supply"
            found.supply = base if base not in taken else f"{name}_supply"
            self.maps[key] = found
        return self.maps[key]

    def _replace_map(self, found: _Map) -> None:
        """Put the supply where the map was, and rewrite every use of the map."""
        unit = found.unit
        declaration = f'{self.kind} {found.supply} = {self.kind}("");'
        self.edits.add(unit, cpp_edits.replace(unit.parsed, found.declaration, declaration))
        include = include_edit(unit.parsed, self.header)
        if include is not None:
            self.edits.add(unit, include)
        calls = {(u.path, c.start_byte): c for u, c in found.calls}
        for use_unit, node in self._uses(found):
            parsed = use_unit.parsed
            call = self._call_handing(use_unit, node)
            if call is not None and (use_unit.path, call.start_byte) in calls:
                arguments = call.child_by_field_name("arguments")
                assert arguments is not None, "a call of the copy has its arguments"
                args = [a for a in arguments.named_children if a.type != "comment"]
                name = parsed.text(args[1 - self.copy.map_index])
                statement = call.parent is not None and call.parent.type == "expression_statement"
                method = "ReserveName" if statement else "FreshName"
                self.edits.add(use_unit, parsed.replace(call, f"{found.supply}->{method}({name})"))
            elif not self._map_use(use_unit, node, found):
                line = split_lines(parsed.text(node.parent or node))[0].strip()
                raise NotRewritable(
                    f"the map `{found.name}` is also used at {where(use_unit, node)} "
                    f"(`{line}`); replace it by hand"
                )

    def _uses(self, found: _Map) -> Iterable[tuple[Unit, tree_sitter.Node]]:
        """Yield every use of the map's name where it means the map."""
        if not found.member:
            for node in nodes_of(found.scope, "identifier"):
                if found.unit.parsed.text(node) != found.name:
                    continue
                binding = cpp_scope.scope_at(found.unit.parsed, node).find(found.name)
                declared = found.declaration
                if binding is not None and declared.start_byte < binding.start <= declared.end_byte:
                    yield found.unit, node
            return
        for unit in self.project.units(found.name):
            for node in nodes_of(unit.parsed.root, "identifier", "field_identifier"):
                if unit.parsed.text(node) != found.name or self._inside_copy(unit, node):
                    continue
                if (
                    unit.path == found.unit.path
                    and found.declaration.start_byte <= node.start_byte < found.declaration.end_byte
                ):
                    continue
                parent = node.parent
                through = (
                    parent is not None
                    and parent.type == "field_expression"
                    and parent.child_by_field_name("field") == node
                )
                receiver = parent.child_by_field_name("argument") if through and parent else None
                if receiver is not None and unit.parsed.text(receiver) != "this":
                    raise NotRewritable(
                        f"the map `{found.name}` is used through another object at "
                        f"{where(unit, node)}; replace it by hand"
                    )
                owner = class_of_code(unit.parsed, node)
                if owner is not None and self.project.derives(owner, found.owner):
                    yield unit, node

    def _call_handing(self, unit: Unit, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """Return the call of the copy that `node`, a use of a map, is an argument of."""
        current = node
        for _ in range(3):  # name, &name or this->name, &this->name; then the list
            parent = current.parent
            if parent is None:
                return None
            if parent.type == "argument_list":
                call = parent.parent
                return call if call is not None and call.type == "call_expression" else None
            current = parent
        return None

    def _map_use(self, unit: Unit, node: tree_sitter.Node, found: _Map) -> bool:
        """Rewrite `map[x] = 1;`, `map.count(x)` or `map.clear()`; False for any other use."""
        parsed = unit.parsed
        target, parent = accessed(node)  # map, this->map
        if parent is None:
            return False
        if (
            parent.type == "subscript_expression"
            and parent.child_by_field_name("argument") == target
        ):
            assignment = parent.parent
            index = parent.child_by_field_name("indices")
            value = assignment.child_by_field_name("right") if assignment is not None else None
            if (
                assignment is not None
                and assignment.type == "assignment_expression"
                and assignment.child_by_field_name("left") == parent
                and parsed.text(assignment.child_by_field_name("operator") or assignment) == "="
                and value is not None
                and parsed.text(value) == "1"
                and index is not None
                and assignment.parent is not None
                and assignment.parent.type == "expression_statement"
            ):
                key = parsed.text(index).strip()[1:-1].strip()
                new = f"{found.supply}->ReserveName({key}, false)"
                self.edits.add(unit, parsed.replace(assignment, new))
                return True
            return False
        edit = map_call_edit(parsed, target, found.supply, self.kind)
        if edit is not None:
            self.edits.add(unit, edit)
        return edit is not None
