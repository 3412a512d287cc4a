"""Walking tree-sitter C++ nodes: every named node below one, and the declarators of a
function (through the `&` of a return type, which has no `declarator` field)."""

from collections.abc import Iterator

import tree_sitter

Node = tree_sitter.Node
# The statements that repeat their body.
LOOPS = frozenset({"for_statement", "for_range_loop", "while_statement", "do_statement"})
_FUNCTION_DECLARATORS = frozenset({"function_declarator", "abstract_function_declarator"})


def named_descendants(node: Node) -> Iterator[Node]:
    """Yield every named node below `node` (not `node` itself), depth first."""
    stack = list(node.named_children)
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.named_children)


def inner_declarator(declarator: Node) -> Node | None:
    """Return the declarator inside `declarator`: its `declarator` field, or for a
    reference (`const std::string& F(...)`), which has none, its declarator child."""
    inner = declarator.child_by_field_name("declarator")
    if inner is not None:
        return inner
    return next(
        (
            c
            for c in declarator.named_children
            if c.type.endswith("declarator") or c.type == "identifier"
        ),
        None,
    )


def function_declarator(function: Node) -> Node | None:
    """Return the declarator that holds the parameters of a function definition, of a
    declaration (its first declarator) or of a lambda, or None when it has none."""
    return function_declarator_in(function.child_by_field_name("declarator"))


def function_declarator_in(declarator: Node | None) -> Node | None:
    """Return `declarator`, or the declarator inside it, that holds a function's
    parameters (past the `*`, `&` and parentheses a return type puts around it), or None
    when it has none."""
    while declarator is not None and declarator.type not in _FUNCTION_DECLARATORS:
        declarator = inner_declarator(declarator)
    return declarator


def listed(node: tree_sitter.Node | None) -> list[tree_sitter.Node]:
    """Return the items of an argument or parameter list, comments left out."""
    return [c for c in node.named_children if c.type != "comment"] if node is not None else []


def parameters(declarator: tree_sitter.Node | None) -> list[tree_sitter.Node]:
    """Return the parameters a function declarator lists, comments left out."""
    return listed(declarator.child_by_field_name("parameters") if declarator else None)


def within(outer: tree_sitter.Node, node: tree_sitter.Node) -> bool:
    """Tell whether `node` starts inside `outer` (of the same parse)."""
    return outer.start_byte <= node.start_byte < outer.end_byte
