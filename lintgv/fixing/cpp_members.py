"""A supply kept as a member, for supply threading (fixing/threading.py).

Where a caller with no supply to pass is a method of a class the project defines, the
class gets a member `GlobalVarSupply global_var_supply_`, new and empty, and the caller
passes it, as TVM's compiler class (TECompilerImpl) has kept one since TVM's own
migration (PR 12066). Every call one object makes then shares one supply, where a new
supply per call would hand out the same names again on the next call.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import tree_sitter

from lintgv.codemods.cpp_scope import identifiers
from lintgv.codemods.names import free_name
from lintgv.model import Edit, Span
from lintgv.parsing.cpp import ParsedCpp

Node = tree_sitter.Node
MEMBER = "global_var_supply_"
NEW_SUPPLY = 'GlobalVarSupply(NameSupply(""))'
_CLASSES = ("class_specifier", "struct_specifier")
# The files of the project that name a class, parsed (None when one cannot be parsed).
ClassFiles = Callable[[str], dict[Path, ParsedCpp] | None]


@dataclass(frozen=True)
class Member:
    """The supply member a class is given: where, under which name, and its declaration."""

    path: Path
    key: tuple[Path, int]  # the class body's file and start: one member per class
    owner: str
    name: str
    edit: Edit


def member_for(
    path: Path, parsed: ParsedCpp, method: Node, call: Node, files: ClassFiles
) -> Member | None:
    """Return the member the `call` in `method` (a function definition) can pass, or None
    when `method` is no method of one class the project defines, or a static one, or the
    call is not in its body (a constructor's initializer list runs before the member,
    declared last, is made)."""
    body = method.child_by_field_name("body")
    if body is None or not body.start_byte <= call.start_byte < body.end_byte:
        return None
    if _is_static(parsed, method):
        return None
    body = method.parent
    if body is not None and body.type == "field_declaration_list":
        owner = body.parent
        name = owner.child_by_field_name("name") if owner is not None else None
        if owner is None or owner.type not in _CLASSES or name is None:
            return None
        return _declared(path, parsed, owner, parsed.text(name))
    qualified = _qualified_name(parsed, method)
    if qualified is None or "::" not in qualified:
        return None
    owner_name, method_name = qualified.rsplit("::", 1)
    bare = owner_name.rsplit("::", 1)[-1]
    if "<" in bare:
        return None  # a template's member: its definition is not one class
    named = files(bare)
    if named is None:
        return None
    found = [
        (other, other_parsed, node)
        for other, other_parsed in named.items()
        for node in _classes_named(other_parsed, bare)
    ]
    if len(found) != 1:
        return None  # none in the project, or several a name cannot tell apart
    other, other_parsed, owner = found[0]
    if _declares_static(other_parsed, owner, method_name):
        return None
    return _declared(other, other_parsed, owner, bare)


def _is_static(parsed: ParsedCpp, function: Node) -> bool:
    return any(
        child.type == "storage_class_specifier" and parsed.text(child) == "static"
        for child in function.children
    )


def _qualified_name(parsed: ParsedCpp, function: Node) -> str | None:
    declarator = function.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    inner = declarator.child_by_field_name("declarator") if declarator is not None else None
    return "".join(parsed.text(inner).split()) if inner is not None else None


def _classes_named(parsed: ParsedCpp, name: str) -> list[Node]:
    """Return the classes and structs of the file named `name` that have a body."""
    found = []
    stack = [parsed.root]
    while stack:
        node = stack.pop()
        if node.type in ("compound_statement", "function_definition"):
            continue
        if node.type in _CLASSES:
            named = node.child_by_field_name("name")
            if (
                node.child_by_field_name("body") is not None
                and named is not None
                and parsed.text(named).rsplit("::", 1)[-1] == name
            ):
                found.append(node)
        stack.extend(node.named_children)
    return found


def _declares_static(parsed: ParsedCpp, owner: Node, method: str) -> bool:
    """Tell whether the class body declares a static member function named `method`."""
    body = owner.child_by_field_name("body")
    for child in body.named_children if body is not None else ():
        if child.type not in ("field_declaration", "declaration", "function_definition"):
            continue
        if _is_static(parsed, child) and _qualified_name(parsed, child) == method:
            return True
    return False


def _declared(path: Path, parsed: ParsedCpp, owner: Node, owner_name: str) -> Member | None:
    """Return the member declared last in the body of class `owner`, private in a class."""
    body = owner.child_by_field_name("body")
    if body is None or not body.children or body.children[-1].type != "}":
        return None
    name = free_name(identifiers(parsed, body), MEMBER)
    declaration = f"GlobalVarSupply {name} = {NEW_SUPPLY};"
    specifiers = [c for c in body.named_children if c.type == "access_specifier"]
    closing = body.children[-1]
    row, column = closing.start_point
    line_start = parsed.line_starts[row]
    before = parsed.data[line_start : line_start + column].decode("utf-8", "replace")
    if before.strip():  # `class C { ... };` on one line: the member goes before its `}`
        line, col = parsed.position(closing.start_byte)
        return Member(
            path,
            (path, body.start_byte),
            owner_name,
            name,
            Edit(Span(line, col, line, col), f"{declaration} ", ""),
        )
    members = [c for c in body.named_children if c.type not in ("access_specifier", "comment")]
    indent = _indent_of(parsed, members[-1]) if members else before + "  "
    text = f"{indent}{declaration}\n"
    last = parsed.text(specifiers[-1]).strip() if specifiers else ""
    if owner.type == "class_specifier" and last not in ("", "private"):
        text = f"{_indent_of(parsed, specifiers[-1])}private:\n{text}"
    edit = Edit(Span(row + 1, 0, row + 1, 0), text, "")
    return Member(path, (path, body.start_byte), owner_name, name, edit)


def _indent_of(parsed: ParsedCpp, node: Node) -> str:
    row = node.start_point[0]
    start = parsed.line_starts[row]
    line = parsed.data[start : start + node.start_point[1]].decode("utf-8", "replace")
    return line[: len(line) - len(line.lstrip())]
