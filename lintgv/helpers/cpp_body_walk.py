"""The one pass over a C++ function body that gathers what its uniquing facts are made
of (helpers/cpp_facts.py): the calls; the lookups that test a name in a map or set
(`m.count(x)`, `m.find(x)`, `std::find(...)`); the names built from a counter
(`x + std::to_string(i)`, `x += std::to_string(i)`, `os << x << ++n; os.str()`,
`StrCat(x, n)`); the assignments, the returns and the counters incremented. With it,
the readers of a call that other helpers, rules and fixes share too: call_name,
receiver_of, is_substring_search.

Apart from the verdict (cpp_facts.py) and the name flow (cpp_name_flow.py): both read
what this pass gathered, and it needs neither.
"""

from collections.abc import Iterator

import tree_sitter

from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cpp_nodes import LOOPS, inner_declarator, named_descendants

_BY_REFERENCE = frozenset({"reference_declarator", "pointer_declarator"})

Node = tree_sitter.Node
_LOOKUPS = frozenset({"count", "find", "contains"})
_FORMATTERS = frozenset({"StrCat", "Format", "format", "sprintf", "snprintf"})
_MAX_PARTS = 8


def call_name(parsed: ParsedCpp, call: Node) -> str:
    """Return the bare name a call_expression calls (`m->GetUniqueName(x)` → GetUniqueName)."""
    func = call.child_by_field_name("function")
    while func is not None:
        if func.type in ("identifier", "field_identifier"):
            return parsed.text(func)
        if func.type == "field_expression":
            func = func.child_by_field_name("field")
        elif func.type in ("qualified_identifier", "template_function"):
            func = func.child_by_field_name("name")
        else:
            return ""
    return ""


def receiver_of(parsed: ParsedCpp, call: Node) -> str:
    """Return the object text a method is called on (`name_supply_->F(x)` → name_supply_)."""
    func = call.child_by_field_name("function")
    if func is None or func.type != "field_expression":
        return ""
    argument = func.child_by_field_name("argument")
    return parsed.text(argument) if argument is not None else ""


