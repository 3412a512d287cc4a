"""What a C++ site can see: the variables, parameters and members in scope, by type.

tree-sitter gives syntax only, so types are read from declarations as written
(`IRModule mod`, `const GlobalVarSupply& supply`, `IRModule* device_mod_`) or from an
`auto` initializer that names its type (`auto mod = IRModule(...)`).
"""

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum

import tree_sitter

from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cpp_nodes import LOOPS, function_declarator
from lintgv.records import frozen

_SPACE = re.compile(r"\s+")
FUNCTIONS = frozenset({"function_definition", "lambda_expression"})
CLASSES = frozenset({"class_specifier", "struct_specifier"})
_CONSTRUCTED = re.compile(r"^(?:::)?(?:\w+::)*(\w+)(?:::From\w*)?$")
_CAST = re.compile(r"^(?:::)?(?:\w+::)*(?:GetRef|Downcast)<(?:::)?(?:\w+::)*(\w+)>$")


class Kind(StrEnum):
    PARAMETER = "parameter"
    LOCAL = "local"
    MEMBER = "member"


@frozen
class Binding:
    name: str
    type_name: str  # last component of the type as written, or inferred for `auto`
    pointer: bool
    kind: Kind
    start: int  # byte offset from which the name is visible
    initializer: tree_sitter.Node | None = None


@frozen
class _Filter:
    """Which bindings of an outer layer a lambda lets through: all locals, `this`, or the
    names it captures."""

    every: bool = True
    this: bool = True
    names: frozenset[str] = frozenset()

    def keeps(self, binding: Binding) -> bool:
        if binding.kind == Kind.MEMBER:
            return self.this
        return self.every or binding.name in self.names


@frozen
class _Layer:
    """Bindings visible from one enclosing construct, innermost first: a list of them, or
    the declarations of a block that start before `limit` (looked up through the block's
    index, so that a site costs a lookup, not a walk over every declaration before it)."""

    filter: _Filter
    fixed: tuple[Binding, ...] = ()
    block: "_BlockIndex | None" = None
    limit: int = 0

    def named(self, name: str) -> Iterator[Binding]:
        if self.block is None:
            found: Iterable[Binding] = (b for b in self.fixed if b.name == name)
        else:
            found = self.block.before(self.block.by_name.get(name, ()), self.limit)
        return (b for b in found if self.filter.keeps(b))

    def typed(self, type_name: str) -> Iterator[Binding]:
        if self.block is None:
            found: Iterable[Binding] = (b for b in self.fixed if b.type_name == type_name)
        else:
            found = self.block.before(self.block.by_type.get(type_name, ()), self.limit)
        return (b for b in found if self.filter.keeps(b))


@frozen
class _BlockIndex:
    """The local declarations of one block, by name and by type, in source order."""

    starts: list[int]  # where each declaration statement starts
    by_name: dict[str, list[tuple[int, int, Binding]]]  # (declaration, -declarator, binding)
    by_type: dict[str, list[tuple[int, int, Binding]]]

    @classmethod
    def of(cls, parsed: ParsedCpp, block: tree_sitter.Node) -> "_BlockIndex":
        starts: list[int] = []
        by_name: dict[str, list[tuple[int, int, Binding]]] = {}
        by_type: dict[str, list[tuple[int, int, Binding]]] = {}
        for child in block.named_children:
            if child.type != "declaration":
                continue
            index = len(starts)
            starts.append(child.start_byte)
            for order, binding in enumerate(declared(parsed, child, Kind.LOCAL)):
                entry = (index, -order, binding)
                by_name.setdefault(binding.name, []).append(entry)
                by_type.setdefault(binding.type_name, []).append(entry)
        for entries in (*by_name.values(), *by_type.values()):
            entries.sort(key=lambda e: (e[0], e[1]))
        return cls(starts, by_name, by_type)

    def before(self, entries: Sequence[tuple[int, int, Binding]], limit: int) -> Iterator[Binding]:
        """Yield the bindings of `entries` declared by statements starting before `limit`,
        the latest first (in one statement, the last declarator first)."""
        visible = bisect_left(self.starts, limit)
        cut = bisect_left(entries, visible, key=lambda e: e[0])
        for _, _, binding in reversed(entries[:cut]):
            yield binding


