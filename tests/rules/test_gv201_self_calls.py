"""GV201's recursion shape counts a call as the function calling itself only when it is:
a base class's or another class's method of the same name is not recursion (on a DSL built
on a TVM fork, `CodeGenC::VisitExpr_(op, os)` inside `MyCodeGen::VisitExpr_` made long
printer methods "recursion-shaped" helpers, and every `VisitExpr_` call a GV203)."""

import re
from pathlib import Path

import pytest

from lintgv.config import Config
from lintgv.engine import check
from lintgv.helpers.cpp_facts import calls_itself
from lintgv.helpers.names import CPP_SHAPE_TRIGGERS
from lintgv.model import Language, SourceFile
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


RETURNS = [
    "OpName(name + std::to_string(index))",
    "this->OpName(name + std::to_string(index))",
    "std::move(OpName(name + std::to_string(index)))",
    "{OpName(name + std::to_string(index))}",
    "(OpName(name + std::to_string(index)))",
    "index > 0 ? OpName(name + std::to_string(index)) : name",
    "index > 0 ? name : OpName(name + std::to_string(index))",
]


@pytest.mark.parametrize("returned", RETURNS)
def test_recursion_is_found_however_the_return_wraps_the_call(
    returned: str, tmp_path: Path
) -> None:
    """_GetUniqueName's recursion, its answer returned through a move, braces, parentheses
    or a conditional: each is the same copy."""
    text = (
        "class GraphCodegen {\n  std::string OpName(const std::string& name) {\n"
        "    if (!name_map_.count(name)) {\n      name_map_[name] = 1;\n"
        "      return name;\n    }\n    auto index = name_map_[name];\n"
        f"    name_map_[name] += 1;\n    return {returned};\n  }}\n}};\n"
    )
    source = SourceFile(tmp_path / "a.cc", Language.CPP, text)
    findings = check(source, Config(root=tmp_path)).findings
    assert [(f.code, f.span.start_line) for f in findings if f.code == "GV201"] == [("GV201", 2)]


def test_a_wrapped_call_of_another_function_is_no_recursion(tmp_path: Path) -> None:
    text = (
        "std::string Label(const std::string& name, int index) {\n"
        "  if (!seen_.count(name)) return name;\n"
        "  return std::move(Format(name + std::to_string(index + 1)));\n}\n"
    )
    source = SourceFile(tmp_path / "a.cc", Language.CPP, text)
    assert [f for f in check(source, Config(root=tmp_path)).findings if f.code == "GV201"] == []


@pytest.mark.parametrize(
    ("text", "triggers"),
    [
        ("  return Unique(name + std::to_string(i));\n", True),
        ("  if (seen) return Unique(name, i + 1);\n", True),
        ("{return name + std::to_string(used[name]);}\n", True),
        # A counter kept in the map, returned through a variable named after it.
        ("  auto returned = OpName(name + std::to_string(map_[name]));\n", True),
        ("  co_return Unique(name, i + 1);\n", True),
        # Not the keyword: the end of an attribute, or a comment's prose running on into
        # the code below it.
        ("[[noreturn]] void Fatal(int line) {\n  throw Error(std::to_string(line));\n}\n", False),
        ("/*!\n * \\return Label(name) + 1 when the name is taken\n */\n", False),
        ("/*! @return name + std::to_string(used[name]) */\n", False),
    ],
)
def test_the_return_shapes_trigger_on_the_keyword_alone(text: str, triggers: bool) -> None:
    """A trigger match costs a parse of the whole file: on TVM v0.16, `[[noreturn]]` and
    Doxygen's `\\return` made 11 files that hold no copy be parsed."""
    returns = [p for p in CPP_SHAPE_TRIGGERS if p.startswith("return")]
    assert len(returns) == 2
    assert any(re.search(p, text) for p in returns) is triggers
