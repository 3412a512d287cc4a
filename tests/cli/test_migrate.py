"""`lintgv migrate --plan` and `lintgv report --html`, run as subprocesses; the report is
opened in headless Chromium (a screenshot goes to test-artifacts/report/)."""

import json
from pathlib import Path

import pytest
from browser import Browser

ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "report"

HELPER_CC = """\
std::string Extractor::NameFor(std::string name) {
  if (names_.find(name) == names_.end()) {
    names_[name] = 1;
    return name;
  }
  names_[name] = names_[name] + 1;
  return name + std::to_string(names_[name]);
}
"""
CALLER_CC = """\
void Plan(Extractor* e, const Var& v) { auto n = e->NameFor(v->name_hint); }
"""
PASSES_PY = """\
import tvm
from tvm.ir.supply import GlobalVarSupply


def lower(mod, funcs):
    for f in funcs:
        mod[tvm.ir.GlobalVar(f.name)] = f


def make():
    return tvm.ir.GlobalVar("g")
"""


@pytest.fixture
def tree(project) -> Path:
    root: Path = project(
        {
            "src/z_helpers/extractor.cc": HELPER_CC,
            "src/a_callers/plan.cc": CALLER_CC,
            "python/passes.py": PASSES_PY,
        }
    )
    return root


def _findings(lintgv, root: Path) -> list[dict[str, object]]:
    result = lintgv("check", "--no-cache", "--format", "json", ".", cwd=root)
    found: list[dict[str, object]] = json.loads(result.stdout)["findings"]
    return found


def test_the_plan_counts_what_check_reports(lintgv, tree: Path) -> None:
    findings = _findings(lintgv, tree)
    result = lintgv("migrate", "--plan", "--no-cache", "--format", "json", ".", cwd=tree)
    assert result.returncode == 0, result.stderr
    plan = json.loads(result.stdout)
    kinds = {"safe": 0, "unsafe": 0, "across": 0, "display": 0, None: 0}
    for finding in findings:
        fix = finding["fix"]
        kind = fix["applicability"] if isinstance(fix, dict) else None
        # A copy's sites, and a GlobalVar with nothing in scope (its function's callers
        # pass a supply): lintgv fix --unsafe changes them with other files.
        nothing_in_scope = "no GlobalVarSupply or IRModule in scope" in str(finding["message"])
        if kind not in ("safe", "unsafe") and (
            str(finding["code"]).startswith("GV20") or nothing_in_scope
        ):
            kind = "across"
        kinds[kind] += 1
    assert plan["total"] == {
        "sites": len(findings),
        "safe": kinds["safe"],
        "unsafe": kinds["unsafe"],
        "across_files": kinds["across"],
        "suggested": kinds["display"],
        "by_hand": kinds[None],
    }
    assert plan["total"]["across_files"] == 3  # the copy, its call, the bare GlobalVar
    folders = {d["path"]: d for d in plan["directories"]}
    assert set(folders) == {str(Path(str(f["path"])).parent) for f in findings}
    assert folders["python"]["codes"] == {"GV101": 2}
    assert (folders["python"]["unsafe"], folders["python"]["across_files"]) == (1, 1)


def test_helpers_come_before_their_callers_and_before_globalvars(lintgv, tree: Path) -> None:
    result = lintgv("migrate", "--plan", "--no-cache", "--format", "json", ".", cwd=tree)
    steps = json.loads(result.stdout)["steps"]
    assert [s["codes"][0] for s in steps] == ["GV201", "GV101"]
    helpers = steps[0]
    # The definition's folder first, although the callers' sorts before it.
    assert helpers["directories"] == ["src/z_helpers", "src/a_callers"]
    assert helpers["command"] == (
        "lintgv fix --unsafe --select GV201,GV202,GV203 src/z_helpers src/a_callers"
    )
    assert steps[1]["command"] == "lintgv fix --unsafe --select GV101 python"


def test_the_text_plan_lists_directories_and_steps(lintgv, tree: Path) -> None:
    result = lintgv("migrate", "--plan", "--no-cache", ".", cwd=tree)
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "4 sites in 3 directories: 0 safe, 1 unsafe, 3 across files (where `lintgv fix "
        "--unsafe` can prove the change), 0 suggested (shown, never applied), 0 by hand."
    )
    assert any(line.split()[:2] == ["python", "2"] for line in lines)
    assert "1. Replace private unique-name helpers with a NameSupply" in result.stdout
    assert (
        "   1 with a fix, 1 across files where it can: lintgv fix --unsafe --select GV101 python"
        in lines
    )


