"""How JSON and SARIF tell a rule's crash (a bug in lintgv to report) from a file one
rule could not read (syntax only a later Python has): both name the rule; only a crash
is marked as one, in JSON by `crash` and in SARIF by the notification's `exception`."""

import json
import subprocess
import sys
from pathlib import Path

import jsonschema

SCHEMA = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"
CRASHING = Path(__file__).parent / "crashing_cli.py"


def _reports(command: list[str], root: Path, exit_code: int) -> tuple[dict, dict]:
    """Return the JSON and the SARIF report of `command ... check` on `root`, each made
    by a run that ended with `exit_code`."""
    documents = []
    for form in ("json", "sarif"):
        result = subprocess.run(
            [*command, "check", "--no-cache", "--format", form, "."],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == exit_code, result.stderr
        documents.append(json.loads(result.stdout))
    validator = jsonschema.Draft4Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert [e.message for e in validator.iter_errors(documents[1])] == []
    return documents[0], documents[1]


def _notifications(sarif: dict) -> list[dict]:
    notes: list[dict] = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    return notes


def test_a_crashed_rule_is_marked_as_a_crash(project) -> None:
    root = project({"a.cc": 'void F() {\n  GlobalVar gv("f");\n}\n'})
    document, sarif = _reports([sys.executable, "-P", str(CRASHING)], root, 2)
    assert document["findings"] == []
    (error,) = document["errors"]
    assert error["code"] == "GV101" and error["crash"] is True
    assert error["message"] == "rule GV101 crashed: RuntimeError: injected crash"
    (note,) = _notifications(sarif)
    assert note["associatedRule"] == {"id": "GV101"}
    assert note["exception"] == {"message": error["message"]}


def test_a_rule_that_could_not_read_the_file_is_no_crash(project) -> None:
    later = 'def rename[T](func: T) -> T:\n    return func.with_attr("global_symbol", "x")\n'
    root = project({"later.py": later, "a.cc": 'void F() {\n  GlobalVar gv("f");\n}\n'})
    later_python = sys.version_info >= (3, 12)
    document, sarif = _reports([sys.executable, "-m", "lintgv"], root, 1 if later_python else 3)
    if later_python:
        # The Python lintgv runs on reads the syntax: GV301 reports the setting.
        assert [f["code"] for f in document["findings"]] == ["GV101", "GV301"]
        assert document["errors"] == [] and _notifications(sarif) == []
        return
    assert [f["code"] for f in document["findings"]] == ["GV101"]
    errors = sorted(document["errors"], key=lambda e: e["code"])
    assert [(e["code"], "crash" in e) for e in errors] == [("GV301", False), ("GV302", False)]
    notes = _notifications(sarif)
    assert sorted(n["associatedRule"]["id"] for n in notes) == ["GV301", "GV302"]
    assert all("exception" not in n for n in notes)
