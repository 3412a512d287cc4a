"""The CI report formats of `lintgv check`: SARIF against the official JSON schema,
JUnit XML and GitLab Code Quality, on tests/fixtures/check_project."""

import json
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from lintgv.links import DOCUMENTATION, HOMEPAGE, rule_url

ROOT = Path(__file__).parent.parent.parent
# The OASIS SARIF 2.1.0 schema (errata 01, as its `id` says), copied unchanged from
# sarif-2.1/schema/ in github.com/oasis-tcs/sarif-spec; see schemas/README.md.
SCHEMA = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"


@pytest.fixture
def checked(copy_fixture: Callable[[str], Path]) -> Path:
    return copy_fixture("check_project")


def _json_findings(lintgv, root: Path) -> list[dict[str, object]]:
    result = lintgv("check", "--no-cache", "--format", "json", ".", cwd=root)
    findings: list[dict[str, object]] = json.loads(result.stdout)["findings"]
    return findings


def test_sarif_is_valid_against_the_official_schema(lintgv, checked: Path) -> None:
    (checked / "python" / "broken.py").write_text("gv = GlobalVar(\n", encoding="utf-8")
    result = lintgv("check", "--no-cache", "--format", "sarif", ".", cwd=checked)
    log = json.loads(result.stdout)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft4Validator(schema)
    assert [e.message for e in validator.iter_errors(log)] == []
    # The validator is not vacuous: a result without its message is refused.
    broken = json.loads(result.stdout)
    del broken["runs"][0]["results"][0]["message"]
    assert list(validator.iter_errors(broken))


def test_sarif_links_the_tool_and_each_rule_to_their_docs(lintgv, checked: Path) -> None:
    result = lintgv("check", "--no-cache", "--format", "sarif", ".", cwd=checked)
    driver = json.loads(result.stdout)["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == HOMEPAGE
    for rule in driver["rules"]:
        assert rule["helpUri"] == rule_url(rule["id"])
        page = ROOT / "docs" / "rules" / f"{rule['id']}.md"
        assert page.is_file(), f"helpUri points at a page that does not exist: {page}"


def test_the_links_are_the_projects_urls() -> None:
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    assert (urls["Homepage"], urls["Documentation"]) == (HOMEPAGE, DOCUMENTATION)


def test_junit_has_one_failure_per_finding_grouped_by_file(lintgv, checked: Path) -> None:
    expected = _json_findings(lintgv, checked)
    result = lintgv("check", "--no-cache", "--format", "junit", ".", cwd=checked)
    assert result.returncode == 1
    suites = ET.fromstring(result.stdout)
    [suite] = suites.findall("testsuite")
    cases = suite.findall("testcase")
    assert suite.get("tests") == suite.get("failures") == str(len(expected)) == str(len(cases))
    assert suites.get("failures") == str(len(expected))
    got = sorted((c.get("classname"), c.find("failure").get("type")) for c in cases)
    assert got == sorted((f["path"], f["code"]) for f in expected)
    first = cases[0].find("failure")
    assert first is not None and first.text is not None
    assert first.text.startswith(f"{expected[0]['path']}:{expected[0]['line']}:")


def test_junit_reports_unreadable_files_as_errors_and_a_clean_run_as_a_pass(
    lintgv, project
) -> None:
    root = project({"ok.py": "x = 1\n", "bad.py": b"x = '\xe9'\n"})
    result = lintgv("check", "--no-cache", "--format", "junit", ".", cwd=root)
    suite = ET.fromstring(result.stdout).find("testsuite")
    assert suite is not None
    assert (suite.get("failures"), suite.get("errors")) == ("0", "1")
    [case] = suite.findall("testcase")
    assert case.get("classname") == "bad.py" and case.find("error") is not None
    (root / "bad.py").unlink()
    clean = lintgv("check", "--no-cache", "--format", "junit", ".", cwd=root)
    assert clean.returncode == 0
    suite = ET.fromstring(clean.stdout).find("testsuite")
    assert suite is not None and suite.get("tests") == "1" and suite.get("failures") == "0"


def test_junit_stays_well_formed_with_control_characters_in_a_path(lintgv, project) -> None:
    root = project({"odd\x01name.py": "import tvm\ngv = tvm.ir.GlobalVar('f')\n"})
    result = lintgv("check", "--no-cache", "--format", "junit", ".", cwd=root)
    case = ET.fromstring(result.stdout).find("testsuite/testcase")
    assert case is not None and case.get("classname") == "odd\ufffdname.py"


def test_gitlab_code_quality_issues_have_stable_unique_fingerprints(lintgv, checked: Path) -> None:
    expected = _json_findings(lintgv, checked)
    result = lintgv("check", "--no-cache", "--format", "gitlab", ".", cwd=checked)
    issues = json.loads(result.stdout)
    assert len(issues) == len(expected)
    for issue, finding in zip(issues, expected, strict=True):
        assert issue["check_name"].startswith(str(finding["code"]) + " ")
        assert issue["location"] == {"path": finding["path"], "lines": {"begin": finding["line"]}}
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
    prints = [i["fingerprint"] for i in issues]
    assert len(set(prints)) == len(prints)
    # Lines added above the findings move them, but do not change who they are.
    for path in {i["location"]["path"] for i in issues}:
        file = checked / path
        comment = "// moved\n" if file.suffix in (".cc", ".h") else "# moved\n"
        file.write_text(comment * 3 + file.read_text(encoding="utf-8"), encoding="utf-8")
    moved = json.loads(lintgv("check", "--no-cache", "--format", "gitlab", ".", cwd=checked).stdout)
    assert [i["fingerprint"] for i in moved] == prints
    assert [i["location"]["lines"]["begin"] for i in moved] == [
        i["location"]["lines"]["begin"] + 3 for i in issues
    ]
