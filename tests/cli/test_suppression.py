"""Suppression comments through the CLI: where they work, and GV901/GV902 when they are wrong."""

import json


def _codes_by_line(lintgv, root) -> list[tuple[str, int]]:
    result = lintgv("check", "--no-cache", "--format", "json", ".", cwd=root)
    return [(f["code"], f["line"]) for f in json.loads(result.stdout)["findings"]]


def test_python_comment_on_the_line_suppresses(lintgv, project) -> None:
    root = project({"a.py": "import tvm\ngv = tvm.ir.GlobalVar('f')  # lintgv: ignore[GV101]\n"})
    assert _codes_by_line(lintgv, root) == []


def test_cpp_comment_on_the_line_suppresses(lintgv, project) -> None:
    root = project({"a.cc": 'GlobalVar gv("f");  // lintgv: ignore[GV101]\n'})
    assert _codes_by_line(lintgv, root) == []


def test_python_comment_on_a_statements_first_line_covers_its_other_lines(lintgv, project) -> None:
    code = (
        "import tvm\n"
        "pair = (  # lintgv: ignore[GV101]\n"
        "    tvm.ir.GlobalVar('a'),\n"
        "    tvm.ir.GlobalVar('b'),\n"
        ")\n"
    )
    root = project({"a.py": code})
    assert _codes_by_line(lintgv, root) == []


def test_cpp_comment_on_a_statements_first_line_covers_its_other_lines(lintgv, project) -> None:
    code = (
        "void F(IRModule mod) {\n"
        "  mod->Add(  // lintgv: ignore[GV101]\n"
        '      GlobalVar("a"),\n'
        "      f);\n"
        "}\n"
    )
    root = project({"a.cc": code})
    assert _codes_by_line(lintgv, root) == []


def test_comment_on_a_later_line_of_a_statement_covers_only_that_line(lintgv, project) -> None:
    code = (
        "import tvm\n"
        "pair = (\n"
        "    tvm.ir.GlobalVar('a'),  # lintgv: ignore[GV101]\n"
        "    tvm.ir.GlobalVar('b'),\n"
        ")\n"
    )
    root = project({"a.py": code})
    assert _codes_by_line(lintgv, root) == [("GV101", 4)]


def test_comment_on_the_line_above_does_not_suppress(lintgv, project) -> None:
    code = "import tvm\n# lintgv: ignore[GV101]\ngv = tvm.ir.GlobalVar('f')\n"
    root = project({"a.py": code})
    assert _codes_by_line(lintgv, root) == [("GV902", 2), ("GV101", 3)]


def test_comment_for_another_code_does_not_suppress(lintgv, project) -> None:
    root = project({"a.cc": 'GlobalVar gv("f");  // lintgv: ignore[GV201]\n'})
    assert _codes_by_line(lintgv, root) == [("GV101", 1), ("GV902", 1)]


def test_bare_ignore_suppresses_nothing_and_is_reported(lintgv, project) -> None:
    root = project(
        {
            "a.py": "import tvm\ngv = tvm.ir.GlobalVar('f')  # lintgv: ignore\n",
            "b.cc": 'GlobalVar gv("f");  // lintgv: ignore\n',
        }
    )
    assert _codes_by_line(lintgv, root) == [
        ("GV101", 2),
        ("GV901", 2),
        ("GV101", 1),
        ("GV901", 1),
    ]


def test_unused_suppression_is_reported_in_both_languages(lintgv, project) -> None:
    root = project(
        {
            "a.py": "x = 1  # lintgv: ignore[GV101]\n",
            "b.cc": "int x = 1;  // lintgv: ignore[GV101]\n",
        }
    )
    assert _codes_by_line(lintgv, root) == [("GV902", 1), ("GV902", 1)]


def test_unused_suppression_of_an_unselected_rule_is_not_reported(lintgv, project) -> None:
    root = project({"a.py": "x = 1  # lintgv: ignore[GV101]\n"})
    result = lintgv("check", "--no-cache", "--select", "GV2,GV9", ".", cwd=root)
    assert result.returncode == 0, result.stdout


def test_suppression_text_in_a_string_is_not_a_comment(lintgv, project) -> None:
    code = "import tvm\ngv = tvm.ir.GlobalVar('# lintgv: ignore[GV101]')\n"
    root = project({"a.py": code})
    assert _codes_by_line(lintgv, root) == [("GV101", 2)]
