"""Every output format of `lintgv check`, on tests/fixtures/check_project.

Text and JSON are compared with golden files (LINTGV_UPDATE_GOLDEN=1 rewrites them);
SARIF goes through the official validator, installed by scripts/test-all with
`npm ci --prefix tests/cli/sarif-validator`.
"""

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from lintgv.registry import rule_codes

VALIDATOR = Path(__file__).parent / "sarif-validator"
MULTITOOL = VALIDATOR / "node_modules" / ".bin" / "sarif-multitool"


@pytest.fixture
def checked(copy_fixture: Callable[[str], Path]) -> Path:
    return copy_fixture("check_project")


def test_text_output_matches_golden(lintgv, checked: Path, golden) -> None:
    result = lintgv("check", "--no-cache", ".", cwd=checked)
    assert result.returncode == 1
    golden(result.stdout, "check_project.txt")


def test_text_without_source_matches_golden(lintgv, checked: Path, golden) -> None:
    result = lintgv("check", "--no-cache", "--no-source", ".", cwd=checked)
    golden(result.stdout, "check_project.no-source.txt")


def test_statistics_match_golden(lintgv, checked: Path, golden) -> None:
    result = lintgv("check", "--no-cache", "--statistics", ".", cwd=checked)
    assert result.returncode == 1
    golden(result.stdout, "check_project.statistics.txt")


def test_json_output_matches_golden(lintgv, checked: Path, golden) -> None:
    result = lintgv("check", "--no-cache", "--format", "json", ".", cwd=checked)
    assert result.returncode == 1
    golden(result.stdout, "check_project.json")


def test_json_has_the_documented_keys(lintgv, checked: Path) -> None:
    result = lintgv("check", "--no-cache", "--format", "json", ".", cwd=checked)
    document = json.loads(result.stdout)
    assert set(document) == {"version", "findings", "errors"}
    keys = {"code", "rule", "path", "line", "column", "end_line", "end_column"}
    keys |= {"severity", "message", "fix"}
    for finding in document["findings"]:
        assert set(finding) == keys
        assert finding["line"] >= 1 and finding["column"] >= 1
        assert not Path(finding["path"]).is_absolute()
        fix = finding["fix"]
        assert fix is None or fix["applicability"] in {"safe", "unsafe", "display"}


def test_github_format_annotates_each_finding(lintgv, checked: Path) -> None:
    result = lintgv("check", "--no-cache", "--format", "github", ".", cwd=checked)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 9
    assert lines[0].startswith(
        "::warning file=python/pkg/passes.py,line=8,endLine=8,"
        "title=GV101 direct-global-var,col=13,endColumn=38::GV101 GlobalVar built by hand"
    )
    # Commas and colons in properties are escaped; the message keeps them readable.
    assert all(line.startswith(("::warning ", "::error ", "::notice ")) for line in lines)


def test_github_format_escapes_newlines_and_percent(lintgv, project) -> None:
    root = project({"a%b.py": "import tvm\nx = tvm.ir.GlobalVar('f')\n"})
    result = lintgv("check", "--no-cache", "--format", "github", ".", cwd=root)
    assert "file=a%25b.py" in result.stdout


def _sarif_problems(log: Path, tmp_path: Path) -> list[str]:
    assert MULTITOOL.exists(), (
        "the SARIF validator is not installed: run "
        "`npm ci --prefix tests/cli/sarif-validator` (scripts/test-all does)"
    )
    report = tmp_path / "validation.sarif"
    subprocess.run(
        [str(MULTITOOL), "validate", str(log), "--output", str(report), "--quiet"],
        capture_output=True,
        check=True,
        timeout=300,
    )
    results = json.loads(report.read_text(encoding="utf-8"))["runs"][0].get("results", [])
    return [
        f"{r['ruleId']}: {r['message']}" for r in results if r.get("level", "warning") == "error"
    ]


def test_sarif_output_is_valid_sarif_2_1_0(lintgv, checked: Path, tmp_path: Path) -> None:
    (checked / "python" / "broken.py").write_text("gv = GlobalVar(\n", encoding="utf-8")
    log = tmp_path / "report.sarif"
    result = lintgv("check", "--no-cache", "--format", "sarif", "-o", log, ".", cwd=checked)
    assert result.returncode == 3, result.stderr
    assert _sarif_problems(log, tmp_path) == []


def test_sarif_describes_every_rule_and_finding(lintgv, checked: Path) -> None:
    result = lintgv("check", "--no-cache", "--format", "sarif", ".", cwd=checked)
    run = json.loads(result.stdout)["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(rule_codes())
    assert len(run["results"]) == 9
    first = run["results"][0]
    assert rules[first["ruleIndex"]]["id"] == first["ruleId"] == "GV101"
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "python/pkg/passes.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 8, "startColumn": 13, "endLine": 8, "endColumn": 38}
    assert run["invocations"][0]["executionSuccessful"] is True


def test_statistics_with_another_format_is_a_usage_error(lintgv, checked: Path) -> None:
    result = lintgv("check", "--statistics", "--format", "json", ".", cwd=checked)
    assert result.returncode == 2
    assert "--statistics goes with --format text" in result.stderr


def test_unknown_format_is_a_usage_error(lintgv, checked: Path) -> None:
    result = lintgv("check", "--format", "xml", ".", cwd=checked)
    assert result.returncode == 2
    assert "invalid choice: 'xml'" in result.stderr
