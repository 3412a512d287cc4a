"""Inline uniquing loops in C++ (GV204): while a name is taken, append a counter or ask
again, in a function that is not itself a unique-name helper (GV201 reports those).

Three shapes, each asking a map, a set or a module whether a name is taken:
- the condition asks about a variable and the body rebuilds it from a counter, or asks a
  naming function again: `while (used.count(name)) name = hint + std::to_string(++i);`,
  `while (mod->ContainGlobalVar(name)) name = GetUniqueName(hint);`;
- the condition builds the candidate itself: `while (used.count(p + "_" + std::to_string(n))) ++n;`,
  or from a suffix the body rebuilds:
  `do { s = "_" + std::to_string(++i); } while (used.count(p + s));`;
- an endless loop builds a candidate and leaves when it is free:
  `while (true) { c = hint + std::to_string(i++); if (!used.count(c)) break; }`.
"""

import re

import tree_sitter

from lintgv.config import Config
from lintgv.helpers.cpp_body_walk import call_name, is_substring_search, receiver_of
from lintgv.helpers.cpp_shape import unit_of
from lintgv.helpers.names import Verdict, judge
from lintgv.parsing.cpp import FUNCTION_NODES, ParsedCpp, node_cursor
from lintgv.parsing.cpp_regions import Region
from lintgv.records import frozen

Node = tree_sitter.Node
# Member calls that ask a container whether it holds a key.
_TAKEN = frozenset({"count", "find", "contains", "Contains", "ContainGlobalVar"})
_MODULE_TAKEN = frozenset({"ContainGlobalVar"})
# A call that hands out a name: asking it again is a retry.
_ASKS = re.compile(r"name|unique|fresh", re.IGNORECASE)
_BUILDERS = frozenset({"to_string", "StrCat", "Format", "format", "sprintf", "snprintf"})
_LOOP_WORDS = (b"while", b"for")
_TAKEN_WORDS = (b"count(", b"find(", b"ontains(", b"ContainGlobalVar(")
_ENDLESS = frozenset({"true", "1", ""})


@frozen
class InlineLoop:
    """A loop that makes a name unique by hand."""

    node: Node
    variable: str  # the variable that ends up holding the name ("" when none does)
    base: str  # the name a supply should be asked for
    container: str  # what is asked whether the name is taken
    module: bool  # the container is an IRModule: the names are GlobalVar names


def inline_loops(parsed: ParsedCpp, config: Config) -> tuple[InlineLoop, ...]:
    """Return the inline uniquing loops of the file, outside unique-name helpers."""
    if not any(w in parsed.data for w in _LOOP_WORDS):
        return ()
    return parsed.once(("inline-loops", config.fingerprint), lambda: _inline_loops(parsed, config))


def _inline_loops(parsed: ParsedCpp, config: Config) -> tuple[InlineLoop, ...]:
    def admits(region: Region) -> bool:
        return may_hold_loop(parsed.data[region.start_byte : region.end_byte])

    def find(ranges: list[tuple[int, int]]) -> list[Node]:
        cursor = node_cursor()
        found: dict[int, Node] = {}
        for start, end in ranges:
            cursor.set_byte_range(start, end)
            for node in cursor.captures(parsed.root).get("loop", []):
                if start <= node.start_byte and node.end_byte <= end:
                    found[node.id] = node
        return sorted(found.values(), key=lambda n: n.start_byte)

    loops = []
    for node in parsed.find_in_regions("inline-loops", config.fingerprint, admits, find):
        loop = _loop(parsed, node)
        if loop is not None and not _in_helper(parsed, node, config):
            loops.append(loop)
    return tuple(loops)


def may_hold_loop(text: bytes) -> bool:
    """Tell whether `text` (a declaration, or any text holding one) may hold an inline
    uniquing loop: a loop keyword and a call that asks whether a name is taken."""
    return any(w in text for w in _LOOP_WORDS) and any(w in text for w in _TAKEN_WORDS)


