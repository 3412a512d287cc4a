"""The CI report formats of `lintgv check`: SARIF against the official JSON schema,
JUnit XML against Jenkins' schema, and GitLab Code Quality, on tests/fixtures/check_project."""

import json
import os
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
import xmlschema

from lintgv.links import DOCUMENTATION, HOMEPAGE, rule_url

ROOT = Path(__file__).parent.parent.parent
# The OASIS SARIF 2.1.0 schema (errata 01, as its `id` says), copied unchanged from
# sarif-2.1/schema/ in github.com/oasis-tcs/sarif-spec; see schemas/README.md.
SCHEMA = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"
# The JUnit schema Jenkins' xUnit plugin checks reports with (schemas/README.md).
JUNIT_SCHEMA = xmlschema.XMLSchema(Path(__file__).parent / "schemas" / "junit-10.xsd")


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


def _junit(result: subprocess.CompletedProcess[str]) -> ET.Element:
    """Parse a JUnit report after checking it against Jenkins' JUnit schema."""
    errors = [str(e.reason) for e in JUNIT_SCHEMA.iter_errors(result.stdout)]
    assert errors == [], result.stdout
    return ET.fromstring(result.stdout)


def test_junit_has_a_suite_per_file_and_a_failure_per_finding(lintgv, checked: Path) -> None:
    expected = _json_findings(lintgv, checked)
    result = lintgv("check", "--no-cache", "--format", "junit", ".", cwd=checked)
    assert result.returncode == 1
    report = _junit(result)
    suites = report.findall("testsuite")
    assert sorted(s.get("name") for s in suites) == sorted({f["path"] for f in expected})
    for suite in suites:
        cases = suite.findall("testcase")
        mine = [f for f in expected if f["path"] == suite.get("name")]
        assert suite.get("tests") == suite.get("failures") == str(len(mine)) == str(len(cases))
        # Jenkins splits a class name at its last dot: the suffix would become the class.
        assert {c.get("classname") for c in cases} == {suite.get("name").rsplit(".", 1)[0]}
        assert sorted(c.find("failure").get("type") for c in cases) == sorted(
            f["code"] for f in mine
        )
    assert (report.get("tests"), report.get("failures")) == (str(len(expected)),) * 2
    first = suites[0].find("testcase/failure")
    assert first is not None and first.text is not None
    assert first.text.startswith(f"{expected[0]['path']}:{expected[0]['line']}:")
    assert rule_url(str(expected[0]["code"])) in first.text


def test_junit_reports_unreadable_files_as_errors_and_a_clean_run_as_a_pass(
    lintgv, project
) -> None:
    root = project({"ok.py": "x = 1\n", "bad.py": b"x = '\xe9'\n"})
    result = lintgv("check", "--no-cache", "--format", "junit", ".", cwd=root)
    assert result.returncode == 2
    [suite] = _junit(result).findall("testsuite")
    assert (suite.get("name"), suite.get("failures"), suite.get("errors")) == ("bad.py", "0", "1")
    [case] = suite.findall("testcase")
    assert case.get("classname") == "bad" and case.find("error") is not None
    (root / "bad.py").unlink()
    clean = lintgv("check", "--no-cache", "--format", "junit", ".", cwd=root)
    assert clean.returncode == 0
    [suite] = _junit(clean).findall("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("1", "0", "0")


def test_junit_stays_well_formed_with_control_characters_in_a_path(lintgv, project) -> None:
    root = project({"odd\x01name.py": "import tvm\ngv = tvm.ir.GlobalVar('f')\n"})
    result = lintgv("check", "--no-cache", "--format", "junit", ".", cwd=root)
    suite = _junit(result).find("testsuite")
    assert suite is not None and suite.get("name") == "odd\\x01name.py"


def test_reports_stay_utf8_with_a_file_name_that_is_not(lintgv, project) -> None:
    name = os.fsdecode(b"bad\xffname.py")  # a byte no UTF-8 text holds, as Linux allows
    root = project({name: "import tvm\ngv = tvm.ir.GlobalVar('f')\n"})
    for kind in ("junit", "gitlab", "sarif"):
        done = subprocess.run(
            [sys.executable, "-m", "lintgv", "check", "--no-cache", "--format", kind, "."],
            cwd=root,
            capture_output=True,
            check=False,
        )
        assert (done.returncode, done.stderr) == (1, b""), done.stderr.decode(errors="replace")
        done.stdout.decode("utf-8")  # raises if the report is not UTF-8
    sarif = json.loads(done.stdout)
    [result] = sarif["runs"][0]["results"]
    # The URI names the file's real bytes, so a viewer can still open it.
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == (
        "bad%FFname.py"
    )


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


def test_gitlab_reports_a_file_that_could_not_be_checked_as_a_blocker(lintgv, project) -> None:
    # A job that keeps going whatever `check` returns, to publish the report, must not
    # publish a clean one for a file nobody checked.
    root = project({"ok.py": "x = 1\n", "bad.py": b"x = '\xe9'\n"})
    result = lintgv("check", "--no-cache", "--format", "gitlab", ".", cwd=root)
    assert result.returncode == 2
    (issue,) = json.loads(result.stdout)
    assert issue["severity"] == "blocker"
    assert issue["check_name"] == "not checked"
    assert issue["location"] == {"path": "bad.py", "lines": {"begin": 1}}
    assert issue["description"].startswith("not valid UTF-8 (byte 0xe9 at offset 5)")
    again = json.loads(lintgv("check", "--no-cache", "--format", "gitlab", ".", cwd=root).stdout)
    assert [i["fingerprint"] for i in again] == [issue["fingerprint"]]


def test_gitlab_fingerprints_of_files_not_checked_are_unique_and_stay_put(
    lintgv, project, tmp_path: Path
) -> None:
    twice = project({"ok.py": "x = 1\n"})
    result = lintgv("check", "--no-cache", "--format", "gitlab", "gone.py", "gone.py", cwd=twice)
    prints = [i["fingerprint"] for i in json.loads(result.stdout)]
    assert len(prints) == 2 and len(set(prints)) == 2
    # A broken config's message names it by its absolute path; a CI job's folder may
    # change from one pipeline to the next, and the issue must not look new.
    seen = []
    for folder in ("one", "two"):
        root = tmp_path / folder
        root.mkdir()
        (root / "lintgv.toml").write_text("select = 5\n", encoding="utf-8")
        (root / "f.py").write_text("x = 1\n", encoding="utf-8")
        (issue,) = json.loads(
            lintgv("check", "--no-cache", "--format", "gitlab", ".", cwd=root).stdout
        )
        assert str(root) in issue["description"]
        seen.append(issue["fingerprint"])
    assert seen[0] == seen[1]