@frozen
class Scope:
    layers: tuple[_Layer, ...]  # innermost first
    function: tree_sitter.Node | None  # innermost function definition or lambda
    body: tree_sitter.Node | None  # its compound statement
    # The members came from, or were looked for in, a class defined elsewhere in the file
    # (`void Lowerer::Lower() {...}`).
    looked_outside: bool = False

    def of_type(self, type_name: str) -> list[Binding]:
        """Return the visible bindings of `type_name`, innermost first, shadowing applied."""
        found = []
        for layer in self.layers:
            for binding in layer.typed(type_name):
                if self.find(binding.name) is binding:
                    found.append(binding)
        return found

    def find(self, name: str) -> Binding | None:
        """Return the innermost visible binding of `name`."""
        for layer in self.layers:
            for binding in layer.named(name):
                return binding
        return None


def normalized(text: str) -> str:
    """Return `text` without whitespace."""
    return _SPACE.sub("", text)


def type_name_of(parsed: ParsedCpp, node: tree_sitter.Node | None) -> str:
    """Return the last component of a type node (`tvm::IRModule` → `IRModule`)."""
    if node is None:
        return ""
    text = normalized(parsed.text(node))
    return text.rsplit("::", 1)[-1] if "<" not in text else text


def inferred_type(parsed: ParsedCpp, value: tree_sitter.Node | None) -> str:
    """Return the type an `auto` initializer names: `IRModule(...)`, `Downcast<IRModule>(x)`."""
    if value is None or value.type != "call_expression":
        return ""
    func = value.child_by_field_name("function")
    if func is None:
        return ""
    text = normalized(parsed.text(func))
    cast = _CAST.match(text)
    if cast is not None:
        return cast.group(1)
    constructed = _CONSTRUCTED.match(text)
    return constructed.group(1) if constructed is not None else ""


def _declarator_parts(
    parsed: ParsedCpp, node: tree_sitter.Node
) -> tuple[str, bool, tree_sitter.Node | None] | None:
    """Return (name, is_pointer, initializer) of a declarator, or None if it declares none."""
    pointer = False
    value = None
    current: tree_sitter.Node | None = node
    while current is not None:
        kind = current.type
        if kind in ("identifier", "field_identifier"):
            return parsed.text(current), pointer, value
        if kind == "init_declarator":
            value = current.child_by_field_name("value")
            current = current.child_by_field_name("declarator")
        elif kind == "pointer_declarator":
            pointer = True
            current = current.child_by_field_name("declarator")
        elif kind == "reference_declarator":
            current = current.named_children[0] if current.named_children else None
        else:
            return None
    return None


def declared(parsed: ParsedCpp, declaration: tree_sitter.Node, kind: Kind) -> Iterator[Binding]:
    """Yield the bindings a declaration, field or parameter introduces."""
    written = type_name_of(parsed, declaration.child_by_field_name("type"))
    default = declaration.child_by_field_name("default_value")
    for declarator in declaration.children_by_field_name("declarator"):
        parts = _declarator_parts(parsed, declarator)
        if parts is None:
            continue
        name, pointer, value = parts
        value = value or default
        type_name = inferred_type(parsed, value) if written == "auto" else written
        start = declarator.end_byte if kind == Kind.LOCAL else 0
        yield Binding(name, type_name, pointer, kind, start, value)


def _parameters(parsed: ParsedCpp, function: tree_sitter.Node) -> Iterator[Binding]:
    declarator = function_declarator(function)
    if declarator is None:
        return
    parameters = declarator.child_by_field_name("parameters")
    for parameter in parameters.named_children if parameters is not None else []:
        if parameter.type in ("parameter_declaration", "optional_parameter_declaration"):
            yield from declared(parsed, parameter, Kind.PARAMETER)


def _class_of(
    parsed: ParsedCpp, function: tree_sitter.Node
) -> tuple[tree_sitter.Node | None, bool]:
    """Return the class a member function belongs to, when it is defined in this file, and
    whether it was looked for outside the function (an out-of-class definition)."""
    parent = function.parent
    if parent is not None and parent.type == "field_declaration_list":
        return parent.parent, False
    declarator = function_declarator(function)
    inner = declarator.child_by_field_name("declarator") if declarator is not None else None
    if inner is None or inner.type != "qualified_identifier":
        return None, False
    scope = inner.child_by_field_name("scope")
    if scope is None:
        return None, False
    owner = normalized(parsed.text(scope)).rsplit("::", 1)[-1]
    return find_class(parsed, owner), True


