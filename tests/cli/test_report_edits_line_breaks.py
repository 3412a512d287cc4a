"""The edits of a JSON report, applied by another tool, change a file whose lines end in
`\\r\\n` or a lone `\\r` as they change the same file with `\\n` ends: the lines they add end
in the file's own break, as `lintgv fix` writes them, and every edit finds its text."""

import json
import shutil
from pathlib import Path

import pytest

from lintgv.edits import apply_edits
from lintgv.model import Edit, Span
from tests.cli.conftest import run_lintgv

PROJECT = Path(__file__).parent.parent / "fixtures" / "fix_project"
SOURCES = ("src/relay/lift_functions.cc", "python/tvm_ext/build.py")


def _report(root: Path) -> dict[tuple[object, ...], dict]:
    done = run_lintgv("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert done.returncode == 1, done.stderr
    findings = json.loads(done.stdout)["findings"]
    return {(f["code"], f["path"], f["line"], f["column"]): f for f in findings if f["fix"]}


def _applied(root: Path, finding: dict) -> dict[str, str]:
    """Apply a finding's JSON edits as a consumer would, to the files' exact text."""
    by_file: dict[str, list[Edit]] = {}
    for e in finding["fix"]["edits"]:
        span = Span(e["line"], e["column"] - 1, e["end_line"], e["end_column"] - 1)
        edit = Edit(span, e["content"], e["replaces"])
        by_file.setdefault(e.get("path", finding["path"]), []).append(edit)
    return {
        name: apply_edits((root / name).read_bytes().decode(), edits)
        for name, edits in by_file.items()
    }


@pytest.mark.parametrize("newline", ["\r\n", "\r"], ids=["crlf", "cr"])
def test_report_edits_keep_a_file_s_line_breaks(tmp_path: Path, newline: str) -> None:
    lf, other = tmp_path / "lf", tmp_path / "other"
    shutil.copytree(PROJECT, lf)
    shutil.copytree(PROJECT, other)
    for name in SOURCES:
        (other / name).write_bytes((lf / name).read_bytes().replace(b"\n", newline.encode()))
    expected, found = _report(lf), _report(other)
    assert expected.keys() == found.keys()
    added_lines = 0
    for key, finding in found.items():
        if finding["path"] not in SOURCES:
            continue
        want = {n: t.replace("\n", newline) for n, t in _applied(lf, expected[key]).items()}
        assert _applied(other, finding) == want, key
        added_lines += sum("\n" in e["content"] for e in expected[key]["fix"]["edits"])
    assert added_lines  # the fixes compared do add lines
