"""`lintgv migrate --plan` on the projects in tests/fixtures: its counts are those of
`check --format json` on the same tree, and helpers' definitions and declarations are
worked through before the directories that only call them."""

import json
import shutil
from collections import Counter
from pathlib import Path

_KIND = {"safe": "safe", "unsafe": "unsafe", "display": "suggested", None: "by_hand"}
_KEYS = ("sites", "safe", "unsafe", "across_files", "suggested", "by_hand")


def _kind(finding: dict) -> str:
    """Return the plan's column for a finding of `check --format json`: a unique-name
    copy's sites and a GlobalVar with nothing in scope are fixed across files."""
    fix = finding["fix"]
    kind = _KIND[fix["applicability"] if fix else None]
    across = finding["code"].startswith("GV20") and finding["code"] != "GV204"
    across |= "no GlobalVarSupply or IRModule in scope" in finding["message"]
    return "across_files" if across and kind not in ("safe", "unsafe") else kind


def _expected_directories(lintgv, root: Path) -> dict[str, dict]:
    """Return, per directory, the counts a plan must show, from `check`'s findings."""
    result = lintgv("check", "--no-cache", "--format", "json", ".", cwd=root)
    findings = json.loads(result.stdout)["findings"]
    assert findings, result.stderr
    folders: dict[str, dict] = {}
    for finding in findings:
        path = str(Path(finding["path"]).parent)
        counts = folders.setdefault(path, dict.fromkeys(_KEYS, 0))
        counts["sites"] += 1
        counts[_kind(finding)] += 1
        codes = counts.setdefault("codes", Counter())
        codes[finding["code"]] += 1
    return folders


def test_the_json_plan_of_check_project_counts_what_check_reports(lintgv, copy_fixture) -> None:
    root = copy_fixture("check_project")
    expected = _expected_directories(lintgv, root)
    result = lintgv("migrate", "--plan", "--no-cache", "--format", "json", ".", cwd=root)
    assert result.returncode == 0, result.stderr
    plan = json.loads(result.stdout)
    shown = {d.pop("path"): d for d in plan["directories"]}
    assert shown == {path: {**c, "codes": dict(c["codes"])} for path, c in expected.items()}
    for key in _KEYS:
        assert plan["total"][key] == sum(c[key] for c in expected.values())
    assert sum(s["sites"] for s in plan["steps"]) == plan["total"]["sites"]


def test_the_text_plan_of_check_project_has_a_row_per_directory(lintgv, copy_fixture) -> None:
    root = copy_fixture("check_project")
    expected = _expected_directories(lintgv, root)
    result = lintgv("migrate", "--plan", "--no-cache", ".", cwd=root)
    assert result.returncode == 0, result.stderr
    rows = {
        words[0]: words[1:]
        for words in map(str.split, result.stdout.splitlines())
        if words and words[0] in expected
    }
    assert rows == {path: [str(c[k]) for k in _KEYS] for path, c in expected.items()}


def test_headers_and_definitions_come_before_the_directories_that_call_them(
    lintgv, copy_fixture
) -> None:
    # fix_unique_names spread over three folders whose path order is the wrong one:
    # callers first (a_callers), then the definition (base), the header last (zz_include).
    root = copy_fixture("fix_unique_names")
    for name, folder in (
        ("codegen_base.cc", "base"),
        ("codegen_base.h", "zz_include"),
        ("codegen_c.h", "zz_include"),
        ("codegen_c.cc", "a_callers"),
        ("printer.cc", "a_callers"),
    ):
        (root / "src" / folder).mkdir(exist_ok=True)
        shutil.move(root / "src" / name, root / "src" / folder / name)
    codes = {p: sorted(c["codes"]) for p, c in _expected_directories(lintgv, root).items()}
    assert codes == {
        "src/a_callers": ["GV203"],
        "src/base": ["GV201", "GV203"],
        "src/zz_include": ["GV202"],
    }
    result = lintgv("migrate", "--plan", "--no-cache", "--format", "json", ".", cwd=root)
    (helpers,) = json.loads(result.stdout)["steps"]
    assert helpers["directories"] == ["src/base", "src/zz_include", "src/a_callers"]
    assert helpers["command"] == (
        "lintgv fix --unsafe --select GV201,GV202,GV203 src/base src/zz_include src/a_callers"
    )
    text = lintgv("migrate", "--plan", "--no-cache", ".", cwd=root).stdout.splitlines()
    assert "   in order: src/base, src/zz_include, src/a_callers" in text


def test_the_text_plan_counts_one_site_as_one(lintgv, copy_fixture) -> None:
    root = copy_fixture("check_project")
    result = lintgv("migrate", "--plan", "--no-cache", "--select", "GV2", ".", cwd=root)
    assert result.stdout.splitlines()[0] == (
        "1 site in 1 directory: 0 safe, 0 unsafe, 1 across files (where `lintgv fix --unsafe` "
        "can prove the change), 0 suggested (shown, never applied), 0 by hand."
    )


def test_a_bad_config_is_an_error_not_an_empty_plan(lintgv, copy_fixture) -> None:
    root = copy_fixture("check_project")
    (root / "lintgv.toml").write_text("select = 3\n")
    for command in (("migrate", "--plan"), ("report", "--html", "-o", "report.html")):
        result = lintgv(*command, "--no-cache", ".", cwd=root)
        assert result.returncode == 2
        assert "lintgv.toml: invalid value for `select`: 3 (expected a list of strings)" in (
            result.stderr
        )
    plan = lintgv("migrate", "--plan", "--no-cache", ".", cwd=root)
    assert plan.stdout == (
        "No sites in the files checked; 1 file could not be checked (see `lintgv check`).\n"
    )
