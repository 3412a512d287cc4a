"""Files that cannot be checked get a precise entry in `errors`, and the run goes on."""

import json
import sys

import tree_sitter

from lintgv.parsing.cpp import language

GOOD = "import tvm\ngv = tvm.ir.GlobalVar('main')\n"


def _run_json(lintgv, root, *extra: str) -> tuple[int, dict]:
    result = lintgv("check", "--no-cache", "--format", "json", *extra, ".", cwd=root)
    return result.returncode, json.loads(result.stdout)


def _error_of(document: dict, path: str) -> dict:
    [error] = [e for e in document["errors"] if e["path"] == path]
    return error


def test_file_that_is_not_utf8_is_named_with_the_byte(lintgv, project) -> None:
    root = project({"good.py": GOOD, "latin1.py": b"x = 1\nname = '\xe9t\xe9'\n"})
    code, document = _run_json(lintgv, root)
    assert code == 3
    error = _error_of(document, "latin1.py")
    assert error["message"] == "not valid UTF-8 (byte 0xe9 at offset 14); not checked"
    assert (error["line"], error["column"]) == (2, 9)
    assert [f["path"] for f in document["findings"]] == ["good.py"]


def test_binary_file_with_a_source_suffix_is_named(lintgv, project) -> None:
    root = project({"good.py": GOOD, "blob.cc": b"GlobalVar\x00\x01\x02"})
    code, document = _run_json(lintgv, root)
    assert code == 3
    assert _error_of(document, "blob.cc")["message"] == "binary file (NUL byte); not checked"
    assert len(document["findings"]) == 1


def test_file_over_max_file_size_is_named_with_its_size(lintgv, project) -> None:
    root = project(
        {"good.py": GOOD, "huge.cc": "// padding\n" * 200, "lintgv.toml": "max-file-size = 1000\n"}
    )
    code, document = _run_json(lintgv, root)
    assert code == 3
    message = _error_of(document, "huge.cc")["message"]
    assert message == (
        "file is 2,200 bytes, over max-file-size (1,000); raise `max-file-size` to check it"
    )


def test_unparsable_python_is_named_with_line_and_column(lintgv, project) -> None:
    root = project({"good.py": GOOD, "broken.py": "import tvm\ngv = tvm.ir.GlobalVar('f'\n"})
    code, document = _run_json(lintgv, root)
    assert code == 3
    error = _error_of(document, "broken.py")
    assert error["line"] >= 2
    assert "pars" in error["message"].lower() or "syntax" in error["message"].lower()
    assert [f["path"] for f in document["findings"]] == ["good.py"]


def test_cpp_with_a_local_syntax_error_is_still_checked(lintgv, project) -> None:
    # tree-sitter recovers from errors, so a macro-heavy file still gets its findings.
    code = (
        "TVM_DECLARE_THING(a b c;\n"
        "void F(IRModule mod) {\n"
        '  GlobalVar gv("f");\n'
        "  mod->Add(gv, f);\n"
        "}\n"
    )
    root = project({"odd.cc": code})
    code_, document = _run_json(lintgv, root)
    assert (code_, document["errors"]) == (1, [])
    assert [f["line"] for f in document["findings"]] == [3]


def test_cpp_that_is_mostly_syntax_errors_is_named(lintgv, project) -> None:
    root = project({"good.py": GOOD, "odd.cc": ')))) ]]]] }}}} GlobalVar gv("f") ]]]] )))) }}}}\n'})
    code, document = _run_json(lintgv, root)
    assert code == 3
    error = _error_of(document, "odd.cc")
    assert error["message"].startswith("C++ could not be parsed: ")
    assert (error["line"], error["column"]) == (1, 1)


def test_text_format_names_the_bad_file_and_continues(lintgv, project) -> None:
    root = project({"good.py": GOOD, "latin1.py": b"name = '\xe9'\n"})
    result = lintgv("check", "--no-cache", ".", cwd=root)
    assert result.returncode == 3
    assert "latin1.py:1:9: error: not valid UTF-8" in result.stdout
    assert "good.py:2:6: GV101" in result.stdout
    summary = "Found 1 finding in 1 file (2 checked); 1 could not be checked.\n"
    assert result.stdout.endswith(summary)


def test_cpp_wrapped_whole_in_one_error_is_checked(lintgv, project) -> None:
    # Reduced from dmlc-core's json.h: tree-sitter wraps the whole file in one ERROR node;
    # the function it recognised inside is still checked.
    lines = [
        "  inline void DeclareField(const std::string &key, T *addr) {",
        "    ::dmlc::json::AnyJSONManager::Global()->EnableType<Type>(#KeyName) \\",
        "//! \\cond Doxygen_Suppress",
        "namespace json {",
        "template<typename ValueType>",
        "struct NumericHandler {",
        "  inline static void Write(JSONWriter *writer, const ValueType &value) {",
        "void F(IRModule mod) {",
        '  GlobalVar gv("f");',
        "}",
    ]
    text = "\n".join(lines) + "\n"
    assert tree_sitter.Parser(language()).parse(text.encode()).root_node.is_error
    root = project({"json.h": text})
    code, document = _run_json(lintgv, root)
    assert code == 1, document
    assert [(f["code"], f["line"]) for f in document["findings"]] == [("GV101", 9)]


