"""A change across files in the reports: `check --format json|sarif` carries, on every
finding the change rewrites, the same change `lintgv fix --unsafe` writes."""

import json
import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from fix_cli import run_fix
from hypothesis import given, settings
from hypothesis import strategies as st

from lintgv.edits import apply_edits, apply_fixes, edits_between
from lintgv.model import Applicability, Edit, Finding, Fix, Severity, Span

FIXTURES = Path(__file__).parent.parent / "fixtures"
EXPECTED = FIXTURES / "fix_unique_names_fixed" / "src"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "fix_unique_names", tmp_path / "project")
    return tmp_path / "project"


def _check(root: Path, report: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "lintgv", "check", "--no-cache", "--format", report, "."],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)


def _texts(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def _resolved(finding: dict) -> str:
    edits = [{"path": finding["path"], **e} for e in finding["fix"]["edits"]]
    return json.dumps(sorted(edits, key=lambda e: (e["path"], e["line"])), sort_keys=True)


def _apply(root: Path, finding: dict) -> None:
    """Apply a JSON fix as a consumer would: each edit to its own file, last to first."""
    by_file: dict[str, list[Edit]] = defaultdict(list)
    for e in finding["fix"]["edits"]:
        span = Span(e["line"], e["column"] - 1, e["end_line"], e["end_column"] - 1)
        by_file[e.get("path", finding["path"])].append(Edit(span, e["content"], e["replaces"]))
    for name, edits in by_file.items():
        path = root / name
        path.write_text(apply_edits(path.read_text(), edits))


def test_the_json_fix_of_a_copy_is_the_change_fix_writes(project: Path, tmp_path: Path) -> None:
    by_fix = shutil.copytree(project, tmp_path / "by_fix")
    report = _check(project, "json")
    fixed = [f for f in report["findings"] if f["fix"] is not None]
    codes = sorted(f["code"] for f in fixed)
    # The definition, its declaration and the four calls of CodeGenBase::GetUniqueName.
    assert codes == ["GV201", "GV202", "GV203", "GV203", "GV203", "GV203"], codes
    # One change, seen from each finding: its own file's edits carry no path.
    assert len({_resolved(f) for f in fixed}) == 1
    (fix,) = {f["fix"]["title"] for f in fixed}
    assert fix == "Replace CodeGenBase::GetUniqueName with a NameSupply member `name_supply_`"
    assert {f["fix"]["applicability"] for f in fixed} == {"unsafe"}
    assert len(fixed) == len(report["findings"])

    _apply(project, fixed[0])
    assert _texts(project / "src") == _texts(EXPECTED)
    done = run_fix(by_fix, "--unsafe", "--select", "GV2")
    assert done.returncode in (0, 1), done.stderr
    assert _texts(by_fix / "src") == _texts(project / "src")


def test_a_sarif_fix_changes_each_file_once(project: Path) -> None:
    report = _check(project, "sarif")
    results = [r for r in report["runs"][0]["results"] if r.get("fixes")]
    assert results
    for result in results:
        (fix,) = result["fixes"]
        uris = [c["artifactLocation"]["uri"] for c in fix["artifactChanges"]]
        assert len(uris) == len(set(uris)) == 3, uris
        assert set(uris) == {"src/codegen_base.cc", "src/codegen_base.h", "src/codegen_c.cc"}


def test_the_one_file_applier_never_applies_a_change_across_files() -> None:
    # Such a change is applied whole by the stage that planned it (fixing/groups.py).
    text = "a = 1\n"
    edit = Edit(Span(1, 0, 1, 1), "b", "a")
    elsewhere = Edit(Span(1, 0, 1, 0), "# other\n", "", Path("other.py"))
    finding = Finding(
        "GV201",
        "unique-name-helper",
        Path("own.py"),
        Span(1, 0, 1, 1),
        "m",
        Severity.WARNING,
        Fix("t", Applicability.UNSAFE, (edit, elsewhere)),
    )
    applied = apply_fixes(text, [finding], unsafe=True)
    assert applied.text == text and not applied.applied


_TEXT = st.lists(
    st.sampled_from(["a", "b", "c\n", "\n", "\r\n", "\r", "\x0c", "\u2028", "x y\n"]),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(_TEXT, _TEXT)
def test_edits_between_two_texts_turn_one_into_the_other(before: str, after: str) -> None:
    edits = edits_between(before, after)
    assert apply_edits(before, edits) == after
    assert all(e.old_text or e.span.start_line == e.span.end_line for e in edits)
