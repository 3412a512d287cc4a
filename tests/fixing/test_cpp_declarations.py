"""cpp_callers.declarations reads the declarators of a name, found once per parse;
it answers as a walk of the whole tree for each question did, for every function of a
file with overloads, methods declared in and defined outside their class, namespaces,
and declarations inside function bodies (which are not the function's)."""

from tree_sitter import Node

from lintgv.fixing.cpp_callers import declarations, parameter_types
from lintgv.helpers.cpp_shape import class_name
from lintgv.identities import cpp_identity
from lintgv.parsing.cpp import ParsedCpp, parse_cpp
from lintgv.parsing.cpp_nodes import function_declarator

SOURCE = """\
namespace tvm {
GlobalVar Make(String name);
GlobalVar Make(String name, int n);
class Builder {
 public:
  GlobalVar Make(String name);
  static GlobalVar Fresh(const String& name, Map<String, int>* seen);
};
GlobalVar Builder::Make(String name) { return GlobalVar(name); }
GlobalVar Make(String name) {
  GlobalVar Fresh(const String& n, Map<String, int>* s);  // in a body: not counted
  return GlobalVar(name);
}
}  // namespace tvm
GlobalVar Builder::Fresh(const String& name, Map<String, int>* seen) { return Make(name); }
"""


def _walked(
    parsed: ParsedCpp, name: str, identity: str, types: tuple[str, ...], at: int
) -> tuple[list[Node], int]:
    """The walk each question made before the index."""
    found: list[Node] = []
    others = 0
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
        if written.rsplit("::", 1)[-1] != name:
            continue
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


def test_declarations_are_those_a_walk_of_the_whole_tree_finds() -> None:
    parsed = parse_cpp(SOURCE)
    questions = [
        (name, identity, types, at)
        for name, identity in [
            ("Make", "Make"),
            ("Make", "tvm::Make"),
            ("Make", "Builder::Make"),
            ("Fresh", "Builder::Fresh"),
            ("Fresh", "Fresh"),
            ("Missing", "Missing"),
        ]
        for types in [("String",), ("String", "int"), ("const String&", "Map<String,int>*")]
        for at in [
            -1,
            SOURCE.index("GlobalVar Builder::Make"),
            SOURCE.index("GlobalVar Make(String name) {"),
        ]
    ]
    answered = 0
    for name, identity, types, at in questions:
        expected = _walked(parsed, name, identity, types, at)
        assert declarations(parsed, name, identity, types, at) == expected, (name, identity)
        answered += bool(expected[0]) or bool(expected[1])
    assert answered > 10  # the questions find something
