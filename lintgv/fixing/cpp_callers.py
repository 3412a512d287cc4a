"""A C++ project as supply threading sees it (fixing/threading.py): the declarations of
the function a supply is added to, the calls that resolve to it, and what each caller
can pass along."""

import re
from collections.abc import Callable

import tree_sitter

from lintgv.codemods.cpp_scope import scope_at
from lintgv.config import Config
from lintgv.helpers.cpp_body_walk import call_name
from lintgv.helpers.cpp_calls import call_candidates, temporary_class
from lintgv.helpers.cpp_shape import class_name
from lintgv.identities import cpp_identity
from lintgv.parsing.cpp import ParsedCpp, node_cursor
from lintgv.parsing.cpp_nodes import function_declarator

Node = tree_sitter.Node
_NAMESPACE = re.compile(r"\b\w+::")


def items(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type != "comment"]


def declarations(
    parsed: ParsedCpp, name: str, identity: str, types: tuple[str, ...], at: int
) -> tuple[list[Node], int]:
    """Return the parameter lists of the declarations (not definitions) of the function
    whose parameter types are `types`, and how many declarations or definitions of the
    same name are of another function: other parameter types (overloads, whose calls
    cannot be told apart from the function's) or another definition than the one at
    byte `at` (of this file's text; -1 when the function is in another file)."""
    found = []
    others = 0
    for node, is_definition, written, parameters in _declarators(parsed, name):
        owner = class_name(parsed, node)
        qualified = f"{owner}::{written}" if owner and "::" not in written else written
        if cpp_identity(qualified) != identity:
            continue
        if parameter_types(parsed, parameters) != types or (
            is_definition and node.start_byte != at
        ):
            others += 1
        elif not is_definition:
            found.append(parameters)
    return found, others


# A declaration or definition of a function: its node, whether it is a definition, its
# declarator's name as written (blanks out), and its parameter list.
_Declarator = tuple[Node, bool, str, Node]


def _declarators(parsed: ParsedCpp, name: str) -> list[_Declarator]:
    """Return the file's function declarations and definitions outside function bodies
    whose name ends in `name`, in the order of a walk: found once per parse and name (a
    migration asks about every function it threads in each file naming it, plan after
    plan; an index of every declarator of a file held a tenth of its memory)."""

    def found() -> list[_Declarator]:
        matching: list[_Declarator] = []
        stack = [parsed.root]
        while stack:
            node = stack.pop()
            is_definition = node.type == "function_definition"
            if node.type == "compound_statement":
                continue
            stack.extend(node.named_children)
            if node.type not in ("declaration", "field_declaration") and not is_definition:
                continue
            declarator = function_declarator(node)
            if declarator is None:
                continue
            inner = declarator.child_by_field_name("declarator")
            parameters = declarator.child_by_field_name("parameters")
            if inner is None or parameters is None:
                continue
            written = "".join(parsed.text(inner).split())
            if written.rsplit("::", 1)[-1] == name:
                matching.append((node, is_definition, written, parameters))
        return matching

    return parsed.once((_declarators, name), found)


def parameter_types(parsed: ParsedCpp, parameters: Node) -> tuple[str, ...]:
    """Return the types of a parameter list, as written, blanks and names left out."""
    types = []
    for item in items(parameters):
        kind = item.child_by_field_name("type")
        text = parsed.text(kind) if kind is not None else parsed.text(item)
        declarator = item.child_by_field_name("declarator")
        # `const T& x`: the `&` and `*` belong to the type; the name does not.
        marks = ""
        while declarator is not None and declarator.type in (
            "pointer_declarator",
            "reference_declarator",
        ):
            marks += "*" if declarator.type == "pointer_declarator" else "&"
            declarator = next(
                (c for c in declarator.named_children if c.type != "type_qualifier"), None
            )
        qualifiers = " ".join(
            parsed.text(c) for c in item.named_children if c.type == "type_qualifier"
        )
        # `tvm::tir::PrimFunc` in a header, `tir::PrimFunc` in the .cc: the same type.
        written = _NAMESPACE.sub("", f"{qualifiers} {text}{marks}")
        types.append("".join(written.split()))
    return tuple(types)


def namespace_of(parsed: ParsedCpp, function: Node) -> str:
    """Return the innermost namespace a definition sits in (`tvm::relay` → relay), or ""."""
    node = parsed.enclosing(function, ("namespace_definition",))
    name = node.child_by_field_name("name") if node is not None else None
    return parsed.text(name).rsplit("::", 1)[-1].strip() if name is not None else ""


def calls(
    parsed: ParsedCpp, name: str, identities: set[str], is_class: Callable[[str], bool]
) -> tuple[list[tuple[Node, Node]], list[Node]]:
    """Return the calls that resolve to the function (one of its `identities`), with their
    argument lists, and the calls of that name that resolve to nothing known
    (`obj.Create(x)` with `obj` declared nowhere lintgv looks). A call on a temporary,
    `Builder(t).Create(x)`, is `Builder`'s when `is_class` says the project defines it."""
    found = []
    unknown = []
    cursor = node_cursor()
    for call in cursor.captures(parsed.root).get("call", []):
        if call_name(parsed, call) != name:
            continue
        arguments = call.child_by_field_name("arguments")
        candidates = {cpp_identity(c) for c in call_candidates(parsed, call, Config())}
        temporary = temporary_class(parsed, call) if not candidates else ""
        if temporary and is_class(temporary):
            candidates = {cpp_identity(f"{temporary}::{name}")}
        if arguments is not None and identities & candidates:
            found.append((call, arguments))
        elif not candidates:
            unknown.append(call)
    return found, unknown


def supply_for(parsed: ParsedCpp, call: Node, threaded: Node | None, parameter: str) -> str | None:
    """Return what a call passes: the new `parameter` inside the function it is added to
    (`threaded`), else the caller's supply, else a supply made from the caller's
    IRModule, else None."""
    if threaded is not None and (
        threaded.start_byte <= call.start_byte and call.end_byte <= threaded.end_byte
    ):
        return parameter
    scope = scope_at(parsed, call)
    supplies = scope.of_type("GlobalVarSupply")
    if supplies:
        return supplies[0].name
    modules = scope.of_type("IRModule")
    if modules:
        module = modules[0]
        return f"GlobalVarSupply({'*' if module.pointer else ''}{module.name})"
    return None
