"""The maps callers hand a free unique-name copy (codemods.unique_name_free_copies):
where each is declared, whether a supply can take its place, and every use of it.

A map can give way to a supply only when the supply would hold what it held, be shared
as it was, and be seen where it was seen: a map declared alone, empty, by value (not a
reference to one kept elsewhere), not static, and not captured by value by a lambda. Its
uses must all be calls of the copy or the copy's own operations (`map[x] = 1;`,
`map.count(x)`, `map.clear()`); a use in a macro, through another object, or in a
derived class that declares a map of the same name stops the change.
"""

import re
from collections.abc import Callable, Iterable
from dataclasses import field
from pathlib import Path

import tree_sitter

from lintgv.codemods import cpp_edits, cpp_scope
from lintgv.codemods.cpp_lookup import accessed, macro_mentions, tvm_name
from lintgv.codemods.includes import include_edit
from lintgv.codemods.unique_name_copies import Project, Unit, class_of_code, fields
from lintgv.codemods.unique_name_edits import Edits, map_call_edit, nodes_of, where
from lintgv.codemods.unique_name_shapes import MAP_TYPE, NotRewritable
from lintgv.lines import split_lines
from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cpp_nodes import listed, within
from lintgv.records import mutable

_EMPTY = frozenset({"", "{}", "={}"})


@mutable
class CallerMap:
    """A map callers hand the copy, and the supply that takes its place."""

    unit: Unit
    declaration: tree_sitter.Node
    name: str
    member: bool
    scope: tree_sitter.Node  # the function (a local) or the class (a member)
    owner: str = ""  # the class of a member
    supply: str = ""
    calls: set[tuple[Path, int]] = field(default_factory=set)  # (file, byte) of each call