def find_class(parsed: ParsedCpp, name: str) -> tree_sitter.Node | None:
    """Return the definition of class `name` in this file (with a body), if any."""
    stack = [parsed.root]
    while stack:
        node = stack.pop()
        if node.type in CLASSES:
            class_name = node.child_by_field_name("name")
            if (
                class_name is not None
                and node.child_by_field_name("body") is not None
                and normalized(parsed.text(class_name)).rsplit("::", 1)[-1] == name
            ):
                return node
        if node.type not in FUNCTIONS:
            stack.extend(reversed(node.named_children))
    return None


def members(parsed: ParsedCpp, cls: tree_sitter.Node) -> Iterator[Binding]:
    """Yield the data members a class body declares."""
    body = cls.child_by_field_name("body")
    for child in body.named_children if body is not None else []:
        if child.type == "field_declaration":
            yield from declared(parsed, child, Kind.MEMBER)


def _lambda_captures(parsed: ParsedCpp, lam: tree_sitter.Node) -> tuple[bool, bool, set[str]]:
    """Return (captures every local, captures this, explicitly captured names)."""
    captures = lam.child_by_field_name("captures")
    every = this = False
    names: set[str] = set()
    for child in captures.named_children if captures is not None else []:
        text = normalized(parsed.text(child))
        if child.type == "lambda_default_capture":
            every = this = True
        elif text in ("this", "*this"):
            this = True
        else:
            names.add(text.lstrip("&").split("=", 1)[0])
    return every, this, names


def _block_index(parsed: ParsedCpp, block: tree_sitter.Node) -> _BlockIndex:
    """Return the index of `block`'s declarations, made once per parse."""
    key = ("scope-block", block.id)
    index = parsed.indexes.get(key)
    if index is None:
        index = parsed.indexes[key] = _BlockIndex.of(parsed, block)
    assert isinstance(index, _BlockIndex)
    return index


def _header_bindings(parsed: ParsedCpp, node: tree_sitter.Node) -> Iterator[Binding]:
    """Yield what a for/if/while header declares for its body."""
    if node.type == "for_range_loop":
        yield from declared(parsed, node, Kind.LOCAL)
        return
    for field in ("initializer", "condition"):
        child = node.child_by_field_name(field)
        if child is not None and child.type == "declaration":
            yield from declared(parsed, child, Kind.LOCAL)


def scope_at(parsed: ParsedCpp, node: tree_sitter.Node) -> Scope:
    """Return what is visible at `node`: locals declared before it, parameters, members."""
    layers: list[_Layer] = []
    function: tree_sitter.Node | None = None
    looked_outside = False
    visible = _Filter()
    current = node
    parent = parsed.parent(node)

    def add(bindings: Iterable[Binding]) -> None:
        layers.append(_Layer(visible, fixed=tuple(bindings)))

    while parent is not None:
        if parent.type == "compound_statement":
            block = _block_index(parsed, parent)
            layers.append(_Layer(visible, block=block, limit=current.start_byte))
        elif parent.type in ("for_range_loop", "for_statement", "if_statement", "while_statement"):
            body = parent.child_by_field_name("body") or parent.child_by_field_name("consequence")
            if body is not None and body.start_byte <= current.start_byte:
                add(_header_bindings(parsed, parent))
        elif parent.type == "lambda_expression":
            add(_parameters(parsed, parent))
            function = function or parent
            every, this, names = _lambda_captures(parsed, parent)
            if not every:
                allowed = (visible.names & names) if not visible.every else frozenset(names)
                visible = _Filter(False, visible.this and this, allowed)
            else:
                visible = _Filter(visible.every, visible.this and this, visible.names)
        elif parent.type == "function_definition":
            add(_parameters(parsed, parent))
            function = function or parent
            cls, looked_outside = _class_of(parsed, parent)
            # In a constructor's initializer list a member may not be made yet.
            if cls is not None and current == parent.child_by_field_name("body"):
                add(members(parsed, cls))
            break
        current, parent = parent, parsed.parent(parent)
    body = function.child_by_field_name("body") if function is not None else None
    return Scope(tuple(layers), function, body, looked_outside)


