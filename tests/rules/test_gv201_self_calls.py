"""GV201's recursion shape counts a call as the function calling itself only when it is:
a base class's or another class's method of the same name is not recursion (on a DSL built
on a TVM fork, `CodeGenC::VisitExpr_(op, os)` inside `MyCodeGen::VisitExpr_` made long
printer methods "recursion-shaped" helpers, and every `VisitExpr_` call a GV203)."""

import pytest

from lintgv.helpers.cpp_facts import calls_itself
from lintgv.parsing.cpp import parse_cpp


@pytest.mark.parametrize(
    ("call", "itself"),
    [
        ("VisitExpr_(op, os)", True),
        ("this->VisitExpr_(op, os)", True),
        ("MyCodeGen::VisitExpr_(op, os)", True),
        ("ns::MyCodeGen::VisitExpr_(op, os)", True),
        ("CodeGenC::VisitExpr_(op, os)", False),
        ("this->CodeGenC::VisitExpr_(op, os)", False),
        ("other->VisitExpr_(op, os)", False),
        ("printer_.VisitExpr_(op, os)", False),
        ("VisitStmt_(op)", False),
    ],
)
def test_only_a_call_of_the_function_itself_is_recursion(call: str, itself: bool) -> None:
    parsed = parse_cpp(
        f"void MyCodeGen::VisitExpr_(const CallNode* op, std::ostream& os) {{\n  {call};\n}}\n"
    )
    stack, calls = [parsed.root], []
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            calls.append(node)
        stack.extend(node.named_children)
    (found,) = calls
    assert calls_itself(parsed, found, "VisitExpr_", "MyCodeGen") is itself
