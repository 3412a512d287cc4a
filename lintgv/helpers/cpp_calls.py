"""Which function a C++ call may call, as helper identities (`Class::Method` or a free
function's name), for GV203: a call counts only when it resolves to a known helper, never
because an unrelated class has a method of the same name.
"""

import re

import tree_sitter

from lintgv.config import Config
from lintgv.helpers.cpp_shape import unit_of
from lintgv.parsing.cpp import FUNCTION_NODES, ParsedCpp, compile_query

Node = tree_sitter.Node
_TEMPLATE = re.compile(r"<[^<>]*>")
_QUALIFIERS = frozenset({"const", "volatile", "struct", "class"})
_NAMES = frozenset({"identifier", "field_identifier"})


def enclosing_class(parsed: ParsedCpp, node: Node, config: Config) -> str:
    """Return the class whose method holds `node` (`CodeGenC` in `CodeGenC::Visit`), or ""."""
    # A lambda in a method is still the method's: look past it.
    outer = parsed.enclosing(node, ("function_definition",))
    unit = unit_of(parsed, outer, config) if outer is not None else None
    if unit is None or "::" not in unit.qualified:
        return ""
    return unit.qualified.rsplit("::", 1)[0].rsplit("::", 1)[-1]


def call_candidates(parsed: ParsedCpp, call: Node, config: Config) -> frozenset[str]:
    """Return the identities `call` may call: `F(x)` in a method of `C` → {C::F, F};
    `this->F(x)` → {C::F}; `X::F(x)` → {X::F}; `obj->F(x)` → {T::F} when `obj` is declared
    in the function with type `T`; `T(a).F(x)` → {T::F} when the file defines class `T`;
    else nothing."""
    func = call.child_by_field_name("function")
    if func is not None and func.type == "template_function":
        func = func.child_by_field_name("name")
    if func is None:
        return frozenset()
    if func.type == "identifier":
        name = parsed.text(func)
        owner = enclosing_class(parsed, call, config)
        return frozenset({f"{owner}::{name}", name} if owner else {name})
    if func.type == "qualified_identifier":
        text = _TEMPLATE.sub("", "".join(parsed.text(func).split())).lstrip(":")
        scope, _, name = text.rpartition("::")
        return frozenset({text, f"{scope.rsplit('::', 1)[-1]}::{name}"})
    if func.type == "field_expression":
        field = func.child_by_field_name("field")
        receiver = func.child_by_field_name("argument")
        if field is None or receiver is None:
            return frozenset()
        name = parsed.text(field)
        if parsed.text(receiver) in ("this", "(*this)"):
            owner = enclosing_class(parsed, call, config)
            return frozenset({f"{owner}::{name}"} if owner else ())
        if receiver.type == "identifier":
            owner = _declared_class(parsed, call, parsed.text(receiver))
            return frozenset({f"{owner}::{name}"} if owner else ())
        owner = temporary_class(parsed, call)
        return frozenset({f"{owner}::{name}"} if owner and defines_class(parsed, owner) else ())
    return frozenset()


def temporary_class(parsed: ParsedCpp, call: Node) -> str:
    """Return `T` for a method call on a temporary, `T(a, b).F(x)`, or "": whether `T`
    is a class (and not a function returning something else) is for the caller to tell."""
    func = call.child_by_field_name("function")
    receiver = func.child_by_field_name("argument") if func is not None else None
    if func is None or func.type != "field_expression" or receiver is None:
        return ""
    if receiver.type != "call_expression":
        return ""
    callee = receiver.child_by_field_name("function")
    if callee is None or callee.type not in ("identifier", "qualified_identifier"):
        return ""
    return _TEMPLATE.sub("", "".join(parsed.text(callee).split())).rsplit("::", 1)[-1]


# Classes and structs the file defines (with a body), by the name they are defined under.
_DEFINED_CLASSES = (
    "[(class_specifier name: (_) @name body: (_)) (struct_specifier name: (_) @name body: (_))]"
)


def defines_class(parsed: ParsedCpp, name: str) -> bool:
    """Tell whether the file defines a class or struct `name` (`A::name` included)."""
    cursor = tree_sitter.QueryCursor(compile_query(_DEFINED_CLASSES))
    return any(
        "".join(parsed.text(node).split()).rsplit("::", 1)[-1] == name
        for node in cursor.captures(parsed.root).get("name", [])
    )


def _declared_class(parsed: ParsedCpp, node: Node, variable: str) -> str:
    """Return the class of `variable` as the enclosing function declares it (a parameter
    or a local: `Extractor* e`, `const Namer& n`; `auto n = Namer()` is not followed), or
    as a class around the call declares it (a member: `Namespace ns;`)."""
    outer = parsed.enclosing(node, FUNCTION_NODES)
    if outer is None:
        return ""
    local = _local_class(parsed, node, outer, variable)
    return local or _member_class(parsed, outer, variable)


def _member_class(parsed: ParsedCpp, function: Node, variable: str) -> str:
    """Return the class of a member `variable` of a class whose body holds `function`."""
    for body in parsed.ancestors(function):
        if body.type == "field_declaration_list":
            for field in body.named_children:
                kind = field.child_by_field_name("type")
                if (
                    field.type == "field_declaration"
                    and kind is not None
                    and variable in _declared_names(parsed, field)
                ):
                    return _class_of(parsed.text(kind))
    return ""


def _local_class(parsed: ParsedCpp, node: Node, outer: Node, variable: str) -> str:
    stack = [outer]
    while stack:
        current = stack.pop()
        if current.type in ("parameter_declaration", "declaration") and current.start_byte < (
            node.start_byte
        ):
            kind = current.child_by_field_name("type")
            if kind is not None and variable in _declared_names(parsed, current):
                return _class_of(parsed.text(kind))
        if current is not outer and current.type in ("function_definition", "lambda_expression"):
            continue
        stack.extend(current.named_children)
    return ""


def _declared_names(parsed: ParsedCpp, declaration: Node) -> set[str]:
    names = set()
    for child in declaration.children_by_field_name("declarator"):
        while child.type in (
            "pointer_declarator",
            "reference_declarator",
            "init_declarator",
            "array_declarator",
        ):
            inner = child.child_by_field_name("declarator")
            if inner is None:
                inner = next((c for c in child.named_children if c.type in _NAMES), None)
            if inner is None:
                break
            child = inner
        if child.type in _NAMES:
            names.add(parsed.text(child))
    return names


def _class_of(type_text: str) -> str:
    """Return the class a declared type names: `const ns::Namer<T>*` → Namer."""
    words = [w for w in _TEMPLATE.sub("", type_text).split() if w not in _QUALIFIERS]
    return words[-1].rsplit("::", 1)[-1].strip("*&") if words else ""
