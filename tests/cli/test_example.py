"""The example tree README's first command checks: one of each kind of finding."""

import json
from pathlib import Path

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "tvm_like"
CLEAN_FILES = {
    "python/tvm_like/relay/clean.py",
    "src/ir/global_var_supply.cc",
    "tests/test_lift.py",
    "generated/ops.py",
}


def _report(lintgv) -> tuple[int, dict]:
    result = lintgv("check", "--no-cache", "--format", "json", ".", cwd=EXAMPLE)
    return result.returncode, json.loads(result.stdout)


def test_example_has_one_of_each_kind_and_no_errors(lintgv) -> None:
    code, document = _report(lintgv)
    assert (code, document["errors"]) == (1, [])
    codes = {f["code"] for f in document["findings"]}
    assert {"GV101", "GV201", "GV202", "GV203", "GV301", "GV302", "GV901", "GV902"} <= codes
    assert {f["path"] for f in document["findings"]}.isdisjoint(CLEAN_FILES)


def test_example_reports_both_languages(lintgv) -> None:
    _, document = _report(lintgv)
    suffixes = {Path(f["path"]).suffix for f in document["findings"] if f["code"] == "GV101"}
    assert suffixes == {".py", ".cc"}


def test_readme_first_command_works_from_the_checkout(lintgv) -> None:
    root = EXAMPLE.parent.parent
    result = lintgv("check", "--no-cache", "examples/tvm_like", cwd=root)
    assert result.returncode == 1
    assert "examples/tvm_like/src/relay/backend/lower_funcs.cc:" in result.stdout