def unwrap(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


class BodyWalk:
    """One pass over a function body that collects what `Facts` needs."""

    def __init__(self, parsed: ParsedCpp) -> None:
        self.parsed = parsed
        self.calls: list[Node] = []
        self.tests: list[tuple[Node, bool, str]] = []  # tested argument, in a loop, container
        self.built: list[tuple[int, int]] = []
        self.built_nodes: list[Node] = []
        self.streams: dict[str, list[Node]] = {}  # stream variable → its `<<` chains
        self.stream_reads: list[tuple[str, Node]] = []  # `os.str()`
        self.stream_writes: list[tuple[str, Node]] = []  # stream variable ← every `<<` chain
        self.assigns: list[tuple[str, Node]] = []  # variable ← value
        self.returns: list[Node] = []
        self.subscripts: list[Node] = []
        self.bumped: set[str] = set()  # maps (or "second") whose counter is incremented

    def run(self, body: Node) -> None:
        stack: list[tuple[Node, bool]] = [(body, False)]
        while stack:
            node, in_loop = stack.pop()
            if node is not body and node.type in ("lambda_expression", "function_definition"):
                continue  # a unit of its own
            self._visit(node, in_loop)
            inner = in_loop or node.type in LOOPS
            stack.extend((child, inner) for child in reversed(node.named_children))

    def _visit(self, node: Node, in_loop: bool) -> None:
        kind = node.type
        if kind == "call_expression":
            self._call(node, in_loop)
        elif kind == "binary_expression":
            self._binary(node)
        elif kind == "assignment_expression":
            self._assignment(node)
        elif kind == "init_declarator":
            target = node.child_by_field_name("declarator")
            # `const std::string& r = F(x)` binds `r` as well.
            while target is not None and target.type in _BY_REFERENCE:
                target = inner_declarator(target)
            value = node.child_by_field_name("value")
            if target is not None and value is not None and target.type == "identifier":
                self.assigns.append((self.parsed.text(target), value))
        elif kind == "return_statement" and node.named_child_count:
            self.returns.append(node.named_children[0])
        elif kind == "subscript_expression" or (
            kind == "field_expression" and self._field(node) == "second"
        ):
            self.subscripts.append(node)
        elif kind == "update_expression":
            self._bump(node.child_by_field_name("argument"))

    def _build(self, node: Node) -> None:
        self.built.append((node.start_byte, node.end_byte))
        self.built_nodes.append(node)

    def _field(self, node: Node) -> str:
        field = node.child_by_field_name("field")
        return self.parsed.text(field) if field is not None else ""

    def _call(self, node: Node, in_loop: bool) -> None:
        self.calls.append(node)
        name = call_name(self.parsed, node)
        arguments = node.child_by_field_name("arguments")
        args = arguments.named_children if arguments is not None else []
        func = node.child_by_field_name("function")
        if name in _LOOKUPS and func is not None and func.type == "field_expression" and args:
            if not is_substring_search(self.parsed, node, args):
                self.tests.append((args[0], in_loop, receiver_of(self.parsed, node)))
        elif name == "find" and len(args) == 3:  # std::find(names.begin(), names.end(), x)
            self.tests.append((args[2], in_loop, self.parsed.text(args[0]).split(".")[0]))
        elif name in _FORMATTERS and len(args) >= 2:
            self._build(node)
        elif name == "str" and not args and func is not None and func.type == "field_expression":
            self.stream_reads.append((receiver_of(self.parsed, node), node))

    def _binary(self, node: Node) -> None:
        operator = node.child_by_field_name("operator")
        op = self.parsed.text(operator) if operator is not None else ""
        if op == "+" and _is_counter_append(self.parsed, node):
            self._build(node)
        elif op == "<<" and (node.parent is None or node.parent.type != "binary_expression"):
            chain = []
            left: Node | None = node
            while left is not None and left.type == "binary_expression":
                chain.append(left)
                left = left.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                self.stream_writes.append((self.parsed.text(left), node))
                if len(chain) >= 2:
                    self.streams.setdefault(self.parsed.text(left), []).append(node)

    def _assignment(self, node: Node) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        if left is None or right is None:
            return
        if operator is not None and self.parsed.text(operator) == "+=":
            if _has_to_string(self.parsed, right):
                self._build(node)
                self.assigns.append((self.parsed.text(left), node))
            else:
                self._bump(left)
            return
        self.assigns.append((self.parsed.text(left), right))
        if right.type == "binary_expression" and self.parsed.text(left) in self.parsed.text(right):
            self._bump(left)  # m[x] = m[x] + 1

    def _bump(self, target: Node | None) -> None:
        target = unwrap(target) if target is not None else None
        if target is None:
            return
        if target.type == "subscript_expression":
            self.bumped.add(subscripted(self.parsed, target))
        elif target.type == "field_expression" and self._field(target) == "second":
            self.bumped.add("second")


def is_substring_search(parsed: ParsedCpp, call: Node, args: list[Node]) -> bool:
    """Tell whether `s.find(x)` searches a string (`!= npos`, a start position)."""
    if len(args) > 1:
        return True
    parent = next(
        (
            p
            for p in parsed.ancestors(call)
            if p.type not in ("parenthesized_expression", "assignment_expression")
        ),
        None,
    )
    return (
        parent is not None
        and parent.type == "binary_expression"
        and any(parsed.text(side).endswith("npos") for side in parent.named_children)
    )


def _is_to_string(parsed: ParsedCpp, node: Node) -> bool:
    """Tell whether `node` is `std::to_string(n)` of a counter (not of a random number)."""
    node = unwrap(node)
    if node.type != "call_expression" or call_name(parsed, node) != "to_string":
        return False
    arguments = node.child_by_field_name("arguments")
    return arguments is None or "rand" not in parsed.text(arguments).lower()


def _has_to_string(parsed: ParsedCpp, node: Node) -> bool:
    node = unwrap(node)
    if _is_to_string(parsed, node):
        return True
    return node.type == "binary_expression" and _is_counter_append(parsed, node)


def _is_counter_append(parsed: ParsedCpp, node: Node) -> bool:
    """Tell whether a `+` expression appends a number to a name: `x + "_" + to_string(i)`
    (`"arg" + std::to_string(i)` numbers a constant, so it is not one)."""
    parts = _operands(parsed, node)
    if parts is None or not any(_is_to_string(parsed, p) for p in parts):
        return False
    return any(not _is_constant_part(parsed, part) for part in parts)


def _operands(parsed: ParsedCpp, node: Node) -> list[Node] | None:
    """Return the terms of a sum, or None for a long one (a name and a counter take few;
    flattening every link of a long chain would cost its length squared)."""
    parts: list[Node] = []
    stack = [node]
    while stack:
        current = unwrap(stack.pop())
        operator = current.child_by_field_name("operator")
        if (
            current.type == "binary_expression"
            and operator is not None
            and parsed.text(operator) == "+"
        ):
            sides = [current.child_by_field_name(s) for s in ("right", "left")]
            stack += [side for side in sides if side is not None]
            if len(stack) + len(parts) > _MAX_PARTS:
                return None
        else:
            parts.append(current)
    return parts


def _is_constant_part(parsed: ParsedCpp, node: Node) -> bool:
    return node.type in ("string_literal", "char_literal", "raw_string_literal") or _is_to_string(
        parsed, node
    )


def identifiers(parsed: ParsedCpp, node: Node) -> Iterator[str]:
    for current in [node, *named_descendants(node)]:
        if current.type == "identifier":
            yield parsed.text(current)


def subscripted(parsed: ParsedCpp, node: Node) -> str:
    argument = node.child_by_field_name("argument")
    return parsed.text(argument) if argument is not None else ""