def statement_in(
    parsed: ParsedCpp, block: tree_sitter.Node, node: tree_sitter.Node
) -> tree_sitter.Node | None:
    """Return the direct child of `block` that holds `node`, if `block` holds it."""
    current = node
    for parent in parsed.ancestors(node):
        if parent == block:
            return current
        current = parent
    return None


def declaring_block(
    parsed: ParsedCpp, function_body: tree_sitter.Node, name: str
) -> tree_sitter.Node | None:
    """Return the compound statement inside `function_body` that declares local `name`."""
    stack = [function_body]
    while stack:
        node = stack.pop()
        if node.type == "compound_statement":
            for child in node.named_children:
                if child.type == "declaration" and any(
                    b.name == name for b in declared(parsed, child, Kind.LOCAL)
                ):
                    return node
        if node.type not in FUNCTIONS or node == function_body:
            stack.extend(node.named_children)
    return None


def identifiers(parsed: ParsedCpp, node: tree_sitter.Node) -> set[str]:
    """Return every identifier spelled inside `node`."""
    return set(re.findall(r"[A-Za-z_]\w*", parsed.text(node)))


def _holds(block: tree_sitter.Node, node: tree_sitter.Node) -> bool:
    return block.start_byte <= node.start_byte and node.end_byte <= block.end_byte


def common_block(
    parsed: ParsedCpp, outer: tree_sitter.Node, nodes: list[tree_sitter.Node]
) -> tree_sitter.Node:
    """Return the innermost compound statement within `outer` that holds every node,
    moved out of any loop so that one declaration there serves every iteration, and out
    of a switch's body, where a declaration between case labels does not compile."""
    block = outer
    for current in parsed.ancestors(nodes[0]):
        if current == outer:
            break
        if current.type == "compound_statement" and all(_holds(current, n) for n in nodes):
            block = current
            break
    result: tree_sitter.Node | None = block
    for current in parsed.ancestors(block) if block != outer else ():
        # Out of loops (one declaration for every iteration) and out of a switch's body: a
        # declaration there is jumped over by the case labels, and does not compile.
        if current.type in LOOPS or current.type == "switch_statement":
            result = None
        elif current.type == "compound_statement" and result is None:
            result = current
        if current == outer:
            break
    return result or outer


def made_once(parsed: ParsedCpp, node: tree_sitter.Node) -> bool:
    """Tell whether `node` runs only at the first call of its function: in the declaration
    of a `static` or `thread_local` local. A lambda called where it is written, or handed
    to a function that calls it there (`std::invoke`, `std::call_once`), runs with the
    code around it, so the search goes on through it; any other lambda is a function of
    its own (kept in a variable, registered as a callback), run at each of its calls."""
    current = node.parent
    while current is not None and current.type != "function_definition":
        if current.type == "lambda_expression" and not _run_where_written(parsed, current):
            return False
        if current.type == "declaration" and any(
            child.type == "storage_class_specifier"
            and any(word.type in ("static", "thread_local") for word in child.children)
            for child in current.children
        ):
            return True
        current = current.parent
    return False


# The standard functions that call the function they are given before they return.
_CALLING_AT_ONCE = frozenset({"invoke", "invoke_r", "call_once", "apply"})


def _run_where_written(parsed: ParsedCpp, lam: tree_sitter.Node) -> bool:
    """Tell whether a lambda runs where it is written: called there (`[&] { ... }()`), or
    handed to one of _CALLING_AT_ONCE."""
    callee, parent = lam, lam.parent
    while parent is not None and parent.type == "parenthesized_expression":
        callee, parent = parent, parent.parent
    if parent is None:
        return False
    if parent.type == "call_expression":
        return parent.child_by_field_name("function") == callee
    call = parent.parent
    if parent.type != "argument_list" or call is None or call.type != "call_expression":
        return False
    function = call.child_by_field_name("function")
    name = parsed.text(function) if function is not None else ""
    return name.split("::")[-1].strip() in _CALLING_AT_ONCE
