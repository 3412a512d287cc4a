"""`lintgv baseline` and `check --baseline`: only new findings fail, whatever moved."""

import json
from pathlib import Path

SOURCE = (
    "import tvm\n"
    "\n"
    "\n"
    "def first(mod):\n"
    "    return tvm.ir.GlobalVar('first')\n"
    "\n"
    "\n"
    "def second(mod):\n"
    "    return tvm.ir.GlobalVar('second')\n"
)


def _adopt(lintgv, root: Path) -> None:
    result = lintgv("baseline", "--no-cache", ".", "-o", "baseline.json", cwd=root)
    assert (result.returncode, result.stdout) == (0, "Wrote 2 findings to baseline.json.\n")


def _check(lintgv, root: Path):
    return lintgv("check", "--no-cache", "--baseline", "baseline.json", ".", cwd=root)


def test_baseline_file_lists_each_finding(lintgv, project) -> None:
    root = project({"a.py": SOURCE})
    _adopt(lintgv, root)
    document = json.loads((root / "baseline.json").read_text(encoding="utf-8"))
    assert document["lintgv_baseline"] == 1
    assert [(e["code"], e["path"], e["at"]) for e in document["findings"]] == [
        ("GV101", "a.py", 5),
        ("GV101", "a.py", 9),
    ]


def test_known_findings_pass(lintgv, project) -> None:
    root = project({"a.py": SOURCE})
    _adopt(lintgv, root)
    result = _check(lintgv, root)
    assert result.returncode == 0
    assert result.stdout == "Found 0 findings in 1 file; 2 more known from the baseline.\n"


def test_known_findings_pass_after_lines_shift(lintgv, project) -> None:
    root = project({"a.py": SOURCE})
    _adopt(lintgv, root)
    shifted = '"""A docstring pushes everything down."""\n\n\n' + SOURCE.replace(
        "\n\n\n", "\n\n\n\n"
    )
    (root / "a.py").write_text(shifted, encoding="utf-8")
    assert _check(lintgv, root).returncode == 0


def test_known_finding_passes_when_its_neighbours_change(lintgv, project) -> None:
    root = project({"a.py": SOURCE})
    _adopt(lintgv, root)
    edited = SOURCE.replace("def first(mod):", "def first_renamed(module):")
    (root / "a.py").write_text(edited, encoding="utf-8")
    assert _check(lintgv, root).returncode == 0


def test_new_finding_fails_and_is_the_only_one_shown(lintgv, project) -> None:
    root = project({"a.py": SOURCE})
    _adopt(lintgv, root)
    (root / "a.py").write_text(SOURCE + "third = tvm.ir.GlobalVar('third')\n", encoding="utf-8")
    result = _check(lintgv, root)
    assert result.returncode == 1
    assert result.stdout.startswith("a.py:10:9: GV101 ")
    assert result.stdout.count("GV101") == 1


def test_a_copy_of_a_known_line_is_new(lintgv, project) -> None:
    # Duplicates are counted: one entry excuses one finding.
    root = project({"a.py": SOURCE})
    _adopt(lintgv, root)
    doubled = SOURCE + "\n\ndef third(mod):\n    return tvm.ir.GlobalVar('second')\n"
    (root / "a.py").write_text(doubled, encoding="utf-8")
    result = _check(lintgv, root)
    assert result.returncode == 1
    assert result.stdout.count(": GV101 ") == 1


def test_changed_flagged_text_is_new(lintgv, project) -> None:
    root = project({"a.py": SOURCE})
    _adopt(lintgv, root)
    (root / "a.py").write_text(SOURCE.replace("'second'", "'renamed'"), encoding="utf-8")
    result = _check(lintgv, root)
    assert result.returncode == 1
    assert "a.py:9:12: GV101" in result.stdout
    assert result.stdout.endswith(
        "Found 1 finding in 1 file (1 checked); 1 more known from the baseline; "
        "1 baseline entry fixed since (`lintgv baseline` drops them).\n"
    )


def test_baseline_paths_are_relative_to_the_baseline_file(lintgv, project) -> None:
    root = project({"src/a.py": SOURCE})
    _adopt(lintgv, root)
    result = lintgv("check", "--no-cache", "--baseline", "../baseline.json", ".", cwd=root / "src")
    assert result.returncode == 0, result.stdout


def test_baseline_works_with_json_output(lintgv, project) -> None:
    root = project({"a.py": SOURCE})
    _adopt(lintgv, root)
    result = lintgv(
        "check", "--no-cache", "--format", "json", "--baseline", "baseline.json", ".", cwd=root
    )
    assert json.loads(result.stdout)["findings"] == []


def test_missing_baseline_is_a_clear_error(lintgv, project) -> None:
    root = project({"a.py": SOURCE})
    result = _check(lintgv, root)
    assert result.returncode == 2
    assert "baseline.json: not a usable baseline (No such file or directory)" in result.stderr


def test_a_file_that_is_not_a_baseline_is_a_clear_error(lintgv, project) -> None:
    root = project({"a.py": SOURCE, "baseline.json": '{"findings": []}'})
    result = _check(lintgv, root)
    assert result.returncode == 2
    assert 'baseline.json: not a usable baseline (expected {"lintgv_baseline": 1, ...})' in (
        result.stderr
    )


def test_baseline_kept_outside_the_tree_works_for_a_copy(lintgv, project, tmp_path: Path) -> None:
    root = project({"src/a.py": SOURCE})
    elsewhere = tmp_path / "elsewhere" / "baseline.json"
    elsewhere.parent.mkdir()
    lintgv("baseline", "--no-cache", ".", "-o", elsewhere, cwd=root)
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "src").mkdir()
    shifted = "# moved down\n" + SOURCE
    (copy / "src" / "a.py").write_text(shifted, encoding="utf-8")
    result = lintgv("check", "--no-cache", "--baseline", elsewhere, ".", cwd=copy)
    assert result.returncode == 0, result.stdout
