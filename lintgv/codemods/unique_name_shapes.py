"""What a unique-name copy's own text tells: whether it takes a string name and keeps a
name → counter map, and whether its body does nothing but unique the name, so that it
can stay as a wrapper of a supply (`return Doc::Text(name_supply_->FreshName(prefix));`).
"""

import re

import tree_sitter

from lintgv.codemods import cpp_scope
from lintgv.helpers.cpp_name_flow import lvalue_root
from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cpp_nodes import function_declarator, named_descendants

STRING_TYPES = frozenset({"std::string", "string", "String", "runtime::String", "tvm::String"})
MAP_TYPE = re.compile(
    r"^(?:std::)?(?:unordered_)?map<(?:std::string|(?:tvm::)?(?:runtime::)?String),"
    r"(?:int|size_t|int64_t|int32_t|uint32_t|uint64_t)>$"
)


class NotRewritable(Exception):
    """The copy cannot be replaced automatically; the message says why."""


def type_of(parsed: ParsedCpp, declaration: tree_sitter.Node) -> str:
    kind = declaration.child_by_field_name("type")
    text = cpp_scope.normalized(parsed.text(kind)) if kind is not None else ""
    return text.removeprefix("const")


def wrapper_call(parsed: ParsedCpp, function: tree_sitter.Node) -> tuple[str, str]:
    """Return (callee, variable) when every `return` of the function hands the same
    variable to the same call (`return Doc::Text(unique_prefix);`), else ("", "")."""
    body = function.child_by_field_name("body")
    found = set()
    for node in named_descendants(body) if body is not None else ():
        if node.type != "return_statement":
            continue
        value = node.named_children[0] if node.named_child_count else None
        func = value.child_by_field_name("function") if value is not None else None
        arguments = value.child_by_field_name("arguments") if value is not None else None
        if value is None or value.type != "call_expression" or func is None or arguments is None:
            return "", ""
        args = arguments.named_children
        if [a.type for a in args] != ["identifier"]:
            return "", ""
        found.add((cpp_scope.normalized(parsed.text(func)), parsed.text(args[0])))
    return found.pop() if len(found) == 1 else ("", "")


# What a copy's body may call and still be nothing but uniquing: the map's lookups, the
# counter's text, a stream's text. Anything else (a cleaner, a check, a log) would be
# lost with the body.
_UNIQUING_CALLS = frozenset(
    {"find", "count", "end", "insert", "emplace", "str", "to_string", "StrCat"}
)
_LOST = frozenset(
    {"throw_statement", "goto_statement", "try_statement", "lambda_expression", "switch_statement"}
)


def only_uniquing(
    parsed: ParsedCpp, function: tree_sitter.Node, map_name: str, wrapper: tuple[str, str]
) -> str:
    """Return the name parameter of a copy whose body does nothing but unique it and
    hand the unique name, a string, to `wrapper`'s callee; otherwise say what a wrapper
    would lose or get wrong."""
    declarator = function_declarator(function)
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    declared = [
        (p, n.name)
        for p in (params.named_children if params is not None else [])
        for n in cpp_scope.declared(parsed, p, cpp_scope.Kind.PARAMETER)
    ]
    if len(declared) != 1:
        raise NotRewritable("it takes more than the name; a wrapper would lose the rest")
    parameter, name = declared[0]
    if type_of(parsed, parameter) not in STRING_TYPES:
        raise NotRewritable(
            f"it is asked with a `{type_of(parsed, parameter)}`, not a string name; a "
            "NameSupply takes a string"
        )
    body = function.child_by_field_name("body")
    assert body is not None, "a copy is a definition"
    locals_ = {
        b.name: statement
        for statement in named_descendants(body)
        if statement.type == "declaration"
        for b in cpp_scope.declared(parsed, statement, cpp_scope.Kind.LOCAL)
    }
    callee, variable = wrapper
    holder = locals_.get(variable)
    if variable != name and not _starts_as(parsed, holder, variable, name):
        raise NotRewritable(
            f"it returns `{callee}({variable})`, not the name it was asked for made unique"
        )
    # The parameter stays as it came: the supply is asked for exactly that name.
    writable = {*locals_, map_name}
    first = body.named_children[0] if body.named_children else None
    # Every release's supply turns dots into underscores itself: a copy that does so
    # first loses nothing as a wrapper.
    cleaning = first if first is not None and _cleans_dots(parsed, first, name) else None
    for node in named_descendants(body):
        if cleaning is not None and cleaning.start_byte <= node.start_byte < cleaning.end_byte:
            continue
        if _loses(parsed, node, writable, callee) or _changes_first(parsed, node, body, variable):
            line = parsed.text(_statement_of(node, body)).splitlines()[0].strip()
            raise NotRewritable(
                f"it does more than unique the name (`{line}`); a wrapper would lose it"
            )
    return name


