"""Files whose lines end in a lone `\\r` (classic Mac OS), as subprocesses: `check` finds
what it finds in the `\\n` version, and `fix` writes every line it adds with `\\r`."""

import json
import shutil
from pathlib import Path

import pytest

from tests.cli.conftest import run_lintgv

PROJECT = Path(__file__).parent.parent / "fixtures" / "fix_project"
SOURCES = ("src/relay/lift_functions.cc", "python/tvm_ext/build.py")


@pytest.fixture
def trees(tmp_path: Path) -> tuple[Path, Path]:
    """Return two copies of fix_project: as it is (`\\n`), and with `\\r` line ends."""
    lf, cr = tmp_path / "lf", tmp_path / "cr"
    shutil.copytree(PROJECT, lf)
    shutil.copytree(PROJECT, cr)
    for name in SOURCES:
        (cr / name).write_bytes((lf / name).read_bytes().replace(b"\n", b"\r"))
    return lf, cr


def _findings(root: Path) -> list[dict[str, object]]:
    result = run_lintgv("check", "--no-cache", "--format", "json", ".", cwd=root)
    report = json.loads(result.stdout)
    assert report["errors"] == []
    return [
        {key: finding[key] for key in ("code", "path", "line", "column", "end_line", "end_column")}
        for finding in report["findings"]
    ]


def test_check_finds_in_a_cr_only_tree_what_it_finds_in_the_lf_one(
    trees: tuple[Path, Path],
) -> None:
    lf, cr = trees
    found = _findings(cr)
    # Both languages: tree-sitter once read a C++ file's first #include to its end.
    assert {finding["path"] for finding in found} == set(SOURCES)
    assert found == _findings(lf)


def test_fix_writes_a_cr_only_tree_with_cr_line_ends_and_settles(
    trees: tuple[Path, Path],
) -> None:
    lf, cr = trees
    run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=lf)
    result = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=cr)
    assert result.stdout.startswith("Fixed 7 findings in 2 files (GV101: 7).")
    for name in SOURCES:
        data = (cr / name).read_bytes()
        assert b"\n" not in data
        assert data == (lf / name).read_bytes().replace(b"\n", b"\r")
    again = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=cr)
    assert again.stdout.startswith("Fixed nothing.")
