"""What a C++ function body does, as far as making a name unique goes.

A copy looks a name up in a map or set (`m.count(x)`, `m.find(x)`, `std::find(...)`) and
builds a longer one from a counter (`x + std::to_string(i)`, `x += std::to_string(i)`,
`os << x << ++n; os.str()`, `StrCat(x, n)`), linked by a variable or by nesting, in a loop,
by recursion, or with the counter kept in the map itself.

What one pass over the body gathers is in cpp_body_walk.py, and whether a built name
comes from the function's input in cpp_name_flow.py; here, the verdict drawn from both.
"""

import tree_sitter

from lintgv.config import Config
from lintgv.helpers.cpp_body_walk import BodyWalk, call_name, identifiers, subscripted, unwrap
from lintgv.helpers.cpp_name_flow import from_input
from lintgv.helpers.names import Facts, is_supply_method
from lintgv.parsing.cpp import ParsedCpp

Node = tree_sitter.Node


def _within(node: Node, spans: list[tuple[int, int]]) -> bool:
    """Tell whether `node` holds one of `spans` (byte ranges)."""
    return any(node.start_byte <= s and e <= node.end_byte for s, e in spans)


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
    walk = BodyWalk(parsed)
    walk.run(body)
    built = walk.built + [
        (n.start_byte, n.end_byte) for stream, n in walk.stream_reads if stream in walk.streams
    ]
    built_vars = _built_variables(parsed, walk, built)
    tested_names = {parsed.text(arg) for arg, _, _ in walk.tests if arg.type == "identifier"}
    facts.has_test = bool(walk.tests)
    facts.has_built = bool(built)
    for arg, in_loop, _ in walk.tests:
        linked = _within(arg, built) or parsed.text(unwrap(arg)) in built_vars
        facts.linked_test_in_loop |= linked and in_loop
    # Recursion uniques a name only when the call's answer is returned, directly or
    # through variables (see python_shape).
    values = list(walk.returns)
    returned_names: set[str] = set()
    while True:
        names = {n for value in values for n in identifiers(parsed, value)}
        if names <= returned_names:
            break
        returned_names |= names
        values = [*walk.returns, *(v for t, v in walk.assigns if t in returned_names)]
    returned = [(v.start_byte, v.end_byte) for v in values]
    for call in walk.calls:
        called = call_name(parsed, call)
        facts.calls_supply |= is_supply_method(called, config)
        if calls_itself(parsed, call, name, owner):
            facts.self_call = True
            arguments = call.child_by_field_name("arguments")
            if (
                arguments is not None
                and any(s <= call.start_byte and call.end_byte <= e for s, e in returned)
                and (_within(arguments, built) or set(identifiers(parsed, arguments)) & built_vars)
            ):
                facts.self_call_built = True
    # A counter kept in the map that was asked, and incremented here.
    keepers = {c for _, _, c in walk.tests if c} & walk.bumped
    counters = [
        s
        for s in walk.subscripts
        if (s.type == "field_expression" and "second" in walk.bumped)
        or subscripted(parsed, s) in keepers
    ]
    streams = [(n.start_byte, n.end_byte) for chains in walk.streams.values() for n in chains]
    for value in walk.returns:
        mentions = set(identifiers(parsed, value))
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
        facts.shape() is not None and facts.returns_name and from_input(parsed, unit, walk)
    )
    return facts


def _inside(node: Node, spans: list[tuple[int, int]]) -> bool:
    return any(s <= node.start_byte and node.end_byte <= e for s, e in spans)


def _inside_or_holds(value: Node, span: tuple[int, int], built: list[tuple[int, int]]) -> bool:
    """Tell whether `span` lies in the returned `value`, or is a stream the value reads."""
    start, end = span
    inside = value.start_byte <= start and end <= value.end_byte
    return inside or (span not in built and _within(value, built))


def _built_variables(parsed: ParsedCpp, walk: BodyWalk, built: list[tuple[int, int]]) -> set[str]:
    """Return the variables that hold a built name, directly or through a copy."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for target, value in walk.assigns:
            if target in found:
                continue
            plain = unwrap(value)
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
            only = unwrap(args[0])
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
    return len(values) == 1 and unwrap(values[0]).type == "call_expression"
