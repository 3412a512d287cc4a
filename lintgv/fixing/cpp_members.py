"""A supply kept as a member, for supply threading (fixing/threading.py).

Where a caller with no supply to pass is a method of a class the project defines, the
class gets a member `GlobalVarSupply global_var_supply_`, new and empty, and the caller
passes it, as TVM's compiler class (TECompilerImpl) has kept one since TVM's own
migration (PR 12066). Every call one object makes then shares one supply, where a new
supply per call would hand out the same names again on the next call.

The member is declared first in the class body: members are made in the order they are
declared, so one that a constructor's initializer list or another member's initializer
makes by calling a method finds the supply already made. A class is given none when
that is not enough or not clear: a static method, a call outside the method's body, a
class with a `constexpr` constructor (a literal type cannot hold one), a method the class
body does not declare, an out-of-class definition whose class is not the one class the
project defines under that qualified name, or a member name the project uses already.
"""

import re
from collections.abc import Callable
from pathlib import Path

import tree_sitter

from lintgv.model import Edit, Span
from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cpp_nodes import function_declarator
from lintgv.records import frozen

Node = tree_sitter.Node
MEMBER = "global_var_supply_"
NEW_SUPPLY = 'GlobalVarSupply(NameSupply(""))'
_CLASSES = ("class_specifier", "struct_specifier")
_SCOPES = ("namespace_definition", *_CLASSES)
# Where declarations of a class's members sit, nested: `#if` blocks and templates.
_HOLDERS = frozenset(
    {"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "template_declaration"}
)
_DECLARATIONS = frozenset({"field_declaration", "declaration", "function_definition"})
# The files of the project that name a word, parsed (None when one cannot be parsed).
ClassFiles = Callable[[str], dict[Path, ParsedCpp] | None]


@frozen
class Member:
    """The supply member a class is given: where, under which name, and its declaration."""

    path: Path
    key: tuple[Path, int]  # the class body's file and start: one member per class
    owner: str
    name: str
    edit: Edit | None  # None: the class declares it already


def member_for(
    path: Path, parsed: ParsedCpp, method: Node, call: Node, files: ClassFiles
) -> Member | None:
    """Return the member the `call` in `method` (a function definition) can pass, or None
    (see the module docstring)."""
    body = method.child_by_field_name("body")
    if body is None or not body.start_byte <= call.start_byte < body.end_byte:
        return None
    if _is_static(parsed, method):
        return None
    holder = method.parent
    if holder is not None and holder.type == "field_declaration_list":
        owner = holder.parent
        if owner is None or owner.type not in _CLASSES:
            return None
        found: tuple[Path, ParsedCpp, Node] = (path, parsed, owner)
    else:
        qualified = _qualified_name(parsed, method)
        if qualified is None or "::" not in qualified or "<" in qualified:
            return None  # a template's member is not one class
        owner_name, method_name = qualified.rsplit("::", 1)
        located = _class_of(path, parsed, method, owner_name.split("::"), files)
        if located is None or not _declares(located[1], located[2], method_name):
            return None
        found = located
    return _declared(*found, files)


def _is_static(parsed: ParsedCpp, declaration: Node) -> bool:
    return any(
        child.type == "storage_class_specifier" and parsed.text(child) == "static"
        for child in declaration.children
    )


def _qualified_name(parsed: ParsedCpp, function: Node) -> str | None:
    declarator = function_declarator(function)
    inner = declarator.child_by_field_name("declarator") if declarator is not None else None
    return "".join(parsed.text(inner).split()) if inner is not None else None


def _path_of(parsed: ParsedCpp, node: Node) -> list[str]:
    """Return the names of the namespaces and classes around `node`, outermost first."""
    names = []
    for ancestor in parsed.ancestors(node):
        if ancestor.type in _SCOPES:
            named = ancestor.child_by_field_name("name")
            names.append(parsed.text(named) if named is not None else "")
    return names[::-1]


def _class_of(
    path: Path, parsed: ParsedCpp, method: Node, qualifier: list[str], files: ClassFiles
) -> tuple[Path, ParsedCpp, Node] | None:
    """Return the class an out-of-class definition `Q::method` belongs to: looked up as
    C++ does, from the definition's namespace outward, among the classes the project
    defines; None when none or several answer."""
    named = files(qualifier[-1])
    if named is None:
        return None
    candidates = [
        (other, other_parsed, node, [*_path_of(other_parsed, node), _name(other_parsed, node)])
        for other, other_parsed in named.items()
        for node in _classes_named(other_parsed, qualifier[-1])
    ]
    around = _path_of(parsed, method)
    for depth in range(len(around), -1, -1):
        wanted = around[:depth] + qualifier
        matching = [c[:3] for c in candidates if c[3] == wanted]
        if matching:
            return matching[0] if len(matching) == 1 else None
    return None


def _name(parsed: ParsedCpp, node: Node) -> str:
    named = node.child_by_field_name("name")
    return parsed.text(named) if named is not None else ""


def _classes_named(parsed: ParsedCpp, name: str) -> list[Node]:
    """Return the classes and structs of the file named `name` that have a body."""
    found = []
    stack = [parsed.root]
    while stack:
        node = stack.pop()
        if node.type in ("compound_statement", "function_definition"):
            continue
        if (
            node.type in _CLASSES
            and node.child_by_field_name("body") is not None
            and _name(parsed, node) == name
        ):
            found.append(node)
        stack.extend(node.named_children)
    return found


def _declares(parsed: ParsedCpp, owner: Node, method: str) -> bool:
    """Tell whether the class body declares a member function `method`, none of its
    declarations static (in `#if` blocks and templates too; every declarator counts)."""
    body = owner.child_by_field_name("body")
    declared = False
    stack = list(body.named_children) if body is not None else []
    while stack:
        node = stack.pop()
        if node.type in _HOLDERS:
            stack.extend(node.named_children)
            continue
        if node.type not in _DECLARATIONS or method not in _function_names(parsed, node):
            continue
        if _is_static(parsed, node):
            return False
        declared = True
    return declared


def _function_names(parsed: ParsedCpp, declaration: Node) -> set[str]:
    """Return the names of the functions a declaration declares (`F(...), G(...)`)."""
    names = set()
    stack = [c for c in declaration.named_children if c.type != "compound_statement"]
    while stack:
        node = stack.pop()
        if node.type == "function_declarator":
            inner = node.child_by_field_name("declarator")
            if inner is not None:
                names.add("".join(parsed.text(inner).split()).rsplit("::", 1)[-1])
        elif node.type not in ("compound_statement", "field_declaration_list"):
            stack.extend(node.named_children)
    return names


def _declared(path: Path, parsed: ParsedCpp, owner: Node, files: ClassFiles) -> Member | None:
    """Return the member declared first in the body of class `owner`."""
    body = owner.child_by_field_name("body")
    if body is None or not body.children or body.children[0].type != "{":
        return None
    owner_name = _name(parsed, owner)
    key = (path, body.start_byte)
    existing = _existing(parsed, body)
    if existing is not None:
        return Member(path, key, owner_name, existing, None)
    if re.search(r"\bconstexpr\b", parsed.text(body)):
        return None  # a literal type's members must be literal too
    # The name must be new to every file that names the class: an out-of-class method's
    # local, or a namespace's variable of that name, would be hidden or would hide it.
    named = files(owner_name)
    if named is None:
        return None
    if any(MEMBER.encode() in other.data for other in (parsed, *named.values())):
        return None
    declaration = f"GlobalVarSupply {MEMBER} = {NEW_SUPPLY};"
    if "tvm" not in _path_of(parsed, owner):  # a class of another namespace names TVM's
        qualified = 'tvm::GlobalVarSupply(tvm::NameSupply(""))'
        declaration = f"tvm::GlobalVarSupply {MEMBER} = {qualified};"
    # Right after the `{`, so in the class's default section (private in a class).
    opening = body.children[0]
    line, column = parsed.position(opening.end_byte)
    if body.children[-1].start_point[0] == opening.start_point[0]:
        # `class C { ... };` on one line: the member goes right after its `{`.
        edit = Edit(Span(line, column, line, column), f" {declaration}", "")
        return Member(path, key, owner_name, MEMBER, edit)
    members = [c for c in body.named_children if c.type in _DECLARATIONS]
    indent = _indent_of(parsed, members[0]) if members else _indent_of(parsed, owner) + "  "
    # The line after the `{` (its 0-based row plus one, as a 1-based line).
    at = opening.start_point[0] + 2
    edit = Edit(Span(at, 0, at, 0), f"{indent}{declaration}\n", "")
    return Member(path, key, owner_name, MEMBER, edit)


def _existing(parsed: ParsedCpp, body: Node) -> str | None:
    """Return the name of a GlobalVarSupply member this file's class body declares
    already (one a change before gave it), or None."""
    for child in body.named_children:
        if child.type == "field_declaration" and MEMBER in parsed.text(child):
            kind = child.child_by_field_name("type")
            if kind is not None and parsed.text(kind).endswith("GlobalVarSupply"):
                return MEMBER
    return None


def _indent_of(parsed: ParsedCpp, node: Node) -> str:
    row = node.start_point[0]
    start = parsed.line_starts[row]
    line = parsed.data[start : start + node.start_point[1]].decode("utf-8", "replace")
    return line[: len(line) - len(line.lstrip())]
