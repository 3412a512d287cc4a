"""File names that are not UTF-8 or hold control characters: every report shows them
escaped (`lat\\xe9.py`, `a\\nb.py`), so a report stays UTF-8 and a name cannot forge a
line of it."""

import json
import os
from pathlib import Path

import pytest
from hostile import run_lintgv

GV101 = "import tvm\ngv = tvm.ir.GlobalVar('f')\n"


@pytest.mark.parametrize(
    ("command", "output"),
    [
        (["baseline", "-o"], "out.json"),
        (["check", "--format", "text", "-o"], "out.txt"),
        (["check", "--format", "json", "-o"], "out.json"),
        (["check", "--format", "github", "-o"], "out.txt"),
    ],
)
def test_a_file_name_that_is_not_utf8_is_written_escaped(
    tmp_path: Path, command: list[str], output: str
) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    (root / os.fsdecode(b"lat\xe9.py")).write_text(GV101)
    (root / output).write_text("old report")
    result = run_lintgv(*command, output, "--no-cache", ".", cwd=root)
    assert result.returncode in (0, 1), result.stderr
    written = (root / output).read_bytes().decode("utf-8")
    assert "lat\\xe9.py" in written.replace("\\\\", "\\")  # JSON doubles the backslash


@pytest.mark.parametrize("fmt", ["json", "github"])
def test_a_file_name_that_is_not_utf8_leaves_stdout_utf8(tmp_path: Path, fmt: str) -> None:
    (tmp_path / os.fsdecode(b"lat\xe9.py")).write_text(GV101)
    result = run_lintgv("check", "--no-cache", "--format", fmt, ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "\udce9" not in result.stdout  # the raw byte, as the text decoder keeps it
    if fmt == "json":
        [finding] = json.loads(result.stdout)["findings"]
        assert finding["path"] == "lat\\xe9.py"


def test_a_baseline_matches_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / os.fsdecode(b"lat\xe9.py")).write_text(GV101)
    written = run_lintgv("baseline", "--no-cache", ".", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    result = run_lintgv(
        "check", "--no-cache", "--baseline", "lintgv-baseline.json", ".", cwd=tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 more known from the baseline" in result.stdout


def test_a_line_break_in_a_file_name_cannot_forge_a_line(tmp_path: Path) -> None:
    (tmp_path / "a\nforged.py:1:1: GV999 x.py").write_text(GV101)
    result = run_lintgv("check", "--no-cache", "--no-source", ".", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("a\\nforged.py:1:1: GV999 x.py:2:6: GV101 ")
    assert len(lines) == 2  # the finding and the summary


def _paths(fmt: str, report: str) -> set[str]:
    """Return the file names a report gives its findings."""
    if fmt == "text":
        return {line.split(":")[0] for line in report.splitlines()[:-1]}
    if fmt == "github":
        return {line.split("file=")[1].split(",")[0] for line in report.splitlines()}
    if fmt == "json":
        return {finding["path"] for finding in json.loads(report)["findings"]}
    [run] = json.loads(report)["runs"]
    places = [r["locations"][0]["physicalLocation"] for r in run["results"]]
    return {place["artifactLocation"]["uri"] for place in places}


@pytest.mark.parametrize("fmt", ["text", "json", "github", "sarif"])
def test_a_backslash_in_a_file_name_is_told_apart_from_an_escaped_byte(
    tmp_path: Path, fmt: str
) -> None:
    (tmp_path / os.fsdecode(b"lat\xe9.py")).write_text(GV101)
    (tmp_path / "lat\\xe9.py").write_text(GV101)  # a real backslash, then "xe9"
    args = ("--no-cache", "--no-source", "--format", fmt, ".")
    result = run_lintgv("check", *args, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert len(_paths(fmt, result.stdout)) == 2
    if fmt != "sarif":  # a URI escapes both its own way: %E9 and %5C
        assert _paths(fmt, result.stdout) == {"lat\\xe9.py", "lat\\\\xe9.py"}
