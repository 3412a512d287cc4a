"""What a C++ function body does, as far as making a name unique goes.

A copy looks a name up in a map or set (`m.count(x)`, `m.find(x)`, `std::find(...)`) and
builds a longer one from a counter (`x + std::to_string(i)`, `x += std::to_string(i)`,
`os << x << ++n; os.str()`, `StrCat(x, n)`), linked by a variable or by nesting, in a loop,
by recursion, or with the counter kept in the map itself.
"""

import re
from collections.abc import Iterator

import tree_sitter

from lintgv.config import Config
from lintgv.helpers.names import Facts, is_supply_method
from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cpp_nodes import function_declarator, inner_declarator, named_descendants

Node = tree_sitter.Node
LOOPS = frozenset({"for_statement", "for_range_loop", "while_statement", "do_statement"})
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


def _unwrap(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _within(node: Node, spans: list[tuple[int, int]]) -> bool:
    """Tell whether `node` holds one of `spans` (byte ranges)."""
    return any(node.start_byte <= s and e <= node.end_byte for s, e in spans)


class _Walk:
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
        target = _unwrap(target) if target is not None else None
        if target is None:
            return
        if target.type == "subscript_expression":
            self.bumped.add(_subscripted(self.parsed, target))
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
    node = _unwrap(node)
    if node.type != "call_expression" or call_name(parsed, node) != "to_string":
        return False
    arguments = node.child_by_field_name("arguments")
    return arguments is None or "rand" not in parsed.text(arguments).lower()


def _has_to_string(parsed: ParsedCpp, node: Node) -> bool:
    node = _unwrap(node)
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
        current = _unwrap(stack.pop())
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


def _identifiers(parsed: ParsedCpp, node: Node) -> Iterator[str]:
    for current in [node, *named_descendants(node)]:
        if current.type == "identifier":
            yield parsed.text(current)


def calls_itself(parsed: ParsedCpp, call: Node, name: str, owner: str) -> bool:
    """Tell whether `call` calls the function `name` (a method of class `owner`) itself:
    `F(x)`, `this->F(x)`, `Owner::F(x)`. A call of a base class's or another class's
    method of the same name (`Base::F(x)`, `this->Base::F(x)`, `other->F(x)`) is not."""
    func = call.child_by_field_name("function")
    if func is not None and func.type == "template_function":
        func = func.child_by_field_name("name")
    if func is None:
        return False
    if func.type == "identifier":
        return parsed.text(func) == name
    if func.type == "field_expression":
        field = func.child_by_field_name("field")
        receiver = func.child_by_field_name("argument")
        return (
            field is not None
            and field.type == "field_identifier"
            and parsed.text(field) == name
            and receiver is not None
            and parsed.text(receiver) == "this"
        )
    if func.type == "qualified_identifier":
        scope, inner = func.child_by_field_name("scope"), func.child_by_field_name("name")
        while inner is not None and inner.type == "qualified_identifier":  # ns::Class::F
            scope, inner = inner.child_by_field_name("scope"), inner.child_by_field_name("name")
        return (
            bool(owner)
            and scope is not None
            and inner is not None
            and parsed.text(inner) == name
            and parsed.text(scope).rsplit("::", 1)[-1] == owner
        )
    return False


def facts_of(parsed: ParsedCpp, unit: Node, name: str, config: Config, owner: str = "") -> Facts:
    """Return the uniquing facts of a function definition or lambda named `name` (a method
    of class `owner`, when it is one)."""
    body = unit.child_by_field_name("body")
    facts = Facts()
    if body is None:
        return facts
    walk = _Walk(parsed)
    walk.run(body)
    built = walk.built + [
        (n.start_byte, n.end_byte) for stream, n in walk.stream_reads if stream in walk.streams
    ]
    built_vars = _built_variables(parsed, walk, built)
    tested_names = {parsed.text(arg) for arg, _, _ in walk.tests if arg.type == "identifier"}
    facts.has_test = bool(walk.tests)
    facts.has_built = bool(built)
    for arg, in_loop, _ in walk.tests:
        linked = _within(arg, built) or parsed.text(_unwrap(arg)) in built_vars
        facts.linked_test_in_loop |= linked and in_loop
    # Recursion uniques a name only when the call's answer is returned (see python_shape).
    returned = [(v.start_byte, v.end_byte) for v in walk.returns]
    for call in walk.calls:
        called = call_name(parsed, call)
        facts.calls_supply |= is_supply_method(called, config)
        if calls_itself(parsed, call, name, owner):
            facts.self_call = True
            arguments = call.child_by_field_name("arguments")
            if (
                arguments is not None
                and any(s <= call.start_byte and call.end_byte <= e for s, e in returned)
                and (_within(arguments, built) or set(_identifiers(parsed, arguments)) & built_vars)
            ):
                facts.self_call_built = True
    # A counter kept in the map that was asked, and incremented here.
    keepers = {c for _, _, c in walk.tests if c} & walk.bumped
    counters = [
        s
        for s in walk.subscripts
        if (s.type == "field_expression" and "second" in walk.bumped)
        or _subscripted(parsed, s) in keepers
    ]
    streams = [(n.start_byte, n.end_byte) for chains in walk.streams.values() for n in chains]
    for value in walk.returns:
        mentions = set(_identifiers(parsed, value))
        holds_built = _within(value, built)
        self_made = any(
            calls_itself(parsed, c, name, owner)
            and value.start_byte <= c.start_byte < value.end_byte
            for c in walk.calls
        )
        facts.returns_name |= (
            holds_built or self_made or bool(mentions & (built_vars | tested_names))
        )
        # The counter is read from the map that was asked about the same name.
        appended = [s for s in built + streams if _inside_or_holds(value, s, built)]
        facts.stored_return |= bool(mentions & tested_names) and any(
            _inside(c, appended) for c in counters
        )
    facts.delegates = _delegates(body)
    # The name flow is followed only where it decides something: a uniquing shape that
    # returns the name.
    facts.from_input = (
        facts.shape() is not None and facts.returns_name and _from_input(parsed, unit, walk)
    )
    return facts


def _from_input(parsed: ParsedCpp, unit: Node, walk: _Walk) -> bool:
    """Tell whether a name the function builds comes from its input: a parameter, a
    variable written from one (declared, assigned, appended to, bound by a range-for or
    a structured binding, or a stream written with one: `ss << expr; name = ss.str()`),
    or anything a lambda captures (its flow is not followed)."""
    captures = unit.child_by_field_name("captures") if unit.type == "lambda_expression" else None
    if captures is not None and captures.named_child_count:
        return True
    tainted = _parameters(parsed, unit)
    body = unit.child_by_field_name("body")
    if not tainted or body is None:
        return False
    writes = _writes(parsed, body) + [
        ({stream}, set(_words(parsed, chain))) for stream, chain in walk.stream_writes
    ]
    changed = True
    while changed:
        changed = False
        for targets, mentioned in writes:
            if not targets <= tainted and not tainted.isdisjoint(mentioned):
                tainted |= targets
                changed = True
    made = walk.built_nodes + [
        chain for stream, _ in walk.stream_reads for chain in walk.streams.get(stream, ())
    ]
    return any(not tainted.isdisjoint(_words(parsed, node)) for node in made)


_WORD = re.compile(r"[A-Za-z_]\w*")
_APPENDS = frozenset({"append", "assign", "insert"})


def _words(parsed: ParsedCpp, node: Node) -> list[str]:
    """Return the identifiers spelled in `node`, by its text (a misread declaration's
    `std::string base(name)` holds `name` as a type)."""
    return _WORD.findall(parsed.text(node))


def _writes(parsed: ParsedCpp, body: Node) -> list[tuple[set[str], set[str]]]:
    """Return, for every write in a body, the variables written and the words written
    into them: declarations (`const auto& b = op->name_hint;`, `auto [b, n] = p;`,
    `std::string b(name);`), assignments of any operator, `b.append(x)`, and range-for
    bindings (`for (const Var& v : vars)`)."""
    found: list[tuple[set[str], set[str]]] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if node is not body and node.type in ("lambda_expression", "function_definition"):
            continue
        stack.extend(node.named_children)
        if node.type == "declaration":
            for declarator in node.children_by_field_name("declarator"):
                targets = _declared(parsed, declarator)
                value = declarator.child_by_field_name("value")
                source = value if value is not None else declarator
                found.append((targets, set(_words(parsed, source)) - targets))
        elif node.type == "assignment_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None:
                found.append((lvalue_root(parsed, left), set(_words(parsed, right))))
        elif node.type == "for_range_loop":
            binding = node.child_by_field_name("declarator")
            right = node.child_by_field_name("right")
            if binding is not None and right is not None:
                found.append((_declared(parsed, binding), set(_words(parsed, right))))
        elif node.type == "call_expression" and call_name(parsed, node) in _APPENDS:
            func = node.child_by_field_name("function")
            receiver = func.child_by_field_name("argument") if func is not None else None
            arguments = node.child_by_field_name("arguments")
            if func is not None and func.type == "field_expression" and receiver and arguments:
                found.append((lvalue_root(parsed, receiver), set(_words(parsed, arguments))))
    return found


def _declared(parsed: ParsedCpp, declarator: Node) -> set[str]:
    """Return the names a declarator binds: its innermost identifier, or every name of a
    structured binding."""
    if declarator.type == "structured_binding_declarator":
        return {parsed.text(c) for c in declarator.named_children if c.type == "identifier"}
    current: Node | None = declarator
    while current is not None and current.type != "identifier":
        current = inner_declarator(current)
    return {parsed.text(current)} if current is not None else set()


def lvalue_root(parsed: ParsedCpp, node: Node) -> set[str]:
    """Return the variable an lvalue writes to (`b`, `this->b`, `*b`, `b[i]`, `b.x`)."""
    current: Node | None = node
    while current is not None and current.type != "identifier":
        current = current.child_by_field_name("argument") or (
            current.named_children[0]
            if current.type == "parenthesized_expression" and current.named_child_count
            else None
        )
    return {parsed.text(current)} if current is not None else set()


def _parameters(parsed: ParsedCpp, unit: Node) -> set[str]:
    """Return the names of a function's or lambda's parameters."""
    declarator = function_declarator(unit)
    parameters = declarator.child_by_field_name("parameters") if declarator else None
    names: set[str] = set()
    for parameter in parameters.named_children if parameters is not None else ():
        inner = parameter.child_by_field_name("declarator")
        # Every identifier of the declarator: a macro after the name (`name TVM_UNUSED`)
        # leaves the name in an ERROR node beside it.
        if inner is not None:
            names.update(_identifiers(parsed, inner))
    return names


def _inside(node: Node, spans: list[tuple[int, int]]) -> bool:
    return any(s <= node.start_byte and node.end_byte <= e for s, e in spans)


def _inside_or_holds(value: Node, span: tuple[int, int], built: list[tuple[int, int]]) -> bool:
    """Tell whether `span` lies in the returned `value`, or is a stream the value reads."""
    start, end = span
    inside = value.start_byte <= start and end <= value.end_byte
    return inside or (span not in built and _within(value, built))


def _subscripted(parsed: ParsedCpp, node: Node) -> str:
    argument = node.child_by_field_name("argument")
    return parsed.text(argument) if argument is not None else ""


def _built_variables(parsed: ParsedCpp, walk: _Walk, built: list[tuple[int, int]]) -> set[str]:
    """Return the variables that hold a built name, directly or through a copy."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for target, value in walk.assigns:
            if target in found:
                continue
            plain = _unwrap(value)
            if _is_built_value(plain, built) or (
                plain.type == "identifier" and parsed.text(plain) in found
            ):
                found.add(target)
                changed = True
    return found


def _is_built_value(value: Node, built: list[tuple[int, int]]) -> bool:
    """Tell whether `value` is a built name, or one converted (`String(os.str())`)."""
    if (value.start_byte, value.end_byte) in built:
        return True
    if value.type == "call_expression":
        arguments = value.child_by_field_name("arguments")
        args = arguments.named_children if arguments is not None else []
        if len(args) == 1:
            only = _unwrap(args[0])
            return (only.start_byte, only.end_byte) in built
    return False


def _delegates(body: Node) -> bool:
    """Tell whether a body is one statement that returns or makes a call."""
    statements = [c for c in body.named_children if c.type != "comment"]
    if len(statements) != 1 or statements[0].type not in (
        "return_statement",
        "expression_statement",
    ):
        return False
    values = statements[0].named_children
    return len(values) == 1 and _unwrap(values[0]).type == "call_expression"