def test_python_of_a_later_release_is_named_not_checked_by_the_ast_rules(lintgv, project) -> None:
    # GV301 and GV302 read CPython's parse of the Python lintgv runs on; a function in
    # the syntax of a later Python (a type parameter list, Python 3.12) is not passed
    # over: each rule says it could not check the file, and the libcst rules still do.
    later = (
        "from tvm import relay\n\n"
        "def rename[T](func: T) -> T:\n"
        '    gv = relay.GlobalVar("x")\n'
        '    return func.with_attr("global_symbol", "x")\n'
    )
    older = 'def name(func):\n    return func.with_attr("global_symbol", "x")\n'
    root = project({"later.py": later, "older.py": older})
    result = lintgv("check", "--no-cache", ".", cwd=root)
    if sys.version_info >= (3, 12):
        assert result.returncode == 1, result.stdout
        assert "later.py:5:12: GV301" in result.stdout
        return
    assert result.returncode == 3, result.stdout
    for code in ("GV301", "GV302"):
        message = f"later.py:3: error: {code} could not check the code around its triggers"
        assert message in result.stdout
    assert "later.py:4:10: GV101" in result.stdout
    assert "older.py:2:12: GV301" in result.stdout
    assert result.stdout.endswith("(2 checked); 1 could not be checked.\n")


def test_a_syntax_error_in_a_file_only_the_ast_rules_read_is_the_file_error(
    lintgv, project
) -> None:
    root = project({"broken.py": 'def f(func):\n    return func.with_attr("global_symbol", "x"\n'})
    code, document = _run_json(lintgv, root)
    assert code == 2
    error = _error_of(document, "broken.py")
    assert error == {
        "path": "broken.py",
        "message": "Python syntax error: '(' was never closed",
        "line": 2,
        "column": 26,
    }


LATER_ELSEWHERE = (
    "type Name = str\n\n\n"
    "def rename(mod):\n"
    '    return mod["m"].with_attr("global_symbol", "x")\n\n\n'
    "def label(d):\n"
    '    return f"{d["k"]}"\n'
)


def test_later_syntax_in_another_function_leaves_the_ast_rules_findings(lintgv, project) -> None:
    # A statement CPython refuses (a type alias, Python 3.12) that holds no trigger is
    # left out of the ast rules' parse: in a partial check (of the lines around the
    # trigger, and the first statement) and in a check of every line (a suppression
    # comment anywhere makes one) alike.
    root = project(
        {
            "plain.py": LATER_ELSEWHERE,
            "commented.py": LATER_ELSEWHERE.replace("(mod):", "(mod):  # lintgv: ignore[GV101]"),
        }
    )
    code, document = _run_json(lintgv, root)
    assert code == 1, document
    found = {(f["path"], f["code"], f["line"]) for f in document["findings"]}
    assert ("plain.py", "GV301", 5) in found
    assert ("commented.py", "GV301", 5) in found
    assert not [e for e in document["errors"] if e["code"] in ("GV301", "GV302")]


def test_a_suppression_of_a_rule_that_could_not_check_is_kept_by_fix(lintgv, project) -> None:
    text = (
        "def rename[T](mod: T) -> T:\n"
        '    return mod["m"].with_attr("global_symbol", "x")  # lintgv: ignore[GV301]\n'
    )
    root = project({"later.py": text})
    checked = lintgv("check", "--no-cache", ".", cwd=root)
    assert "GV902" not in checked.stdout
    fixed = lintgv("fix", "--no-cache", ".", cwd=root)
    assert (root / "later.py").read_text(encoding="utf-8") == text
    if sys.version_info < (3, 12):
        assert checked.returncode == 2, checked.stdout  # an error, and no finding
        assert "1 file not checked or written in full:" in fixed.stdout
        assert fixed.stdout.count("later.py:") == 2  # one line for each rule


def test_an_and_chain_libcst_cannot_follow_is_one_error_not_a_crash(lintgv, project) -> None:
    # One flat node to CPython, a chain nested once per `and` to libcst, whose native
    # parser overflows its stack past a few thousand: the process died of a segmentation
    # fault, with no report and no exit code of lintgv's. Past about 490, a rule's walk
    # of the tree crashed.
    helper = (
        "def fresh(base, used):\n    i = 0\n    name = base\n"
        '    while name in used:\n        name = f"{base}_{i}"\n        i += 1\n'
    )
    long_chain = "    y = " + " and ".join(["a"] * 20_000) + "\n    return name\n"
    short_chain = "    y = " + " and ".join(["a"] * 300) + "\n    return name\n"
    root = project({"long.py": helper + long_chain, "short.py": helper + short_chain})
    code, document = _run_json(lintgv, root)
    assert code == 3, document
    assert [(e["path"], e["message"]) for e in document["errors"]] == [
        (
            "long.py",
            "Python nesting too deep to parse: over 300 `and`/`or` operands in one expression",
        )
    ]
    assert [(f["path"], f["code"]) for f in document["findings"]] == [("short.py", "GV201")]
