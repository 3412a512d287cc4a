"""Which function a C++ call names, as far as syntax tells: the namespaces around it, the
class it is made from, and the macros that could hide a call.

tree-sitter gives no name lookup. A rewrite that removes a function must not miss one of
its calls, nor take another function's call for one: these helpers answer from the
namespaces and classes written around the call, and say when they cannot tell.
"""

import re

import tree_sitter

from lintgv.codemods.cpp_scope import normalized
from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cpp_nodes import function_declarator

Namespace = tuple[str, ...]


def namespace_of(parsed: ParsedCpp, node: tree_sitter.Node) -> Namespace:
    """Return the named namespaces around `node`, outermost first (an anonymous or inline
    one adds nothing to a name)."""
    names: list[str] = []
    for ancestor in parsed.ancestors(node):
        if ancestor.type != "namespace_definition":
            continue
        name = ancestor.child_by_field_name("name")
        if name is not None:
            names[:0] = normalized(parsed.text(name)).split("::")
    return tuple(names)


def tvm_name(parsed: ParsedCpp, node: tree_sitter.Node, name: str) -> str:
    """Return how to name TVM's `name` at `node`: as it is inside namespace tvm, else
    qualified (`tvm::NameSupply`), which holds with or without a using-directive."""
    return name if namespace_of(parsed, node)[:1] == ("tvm",) else f"tvm::{name}"


def qualifier(parsed: ParsedCpp, callee: tree_sitter.Node) -> tuple[bool, Namespace]:
    """Return (from the global namespace, the qualifier's parts) of a called name:
    `::a::F` gives (True, ("a",)), `tec::F` (False, ("tec",)), `F` (False, ())."""
    text = normalized(parsed.text(callee))
    parts = text.split("::")
    absolute = parts[0] == ""
    return absolute, tuple(p for p in parts[:-1] if p)


def candidates(within: Namespace, absolute: bool, qualified: Namespace) -> list[Namespace]:
    """Return the namespaces a name qualified so, used inside `within`, can be in, the
    innermost first (ordinary lookup through the enclosing namespaces; no `using`)."""
    if absolute:
        return [qualified]
    return [within[:depth] + qualified for depth in range(len(within), -1, -1)]


def declares_method(parsed: ParsedCpp, cls: tree_sitter.Node, name: str) -> bool:
    """Tell whether the class body `cls` declares or defines a member function `name`
    (which hides any function of that name outside the class, whatever its parameters)."""
    body = cls.child_by_field_name("body")
    for member in body.named_children if body is not None else []:
        if member.type not in ("field_declaration", "function_definition", "declaration"):
            continue
        declarator = function_declarator(member)
        inner = declarator.child_by_field_name("declarator") if declarator is not None else None
        if inner is not None and normalized(parsed.text(inner)) == name:
            return True
    return False


def macro_mentions(parsed: ParsedCpp, name: str) -> tree_sitter.Node | None:
    """Return the first `#define` whose body names `name`: a call there is out of reach
    of a rewrite, which sees only the text the macro is used in."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    stack = [parsed.root]
    while stack:
        node = stack.pop()
        if node.type in ("preproc_def", "preproc_function_def"):
            value = node.child_by_field_name("value")
            if value is not None and word.search(parsed.text(value)):
                return node
            continue
        stack.extend(reversed(node.named_children))
    return None


def accessed(node: tree_sitter.Node) -> tuple[tree_sitter.Node, tree_sitter.Node | None]:
    """Return the expression that uses the member `node` names (`node` itself, or
    `this->node`, `info->node` when it is the field of one), and that expression's parent."""
    parent = node.parent
    if (
        parent is not None
        and parent.type == "field_expression"
        and parent.child_by_field_name("field") == node
    ):
        return parent, parent.parent
    return node, parent
