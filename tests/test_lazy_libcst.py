"""libcst is imported only when a run parses Python (see lintgv/parsing/libcst_lazy.py):
a run over C++ alone, or over Python files with no trigger word, never imports it."""

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

import lintgv

CPP = 'GlobalVar F(IRModule mod) { return GlobalVar("f"); }\n'
NO_TRIGGER = "import tvm\nname = 'main'\n"
TRIGGER = 'import tvm\nx = tvm.ir.GlobalVar("f")\n'


def _check(root: Path, *options: str) -> tuple[str, set[str]]:
    """Run `lintgv check` on `root` in a new interpreter; return its report and the
    modules it imported."""
    env = dict(os.environ)
    # The subprocess runs the lintgv these tests import, wherever it is.
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(Path(lintgv.__file__).parents[1]), env.get("PYTHONPATH")])
    )
    command = [sys.executable, "-P", "-X", "importtime", "-m", "lintgv", "check", "--no-cache"]
    result = subprocess.run(
        [*command, *options, str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert result.returncode in (0, 1), result.stderr
    imported = {
        line.rpartition("|")[2].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:")
    }
    return result.stdout, imported


def _libcst(imported: set[str]) -> set[str]:
    return {name for name in imported if name.partition(".")[0] == "libcst"}


def _parsed_with_libcst(imported: set[str]) -> bool:
    """Tell whether a run imported libcst's nodes and parser, and only what a parse
    needs of the package (libcst_import makes the package itself: its `__init__`, which
    imports the metadata providers and helpers too, never runs)."""
    # libcst_import imports the node modules through importlib, which -X importtime
    # does not list; what they import in turn, it does.
    return "libcst._visitors" in imported and not any(
        name.startswith(("libcst.metadata", "libcst.helpers", "libcst._parser.entrypoints"))
        for name in imported
    )


@pytest.mark.parametrize(
    "files",
    [
        {"f.cc": CPP},
        {"clean.py": NO_TRIGGER},
        {"f.cc": CPP, "clean.py": NO_TRIGGER, "x.py": "x = 1\n"},
    ],
    ids=["c++", "python-without-trigger", "both"],
)
def test_a_run_that_parses_no_python_imports_no_libcst(
    tmp_path: Path, files: dict[str, str]
) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    report, imported = _check(tmp_path)
    assert _libcst(imported) == set()
    assert ("GV101" in report) == ("f.cc" in files)


def test_workers_forked_for_c_plus_plus_alone_import_no_libcst(tmp_path: Path) -> None:
    # Enough files to share out between workers, which are forked from a parent that
    # loads what they will need: for C++ alone, not libcst.
    for index in range(60):
        (tmp_path / f"f{index}.cc").write_text(CPP, encoding="utf-8")
    report, imported = _check(tmp_path, "-j", "2")
    assert "concurrent.futures.process" in imported  # the workers were started
    assert _libcst(imported) == set()
    assert report.count("GV101") == 60


def test_workers_forked_for_python_that_needs_no_libcst_parse_import_no_libcst(
    tmp_path: Path,
) -> None:
    # The workers import libcst when a file first needs its parse, not before they are
    # forked: these files' triggers are GV301's and a shape the gate rules out.
    for index in range(60):
        (tmp_path / f"f{index}.py").write_text(
            "def name(func):\n    while True:\n"
            '        answer = input(f"{PROMPT}?")\n'
            '        if answer in ["y", "n"]:\n            break\n'
            '    return func.with_attr("global_symbol", "main")\n',
            encoding="utf-8",
        )
    report, imported = _check(tmp_path, "-j", "2")
    assert "concurrent.futures.process" in imported  # the workers were started
    assert _libcst(imported) == set()
    assert report.count("GV301") == 60


@pytest.mark.parametrize("report", ["json", "sarif"])
def test_a_report_with_fixes_across_files_imports_no_libcst_with_none_to_plan(
    tmp_path: Path, report: str
) -> None:
    # Only GV201-GV203 findings are given changes across files, planned with libcst.
    (tmp_path / "f.cc").write_text(CPP, encoding="utf-8")
    report_text, imported = _check(tmp_path, "--format", report)
    assert _libcst(imported) == set()
    assert "GV101" in report_text


def test_a_python_file_with_a_trigger_is_parsed_and_checked(tmp_path: Path) -> None:
    (tmp_path / "f.py").write_text(TRIGGER, encoding="utf-8")
    (tmp_path / "clean.py").write_text(NO_TRIGGER, encoding="utf-8")
    report, imported = _check(tmp_path)
    assert _parsed_with_libcst(imported)
    assert "f.py:2:5: GV101" in report


def test_a_python_file_only_the_ast_rules_read_imports_no_libcst(tmp_path: Path) -> None:
    # GV301 and GV302 read CPython's parse: a file whose only trigger is theirs needs no
    # libcst.
    (tmp_path / "f.py").write_text(
        'def name(func):\n    return func.with_attr("global_symbol", "main")\n', encoding="utf-8"
    )
    report, imported = _check(tmp_path)
    assert _libcst(imported) == set()
    assert "f.py:2:12: GV301" in report


def test_a_python_file_whose_shape_triggers_hold_no_shape_imports_no_libcst(
    tmp_path: Path,
) -> None:
    # `while True:` with an f-string in its first lines matches GV204's trigger; CPython's
    # parse of it shows no loop that asks whether a name is taken (see python_shape_gate).
    (tmp_path / "poll.py").write_text(
        "def ask():\n    while True:\n"
        '        answer = input(f"{PROMPT}?")\n'
        '        if answer in ["y", "n"]:\n            break\n',
        encoding="utf-8",
    )
    (tmp_path / "copy.py").write_text(
        "def unique(name, used):\n    i = 0\n    candidate = name\n"
        '    while candidate in used:\n        i += 1\n        candidate = f"{name}_{i}"\n'
        "    return candidate\n",
        encoding="utf-8",
    )
    report, imported = _check(tmp_path / "poll.py")
    assert _libcst(imported) == set()
    assert report.startswith("Found 0 findings")
    report, imported = _check(tmp_path)
    assert _parsed_with_libcst(imported)
    assert "copy.py:1:5: GV201" in report and "poll.py" not in report


_THROUGH_LOAD = r"""
import runpy, sys

sys.argv = ["lintgv", *sys.argv[1:]]
try:
    runpy.run_module("lintgv", run_name="__main__")
except SystemExit:
    pass
import libcst

# A frozen node class's __setattr__ is compiled when first called only under
# libcst_import.load: a plain import compiles it from "<string>" at once.
sys.stdout.write("\n" + libcst.Name.__setattr__.__code__.co_filename + "\n")
"""


@pytest.mark.parametrize(
    "command",
    [
        ["check", "--no-cache"],
        ["check", "--no-cache", "--format", "json"],
        ["fix", "--unsafe", "--diff", "--no-cache"],
    ],
    ids=["check", "json-report", "fix"],
)
def test_a_run_that_parses_python_imports_libcst_through_libcst_import(
    tmp_path: Path, command: list[str]
) -> None:
    # libcst_import.load makes the import cheaper; a path that imports libcst another way
    # (a module-level `import libcst` reached first) would quietly lose that.
    (tmp_path / "f.py").write_text(
        'import tvm\n\n\ndef f(mod):\n    mod[tvm.ir.GlobalVar("f")] = mod["main"]\n',
        encoding="utf-8",
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(Path(lintgv.__file__).parents[1]), env.get("PYTHONPATH")])
    )
    result = subprocess.run(
        [sys.executable, "-P", "-c", _THROUGH_LOAD, *command, str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert "GV101" in result.stdout or "fresh_global" in result.stdout, result.stderr
    # Where dataclasses compiles each method apart (CPython 3.11 and 3.12), load() defers
    # that one; elsewhere it imports libcst as it is.
    deferred = "libcst_import.py" if hasattr(dataclasses, "_create_fn") else "<string>"
    assert result.stdout.rstrip().rpartition("\n")[2].endswith(deferred)
