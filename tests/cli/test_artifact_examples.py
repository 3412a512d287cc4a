"""Each artifact rule's example, as its page shows it, is what lintgv does: a session is
run in a folder holding its files, and the symbols of an `Exported` example are checked
as `lintgv validate` checks a model's object file."""

import json
from pathlib import Path

import pytest

from lintgv.registry import all_rules
from lintgv.report.text import render
from lintgv.rules._base import ArtifactRule, Exported, Session
from lintgv.runtime.c_names import SymbolNamer
from lintgv.runtime.symbol_checks import ModelSymbols, check_symbols
from tests.cli.conftest import Lintgv

ARTIFACT_RULES = [r for r in all_rules() if issubclass(r, ArtifactRule)]
# The programs each command needs: `validate` builds with cc and lists symbols with nm;
# `validate-copies` compiles C++ copies and runs every copy in the bubblewrap sandbox.
NEEDS = {"validate": ("cc", "nm"), "validate-copies": ("c++", "bwrap")}


def _sessions() -> list[object]:
    return [
        pytest.param(r, id=r.META.code, marks=pytest.mark.system(*NEEDS[r.EXAMPLE.args[0]]))
        for r in ARTIFACT_RULES
        if isinstance(r.EXAMPLE, Session)
    ]


def _exported() -> list[object]:
    return [
        pytest.param(r, id=r.META.code) for r in ARTIFACT_RULES if isinstance(r.EXAMPLE, Exported)
    ]


def test_every_artifact_rule_has_an_example_run_by_its_command() -> None:
    assert ARTIFACT_RULES
    for rule in ARTIFACT_RULES:
        if isinstance(rule.EXAMPLE, Session):
            assert f"`lintgv {rule.EXAMPLE.args[0]}`" in rule.REPORTED_BY


@pytest.mark.parametrize("rule", _sessions())
def test_session_prints_what_the_page_shows(
    rule: type[ArtifactRule], lintgv: Lintgv, tmp_path: Path
) -> None:
    example = rule.EXAMPLE
    assert isinstance(example, Session)
    for name, text in example.files:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    result = lintgv(*example.args, cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    printed = result.stdout.splitlines()
    # The lines the page shows, in order, each whole.
    at = [printed.index(line) for line in example.prints]
    assert at == sorted(at)
    # The text of `validate-copies` names no code: the JSON report says it is this rule's.
    report = lintgv(*example.args, "--format", "json", cwd=tmp_path)
    assert [f["code"] for f in json.loads(report.stdout)["findings"]] == [rule.META.code]


@pytest.mark.parametrize("rule", _exported())
def test_exported_symbols_give_what_the_page_shows(rule: type[ArtifactRule]) -> None:
    example = rule.EXAMPLE
    assert isinstance(example, Exported)
    prefix = SymbolNamer(example.model).prefix
    model = ModelSymbols(Path("model.json"), example.model, prefix, example.symbols)
    findings = check_symbols([model])
    assert {f.code for f in findings} == {rule.META.code}
    assert render(findings, [], {}, show_source=False).splitlines() == list(example.prints)