class CallerMaps:
    def __init__(
        self,
        project: Project,
        kind: str,
        header: str,
        edits: Edits,
        inside_copy: Callable[[Unit, tree_sitter.Node], bool],
    ) -> None:
        self.project = project
        self.kind = kind
        self.header = header
        self.edits = edits
        self.inside_copy = inside_copy
        self.maps: dict[tuple[Path, int], CallerMap] = {}
        self._given: dict[tuple[Path, int], set[str]] = {}  # supply names, by scope
        self._included: set[Path] = set()

    def of_argument(
        self, unit: Unit, call: tree_sitter.Node, argument: tree_sitter.Node, by_pointer: bool
    ) -> CallerMap:
        """Return the map a call hands the copy (`&name_map`, `&this->name_map_`)."""
        parsed = unit.parsed
        target = argument
        if by_pointer:
            operator = argument.child_by_field_name("operator")
            if argument.type != "pointer_expression" or operator is None or operator.type != "&":
                raise NotRewritable(
                    f"the call at {where(unit, call)} hands on a map it did not declare "
                    f"(`{parsed.text(argument)}`)"
                )
            target = argument.child_by_field_name("argument") or argument
        name = cpp_scope.normalized(parsed.text(target))
        this = target.type == "field_expression" and name.startswith("this->")
        if not this and target.type != "identifier":
            raise NotRewritable(
                f"the call at {where(unit, call)} hands it `{parsed.text(argument)}`, not a "
                "map of its own"
            )
        binding = None if this else cpp_scope.scope_at(parsed, call).find(name)
        if binding is not None and binding.kind == cpp_scope.Kind.PARAMETER:
            raise NotRewritable(
                f"the call at {where(unit, call)} hands on the map `{name}` its caller gave"
            )
        if binding is not None and binding.kind == cpp_scope.Kind.LOCAL:
            found = self._local(unit, call, name, binding)
        else:
            found = self._member(unit, call, name.removeprefix("this->"))
        found.calls.add((unit.path, call.start_byte))
        return found

    def _local(
        self, unit: Unit, call: tree_sitter.Node, name: str, binding: cpp_scope.Binding
    ) -> CallerMap:
        """Return the local map `name` a call hands over: the declaration its binding
        comes from, in the function around the call or, through lambdas that capture it
        by reference, outside."""
        parsed = unit.parsed
        declaration = next(
            (
                d
                for d in nodes_of(parsed.root, "declaration")
                if any(
                    b.name == name and b.start == binding.start
                    for b in cpp_scope.declared(parsed, d, cpp_scope.Kind.LOCAL)
                )
            ),
            None,
        )
        home = parsed.enclosing(declaration, cpp_scope.FUNCTIONS) if declaration else None
        if declaration is None or home is None:
            raise NotRewritable(f"cannot find where the map `{name}` of {where(unit, call)} is")
        for function in parsed.ancestors(call):
            if function == home:
                break
            if function.type == "lambda_expression" and not _by_reference(parsed, function, name):
                raise NotRewritable(
                    f"the map `{name}` is captured by value at {where(unit, function)}; a "
                    "supply in its place would be shared, not copied"
                )
        return self._known(unit, declaration, name, member=False, scope=home)

    def _member(self, unit: Unit, call: tree_sitter.Node, name: str) -> CallerMap:
        owner = class_of_code(unit.parsed, call)
        classes = self.project.classes(owner) if owner is not None else []
        if owner is None or len(classes) != 1:
            raise NotRewritable(f"cannot tell what `{name}` at {where(unit, call)} is")
        class_unit, cls = classes[0]
        member = _field(class_unit.parsed, cls, name)
        if member is None:
            raise NotRewritable(f"`{name}` at {where(unit, call)} is not a member of `{owner}`")
        return self._known(class_unit, member, name, member=True, scope=cls, owner=owner)

    def _known(
        self,
        unit: Unit,
        declaration: tree_sitter.Node,
        name: str,
        *,
        member: bool,
        scope: tree_sitter.Node,
        owner: str = "",
    ) -> CallerMap:
        key = (unit.path, declaration.start_byte)
        if key not in self.maps:
            _check_declaration(unit, declaration, name)
            found = CallerMap(unit, declaration, name, member, scope, owner)
            found.supply = self._supply_name(found)
            self.maps[key] = found
        return self.maps[key]

    def _supply_name(self, found: CallerMap) -> str:
        """Return a name for the supply that nothing in its reach uses yet, nor another
        supply given in the same place."""
        parsed = found.unit.parsed
        given = self._given.setdefault((found.unit.path, found.scope.start_byte), set())
        stem = found.name.strip("_")
        tail = "_" if found.member else ""
        for candidate in (f"name_supply{tail}", f"{stem}_supply{tail}"):
            taken = candidate in given or candidate in cpp_scope.identifiers(parsed, found.scope)
            if found.member:
                # Base classes and out-of-line methods are beyond the class body.
                word = re.compile(rf"\b{re.escape(found.owner)}\b")
                taken = taken or any(
                    word.search(self.project.text(p) or "")
                    for p in self.project.mentioning(candidate)
                )
            if not taken:
                given.add(candidate)
                return candidate
        raise NotRewritable(f"no free name for the supply of the map `{found.name}`")

    def replace_all(self, name_index: int) -> None:
        """Put each supply where its map was and rewrite every use of the map; the name
        is the `name_index`th argument of a call of the copy."""
        for found in self.maps.values():
            unit = found.unit
            mutable = "mutable " if _is_mutable(unit.parsed, found.declaration) else ""
            kind = tvm_name(unit.parsed, found.declaration, self.kind)
            new = f'{mutable}{kind} {found.supply} = {kind}("");'
            self.edits.add(unit, cpp_edits.replace(unit.parsed, found.declaration, new))
            if unit.path not in self._included:
                self._included.add(unit.path)
                include = include_edit(unit.parsed, self.header)
                if include is not None:
                    self.edits.add(unit, include)
            for use_unit, node in self._uses(found):
                self._rewrite_use(use_unit, node, found, name_index)

    def _rewrite_use(
        self, unit: Unit, node: tree_sitter.Node, found: CallerMap, name_index: int
    ) -> None:
        parsed = unit.parsed
        call = _call_handing(node)
        if call is not None and (unit.path, call.start_byte) in found.calls:
            name = parsed.text(listed(call.child_by_field_name("arguments"))[name_index])
            statement = call.parent is not None and call.parent.type == "expression_statement"
            method = "ReserveName" if statement else "FreshName"
            self.edits.add(unit, parsed.replace(call, f"{found.supply}->{method}({name})"))
        elif not self._map_use(unit, node, found):
            line = split_lines(parsed.text(node.parent or node))[0].strip()
            raise NotRewritable(
                f"the map `{found.name}` is also used at {where(unit, node)} "
                f"(`{line}`); replace it by hand"
            )

    def _uses(self, found: CallerMap) -> Iterable[tuple[Unit, tree_sitter.Node]]:
        """Yield every use of the map's name where it means the map."""
        units = [found.unit] if not found.member else self.project.users(found.name)
        for unit in units:
            macro = macro_mentions(unit.parsed, found.name)
            if macro is not None:
                raise NotRewritable(
                    f"the map `{found.name}` is named in a macro at {where(unit, macro)}"
                )
        if not found.member:
            yield from self._local_uses(found)
            return
        for unit in units:
            for node in nodes_of(unit.parsed.root, "identifier", "field_identifier"):
                if unit.parsed.text(node) == found.name and self._is_member_use(unit, node, found):
                    yield unit, node

    def _local_uses(self, found: CallerMap) -> Iterable[tuple[Unit, tree_sitter.Node]]:
        parsed = found.unit.parsed
        declared = found.declaration
        for node in nodes_of(found.scope, "identifier"):
            if parsed.text(node) != found.name or within(declared, node) or _declares(node):
                continue
            binding = cpp_scope.scope_at(parsed, node).find(found.name)
            if binding is not None and declared.start_byte < binding.start <= declared.end_byte:
                yield found.unit, node

    def _is_member_use(self, unit: Unit, node: tree_sitter.Node, found: CallerMap) -> bool:
        """Tell whether `node`, naming the member map, is a use of it: in its class's
        body, or in a method of the class or of one derived from it that declares no
        member of that name itself."""
        if self.inside_copy(unit, node):
            return False
        in_class = unit.path == found.unit.path and within(found.scope, node)
        if in_class and within(found.declaration, node):
            return False
        parent = node.parent
        through = parent is not None and parent.type == "field_expression"
        receiver = parent.child_by_field_name("argument") if parent and through else None
        field_ = parent.child_by_field_name("field") if parent and through else None
        if receiver is not None and field_ == node and unit.parsed.text(receiver) != "this":
            raise NotRewritable(
                f"the map `{found.name}` is used through another object at "
                f"{where(unit, node)}; replace it by hand"
            )
        if in_class:
            return True
        owner = class_of_code(unit.parsed, node)
        if owner is None or not self.project.derives(owner, found.owner):
            return False
        return owner == found.owner or not any(
            _field(u.parsed, cls, found.name) is not None for u, cls in self.project.classes(owner)
        )

    def _map_use(self, unit: Unit, node: tree_sitter.Node, found: CallerMap) -> bool:
        """Rewrite `map[x] = 1;`, `map.count(x)` or `map.clear()`; False for any other use."""
        parsed = unit.parsed
        target, parent = accessed(node)  # map, this->map
        if parent is None:
            return False
        if parent.type == "subscript_expression":
            return parent.child_by_field_name("argument") == target and self._mark(
                parsed, unit, parent, found
            )
        kind = tvm_name(parsed, node, self.kind)
        edit = map_call_edit(parsed, target, found.supply, kind)
        if edit is not None:
            self.edits.add(unit, edit)
        return edit is not None

    def _mark(
        self, parsed: ParsedCpp, unit: Unit, subscript: tree_sitter.Node, found: CallerMap
    ) -> bool:
        """Rewrite `map[x] = 1;`, the copy's own mark of a taken name (the next one asked
        for is `x_1`), as ReserveName, which marks it the same way."""
        assignment = subscript.parent
        index = subscript.child_by_field_name("indices")
        if (
            assignment is None
            or assignment.type != "assignment_expression"
            or assignment.child_by_field_name("left") != subscript
            or index is None
            or assignment.parent is None
            or assignment.parent.type != "expression_statement"
        ):
            return False
        operator = assignment.child_by_field_name("operator")
        value = assignment.child_by_field_name("right")
        if operator is None or parsed.text(operator) != "=" or value is None:
            return False
        if parsed.text(value) != "1":
            return False
        key = parsed.text(index).strip()[1:-1].strip()
        new = f"{found.supply}->ReserveName({key}, false)"
        self.edits.add(unit, parsed.replace(assignment, new))
        return True