def _cleans_dots(parsed: ParsedCpp, statement: tree_sitter.Node, name: str) -> bool:
    """Tell whether `statement` is `std::replace(name.begin(), name.end(), '.', '_');`."""
    call = statement.named_children[0] if statement.type == "expression_statement" else None
    if call is None or call.type != "call_expression":
        return False
    func = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    if func is None or arguments is None:
        return False
    if cpp_scope.normalized(parsed.text(func)) not in ("std::replace", "replace"):
        return False
    args = [cpp_scope.normalized(parsed.text(a)) for a in arguments.named_children]
    return args == [f"{name}.begin()", f"{name}.end()", "'.'", "'_'"]


def _starts_as(
    parsed: ParsedCpp, holder: tree_sitter.Node | None, variable: str, name: str
) -> bool:
    """Tell whether `holder` declares `variable` as a string that starts as the name
    asked for (`std::string unique_prefix = prefix;`)."""
    if holder is None or type_of(parsed, holder) not in STRING_TYPES:
        return False
    for declarator in holder.children_by_field_name("declarator"):
        target = declarator.child_by_field_name("declarator")
        value = declarator.child_by_field_name("value")
        if target is not None and parsed.text(target) == variable:
            return value is not None and parsed.text(value) == name
    return False


def _changes_first(
    parsed: ParsedCpp, node: tree_sitter.Node, body: tree_sitter.Node, variable: str
) -> bool:
    """Tell whether `node` changes the name before any uniquing: a write to it that is a
    statement of the body itself (`unique_prefix += "_v";`), not inside the uniquing
    loop or test."""
    if node.type not in ("assignment_expression", "update_expression"):
        return False
    target = node.child_by_field_name("left") or node.child_by_field_name("argument")
    return (
        target is not None
        and lvalue_root(parsed, target) == {variable}
        and node.parent is not None
        and node.parent.type == "expression_statement"
        and node.parent.parent == body
    )


# Declarations a uniquing body makes: the name, a counter, an iterator, a stream.
_PLAIN_TYPES = STRING_TYPES | frozenset(
    {
        "int", "size_t", "int64_t", "int32_t", "uint32_t", "uint64_t", "unsigned", "auto",
        "std::ostringstream", "std::stringstream", "ostringstream", "stringstream",
    }
)  # fmt: skip


def _loses(parsed: ParsedCpp, node: tree_sitter.Node, writable: set[str], callee: str) -> bool:
    """Tell whether `node` does something a wrapper of the supply would not: calls other
    than uniquing ones, writes to anything but the function's own variables and its map,
    a stream other than its own, preprocessor lines, throws, a declaration of anything
    but a plain value (a lock, a reference or pointer to a member)."""
    kind = node.type
    if kind in _LOST or kind.startswith("preproc"):
        return True
    if kind == "declaration":
        declarators = node.children_by_field_name("declarator")
        plain = all(
            d.type == "identifier"
            or (
                d.type == "init_declarator"
                and (inner := d.child_by_field_name("declarator")) is not None
                and inner.type == "identifier"
            )
            for d in declarators
        )
        return not plain or type_of(parsed, node) not in _PLAIN_TYPES
    if kind == "call_expression":
        func = node.child_by_field_name("function")
        text = cpp_scope.normalized(parsed.text(func)) if func is not None else ""
        bare = text.rsplit("::", 1)[-1].rsplit(".", 1)[-1].rsplit("->", 1)[-1]
        return bare not in _UNIQUING_CALLS and text != callee
    if kind in ("assignment_expression", "update_expression"):
        target = node.child_by_field_name("left") or node.child_by_field_name("argument")
        roots = lvalue_root(parsed, target) if target is not None else set()
        return target is not None and (not roots or not roots <= writable)
    if kind == "binary_expression" and node.child_by_field_name("operator") is not None:
        operator = node.child_by_field_name("operator")
        if operator is not None and parsed.text(operator) == "<<":
            left = node.child_by_field_name("left")
            while left is not None and left.type == "binary_expression":
                left = left.child_by_field_name("left")
            return left is None or left.type != "identifier" or parsed.text(left) not in writable
    return False


def _statement_of(node: tree_sitter.Node, body: tree_sitter.Node) -> tree_sitter.Node:
    while node.parent is not None and node.parent != body:
        node = node.parent
    return node
