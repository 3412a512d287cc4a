"""Where `lintgv report --html -o FILE` writes: a new or regular file only. A symbolic
link, a FIFO, a folder or a path in a missing folder is refused with exit 2 and a
message naming the file, and nothing is written anywhere."""

import os
from pathlib import Path

import pytest

TREE = {"passes.py": "import tvm\ngv = tvm.ir.GlobalVar('f')\n"}


def _report(lintgv, root: Path, output: str):
    return lintgv("report", "--html", "--no-cache", "-o", output, "passes.py", cwd=root)


def test_the_page_replaces_a_regular_file(lintgv, project) -> None:
    root = project({**TREE, "report.html": "old"})
    result = _report(lintgv, root, "report.html")
    assert result.returncode == 0, result.stderr
    assert (root / "report.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_symbolic_link_is_not_written_through(lintgv, project, tmp_path: Path) -> None:
    root = project(TREE)
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")
    (root / "report.html").symlink_to(target)
    result = _report(lintgv, root, "report.html")
    assert result.returncode == 2
    assert result.stderr == (
        "lintgv: error: report.html: it is a symbolic link; lintgv does not write through one\n"
    )
    assert target.read_text() == "keep me"
    assert (root / "report.html").is_symlink()


def test_a_fifo_is_refused_without_blocking(lintgv, project) -> None:
    root = project(TREE)
    os.mkfifo(root / "report.html")
    result = _report(lintgv, root, "report.html")
    assert result.returncode == 2
    assert result.stderr == "lintgv: error: report.html: it is not a regular file\n"


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("missing/report.html", "No such file or directory"),
        (".", "Is a directory"),
    ],
)
def test_an_unwritable_path_is_an_error(lintgv, project, output: str, reason: str) -> None:
    root = project(TREE)
    result = _report(lintgv, root, output)
    assert result.returncode == 2
    assert result.stderr == f"lintgv: error: {output}: cannot be written ({reason})\n"
    assert not (root / "missing").exists()