MODULE_LEVEL_PY = """\
import tvm
from tvm import relay

main_var = relay.GlobalVar("main")
other = tvm.ir.GlobalVar("f")


def lower(mod, funcs):
    for f in funcs:
        mod[tvm.ir.GlobalVar(f.name)] = f


def make():
    return tvm.ir.GlobalVar("g")


def build(mod):
    mod[make()] = 1
"""


def test_the_plan_counts_what_fix_then_fixes(lintgv, project) -> None:
    # Module-level sites have nothing to name them with and no function a supply could
    # be threaded into: fix leaves them, so the plan does not count them across files.
    root = project({"m.py": MODULE_LEVEL_PY})
    result = lintgv("migrate", "--plan", "--no-cache", "--format", "json", ".", cwd=root)
    total = json.loads(result.stdout)["total"]
    assert total == {
        "sites": 4,
        "safe": 0,
        "unsafe": 1,
        "across_files": 1,
        "suggested": 2,
        "by_hand": 0,
    }
    fixed = lintgv("fix", "--unsafe", "--no-cache", ".", cwd=root).stdout.splitlines()
    assert fixed[0] == "Fixed 1 finding in 1 file (GV101: 1)."  # safe and unsafe
    assert fixed[1].startswith("Threaded a GlobalVarSupply parameter into m.make (1 call")
    assert fixed[2] == "2 findings remain:"  # suggested and by hand
    assert len(_findings(lintgv, root)) == total["suggested"] + total["by_hand"]


def test_migrate_without_plan_and_a_bad_path_are_errors(lintgv, tree: Path) -> None:
    assert lintgv("migrate", ".", cwd=tree).returncode == 2
    missing = lintgv("migrate", "--plan", "--no-cache", "nowhere", cwd=tree)
    assert missing.returncode == 2
    assert "nowhere" in missing.stdout + missing.stderr


def test_the_report_escapes_what_the_tree_names(lintgv, project) -> None:
    hostile = '<img src=x onerror="alert(1)">.py'
    root = project({hostile: "import tvm\ngv = tvm.ir.GlobalVar('f')\n"})
    result = lintgv("report", "--html", "--no-cache", "-o", "r.html", ".", cwd=root)
    assert result.returncode == 0, result.stderr
    page = (root / "r.html").read_text(encoding="utf-8")
    assert "<img" not in page
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;.py" in page
    assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")


@pytest.mark.system("chromium")
def test_the_report_renders_its_chart_and_sorts_its_table_in_chromium(
    lintgv, tree: Path, tmp_path: Path
) -> None:
    result = lintgv("report", "--html", "--no-cache", "-o", "report.html", ".", cwd=tree)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Wrote report.html: 4 sites in 3 directories.")
    browser = Browser(tmp_path / "profile")
    try:
        browser.open((tree / "report.html").as_uri())
        bars = browser.evaluate(
            "Array.from(document.querySelectorAll('#chart rect.bar'))"
            ".map(r => [r.getBoundingClientRect().width, r.getBoundingClientRect().height])"
        )
        assert len(bars) == 4  # python: unsafe + across; two folders: across
        assert all(width > 1 and height > 1 for width, height in bars)
        column = "Array.from(document.querySelectorAll('#directories tbody tr'))" + (
            ".map(r => r.cells[0].textContent)"
        )
        assert browser.evaluate(column) == ["python", "src/a_callers", "src/z_helpers"]
        # By directory, twice: ascending, then descending.
        by_name = "document.querySelectorAll('#directories th')[0]"
        browser.evaluate(f"{by_name}.click()")
        assert browser.evaluate(column) == ["python", "src/a_callers", "src/z_helpers"]
        browser.evaluate(f"{by_name}.click()")
        assert browser.evaluate(column) == ["src/z_helpers", "src/a_callers", "python"]
        assert browser.evaluate(f"{by_name}.getAttribute('aria-sort')") == "descending"
        # By sites, as numbers: descending puts the folder with two first.
        by_sites = "document.querySelectorAll('#directories th')[1]"
        browser.evaluate(f"{by_sites}.click()")
        browser.evaluate(f"{by_sites}.click()")
        assert browser.evaluate(column)[0] == "python"
        summary = browser.evaluate("document.getElementById('summary').textContent")
        assert summary.startswith("4 sites in 3 directories")
        browser.screenshot(ARTIFACTS / "report.png")
    finally:
        browser.close()
    assert (ARTIFACTS / "report.png").stat().st_size > 1000