def _in_helper(parsed: ParsedCpp, node: Node, config: Config) -> bool:
    """Tell whether the loop lies in a function GV201 reports: the helper is the finding."""
    outer = parsed.enclosing(node, FUNCTION_NODES)
    unit = unit_of(parsed, outer, config) if outer is not None else None
    return unit is not None and judge(unit.name, unit.facts, config) in (
        Verdict.BY_NAME,
        Verdict.BY_STRUCTURE,
    )


def _loop(parsed: ParsedCpp, loop: Node) -> InlineLoop | None:
    condition = loop.child_by_field_name("condition")
    body = loop.child_by_field_name("body")
    if body is None:
        return None
    checks = list(_taken_checks(parsed, condition)) if condition is not None else []
    for asked, container, module in checks:
        if _is_built(parsed, asked):
            # The condition builds the candidate: `count(n = p + to_string(++i))` or
            # `count(p + "_" + to_string(cnt))` with the counter bumped in the body.
            variable = ""
            value = asked
            if asked.type == "assignment_expression":
                left, right = asked.child_by_field_name("left"), asked.child_by_field_name("right")
                variable = parsed.text(left) if left is not None else ""
                value = right if right is not None else asked
            return InlineLoop(loop, variable, _base(parsed, value, variable), container, module)
        if asked.type == "identifier":
            variable = parsed.text(asked)
            rebuilt = _rebuilt(parsed, body, variable)
            if rebuilt is not None:
                base = _base(parsed, rebuilt, variable)
                return InlineLoop(loop, variable, base, container, module)
        suffixed = _suffixed(parsed, body, asked)
        if suffixed is not None:
            return InlineLoop(loop, "", suffixed, container, module)
    if condition is None or parsed.text(condition).strip("() ") in _ENDLESS:
        return _leaves_when_free(parsed, loop, body)
    return None


def _unwrap(node: Node) -> Node:
    while node.type in ("parenthesized_expression", "condition_clause") and node.named_children:
        node = node.named_children[-1]
    return node


def _taken_checks(parsed: ParsedCpp, condition: Node) -> list[tuple[Node, str, bool]]:
    """Return what a condition asks containers about: (asked node, container, is a module)."""
    found = []
    stack = [condition]
    while stack:
        node = stack.pop()
        if node.type in ("lambda_expression", "compound_statement"):
            continue
        if node.type == "call_expression":
            name = call_name(parsed, node)
            func = node.child_by_field_name("function")
            arguments = node.child_by_field_name("arguments")
            args = arguments.named_children if arguments is not None else []
            is_member_call = func is not None and func.type == "field_expression"
            searches_text = name == "find" and is_substring_search(parsed, node, args)
            if name in _TAKEN and is_member_call and args and not searches_text:
                container = receiver_of(parsed, node)
                found.append((_unwrap(args[0]), container, _is_module(name, container)))
        stack.extend(reversed(node.named_children))
    return found


def _is_module(call: str, container: str) -> bool:
    last = re.split(r"->|\.", container)[-1].lower()
    return call in _MODULE_TAKEN or last.rstrip("_") in ("mod", "module", "ir_module")


def _is_built(parsed: ParsedCpp, node: Node) -> bool:
    """Tell whether `node` makes a name from a counter (`x + std::to_string(i)`, StrCat,
    a stream's `str()`, or an assignment of one)."""
    if node.type == "assignment_expression":
        right = node.child_by_field_name("right")
        return right is not None and _is_built(parsed, right)
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "call_expression":
            name = call_name(parsed, current)
            if "rand" in parsed.text(current).lower():
                continue  # a random key (an RPC session's), not a name made distinct
            if name in _BUILDERS or (name == "str" and receiver_of(parsed, current)):
                return True
        stack.extend(current.named_children)
    return False


def _rebuilt(parsed: ParsedCpp, body: Node, variable: str) -> Node | None:
    """Return the value the loop body gives `variable`: a name built from a counter, or
    one asked of a naming function again (a retry); None when it gives none."""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type in ("lambda_expression", "function_definition"):
            continue
        if node.type == "assignment_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            operator = node.child_by_field_name("operator")
            suffixed = (
                operator is not None
                and parsed.text(operator) == "+="
                and right is not None
                and right.type == "string_literal"
            )  # `name += "_a"`: a suffix appended until the name is free
            if (
                left is not None
                and right is not None
                and parsed.text(left) == variable
                and (suffixed or _is_built(parsed, right) or _is_retry(parsed, right))
            ):
                return right
        stack.extend(node.named_children)
    return None


