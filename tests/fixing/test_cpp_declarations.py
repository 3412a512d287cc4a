"""cpp_callers.declarations: the declarations of a function in a file with overloads,
methods declared in and defined outside their class, namespaces, and a declaration
inside a function body (which is not the function's). What a name finds is kept per
parse: asked again, in any order, a parse answers as a fresh one does."""

from lintgv.fixing.cpp_callers import declarations
from lintgv.parsing.cpp import ParsedCpp, parse_cpp

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


FRESH = ("constString&", "Map<String,int>*")  # parameter types as written, blanks out
MAKE_AT = SOURCE.index("GlobalVar Make(String name) {")
METHOD_AT = SOURCE.index("GlobalVar Builder::Make")
FRESH_AT = SOURCE.index("GlobalVar Builder::Fresh(")
# (name, identity, parameter types, the definition's byte), and the lines of the
# declarations found with how many others of the name there are.
QUESTIONS = [
    # The other overload, and the definition where no definition was given.
    (("Make", "Make", ("String",), -1), ([2], 2)),
    (("Make", "Make", ("String",), MAKE_AT), ([2], 1)),
    (("Make", "Make", ("String", "int"), -1), ([3], 2)),
    # The method: its declaration in the class, its definition outside.
    (("Make", "Builder::Make", ("String",), METHOD_AT), ([6], 0)),
    (("Make", "Builder::Make", ("String",), -1), ([6], 1)),
    (("Fresh", "Builder::Fresh", FRESH, FRESH_AT), ([7], 0)),
    # Other parameter types: both the declaration and the definition are others; the
    # declaration in Make's body is none.
    (("Fresh", "Builder::Fresh", ("int",), FRESH_AT), ([], 2)),
    # A free Fresh is declared only in a body, which is none of the file's declarations.
    (("Fresh", "Fresh", ("int",), -1), ([], 0)),
    (("Missing", "Missing", (), -1), ([], 0)),
]


def _answer(
    parsed: ParsedCpp, question: tuple[str, str, tuple[str, ...], int]
) -> tuple[list[int], int]:
    found, others = declarations(parsed, *question)
    return [node.start_point.row + 1 for node in found], others


def test_each_declaration_is_found_and_every_other_counted() -> None:
    for question, expected in QUESTIONS:
        assert _answer(parse_cpp(SOURCE), question) == expected, question


def test_a_parse_asked_again_in_any_order_answers_as_a_fresh_one() -> None:
    parsed = parse_cpp(SOURCE)
    for question, expected in [*QUESTIONS, *reversed(QUESTIONS), *QUESTIONS]:
        assert _answer(parsed, question) == expected, question
