"""Whether a name a C++ function builds comes from its input (a parameter, or a variable
written from one), followed through the function's writes: declarations, assignments,
appends, range-for and structured bindings, and streams.

Apart from the walk (cpp_body_walk.py) and the verdict (cpp_facts.py) because it is
a second, separate analysis: a fixed point over every write of the body, run only
where its answer decides something (facts_of calls it last).
"""

import re

import tree_sitter

from lintgv.helpers.cpp_body_walk import BodyWalk, call_name, identifiers
from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cpp_nodes import function_declarator, inner_declarator

Node = tree_sitter.Node

_WORD = re.compile(r"[A-Za-z_]\w*")
_APPENDS = frozenset({"append", "assign", "insert"})


def from_input(parsed: ParsedCpp, unit: Node, walk: BodyWalk) -> bool:
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
            names.update(identifiers(parsed, inner))
    return names