def _suffixed(parsed: ParsedCpp, body: Node, asked: Node) -> str | None:
    """Return the base name when the condition asks about a sum one of whose terms the
    body rebuilds from a counter (`while (used.count(name + suffix + ext))` with
    `suffix = "_" + std::to_string(++i)` in the body): the sum without that term."""
    terms = _terms(parsed, asked)
    if len(terms) < 2:
        return None
    for term in terms:
        if term.type == "identifier" and _rebuilt(parsed, body, parsed.text(term)) is not None:
            return " + ".join(parsed.text(t) for t in terms if t is not term)
    return None


def _is_retry(parsed: ParsedCpp, value: Node) -> bool:
    value = _unwrap(value)
    return value.type == "call_expression" and bool(_ASKS.search(call_name(parsed, value)))


def _leaves_when_free(parsed: ParsedCpp, loop: Node, body: Node) -> InlineLoop | None:
    """An endless loop that builds a candidate, then leaves when no container has it."""
    built: dict[str, Node] = {}
    for statement in body.named_children:
        for variable, value in _assignments(parsed, statement):
            if _is_built(parsed, value):
                built[variable] = value
        if statement.type != "if_statement" or not built:
            continue
        condition = statement.child_by_field_name("condition")
        then = statement.child_by_field_name("consequence")
        if condition is None or then is None or not _leaves(then):
            continue
        for asked, container, module in _taken_checks(parsed, condition):
            variable = parsed.text(asked)
            if variable in built:
                base = _base(parsed, built[variable], variable)
                return InlineLoop(loop, variable, base, container, module)
    return None


def _assignments(parsed: ParsedCpp, statement: Node) -> list[tuple[str, Node]]:
    found = []
    for node in [statement, *statement.named_children]:
        if node.type == "assignment_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None:
                found.append((parsed.text(left), right))
        elif node.type == "init_declarator":
            target = node.child_by_field_name("declarator")
            value = node.child_by_field_name("value")
            if target is not None and value is not None:
                found.append((parsed.text(target), value))
    return found


def _leaves(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("break_statement", "return_statement"):
            return True
        if current.type not in ("while_statement", "for_statement", "do_statement"):
            stack.extend(current.named_children)
    return False


def _base(parsed: ParsedCpp, value: Node, variable: str) -> str:
    """Return the name the candidate is built from: what the sum holds before its counter
    (`prefix + "." + block` in `prefix + "." + block + "_" + std::to_string(n)`), the name
    a retry asks for, else the first other variable in the value."""
    value = _unwrap(value)
    if _is_retry(parsed, value):
        arguments = value.child_by_field_name("arguments")
        if arguments is not None and arguments.named_children:
            return parsed.text(arguments.named_children[0])
    terms = _terms(parsed, value)
    if len(terms) > 1:
        while terms and (_is_counter(parsed, terms[-1]) or terms[-1].type == "string_literal"):
            terms.pop()
        if terms and parsed.text(terms[0]) != variable:
            return " + ".join(parsed.text(t) for t in terms)
    stack = [value]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            arguments = node.child_by_field_name("arguments")
            if _is_counter(parsed, node) or arguments is None:
                continue
            stack.extend(reversed(arguments.named_children))
        elif node.type in ("identifier", "field_expression"):
            if parsed.text(node) != variable:
                return parsed.text(node)
        else:
            stack.extend(reversed(node.named_children))
    return variable or "name"


def _is_counter(parsed: ParsedCpp, node: Node) -> bool:
    return node.type == "call_expression" and call_name(parsed, node) in ("to_string", "str")


def _terms(parsed: ParsedCpp, node: Node) -> list[Node]:
    """Return the terms of a `+` sum, left to right (one term for anything else)."""
    operator = node.child_by_field_name("operator")
    if node.type != "binary_expression" or operator is None or parsed.text(operator) != "+":
        return [node]
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if left is None or right is None:
        return [node]
    return [*_terms(parsed, _unwrap(left)), _unwrap(right)]