def _check_declaration(unit: Unit, declaration: tree_sitter.Node, name: str) -> None:
    """Stop at a map a supply cannot take the place of (see the module docstring)."""
    parsed = unit.parsed
    kind = declaration.child_by_field_name("type")
    text = cpp_scope.normalized(parsed.text(kind)) if kind is not None else ""
    declarators = declaration.children_by_field_name("declarator")
    at = f"`{name}` at {where(unit, declaration)}"
    if not MAP_TYPE.match(text) or len(declarators) != 1:
        raise NotRewritable(f"the map {at} is not declared alone as a name → counter map")
    if any(c.type == "storage_class_specifier" for c in declaration.children):
        raise NotRewritable(
            f"the map {at} is static, shared by every caller; a supply in its place would not be"
        )
    declarator = declarators[0]
    inner = declarator
    if declarator.type == "init_declarator":
        inner = declarator.child_by_field_name("declarator") or declarator
    if inner.type in ("reference_declarator", "pointer_declarator"):
        raise NotRewritable(f"the map {at} refers to a map kept elsewhere")
    value = declarator.child_by_field_name("value") or declaration.child_by_field_name(
        "default_value"
    )
    if value is not None and cpp_scope.normalized(parsed.text(value)) not in _EMPTY:
        raise NotRewritable(f"the map {at} starts with entries, which a new supply would not")


def _by_reference(parsed: ParsedCpp, lam: tree_sitter.Node, name: str) -> bool:
    """Tell whether lambda `lam` captures `name` by reference (`[&]`, `[&name]`)."""
    captures = lam.child_by_field_name("captures")
    for capture in captures.named_children if captures is not None else []:
        text = cpp_scope.normalized(parsed.text(capture))
        if text in ("&", f"&{name}"):
            return True
    return False


def _field(parsed: ParsedCpp, cls: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    for member in fields(parsed, cls):
        if any(b.name == name for b in cpp_scope.declared(parsed, member, cpp_scope.Kind.MEMBER)):
            return member
    return None


def _is_mutable(parsed: ParsedCpp, declaration: tree_sitter.Node) -> bool:
    return any(
        c.type == "type_qualifier" and parsed.text(c) == "mutable" for c in declaration.children
    )


def _call_handing(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """Return the call that `node`, a use of a map, is an argument of."""
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


def _declares(node: tree_sitter.Node) -> bool:
    """Tell whether `node` is the name a declaration introduces (another variable of the
    same name, declared in an inner scope)."""
    parent = node.parent
    if parent is not None and parent.type == "init_declarator":
        return parent.child_by_field_name("declarator") == node
    return (
        parent is not None
        and parent.type == "declaration"
        and node in parent.children_by_field_name("declarator")
    )
