"""The rule catalogue as a whole: codes, names, docs and examples follow the house rules.

New rules are picked up from the registry; none needs a test of its own here.
"""

import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lintgv.codes import known_codes, reporter
from lintgv.migration import PHASES
from lintgv.model import Applicability
from lintgv.registry import all_rules, rule_codes
from lintgv.rules._base import ArtifactRule, Rule

ROOT = Path(__file__).parent.parent.parent
FAMILIES = ("GV1", "GV2", "GV3", "GV4", "GV5", "GV9")
RULES = [
    pytest.param(rule, id=f"{rule.META.code}-{rule.LANGUAGE or 'any'}") for rule in all_rules()
]
CODES = [pytest.param(code, rules, id=code) for code, rules in rule_codes().items()]


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


@pytest.mark.parametrize(("code", "rules"), CODES)
def test_code_is_well_formed_and_in_a_family(code: str, rules: tuple[type[Rule], ...]) -> None:
    assert re.fullmatch(r"GV\d{3}", code)
    assert code.startswith(FAMILIES)


@pytest.mark.parametrize(("code", "rules"), CODES)
def test_one_code_has_one_name_and_one_file(code: str, rules: tuple[type[Rule], ...]) -> None:
    assert len({r.META.name for r in rules}) == 1
    assert len({r.__module__ for r in rules}) == 1
    assert len({r.LANGUAGE for r in rules}) == len(rules), "one class per language"


@pytest.mark.parametrize("rule", RULES)
def test_file_name_starts_with_the_lowercased_code(rule: type[Rule]) -> None:
    module = rule.__module__.rsplit(".", 1)[-1]
    assert module.startswith(rule.META.code.lower() + "_")


@pytest.mark.parametrize("rule", RULES)
def test_name_is_kebab_case_and_class_is_its_pascal_case(rule: type[Rule]) -> None:
    name = rule.META.name
    assert re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name)
    assert not name.startswith(("no-", "use-")), "name the flagged pattern"
    assert rule.__name__ in {_pascal(name) + suffix for suffix in ("", "Python", "Cpp")}


@pytest.mark.parametrize("rule", RULES)
def test_message_states_problem_then_remedy(rule: type[Rule]) -> None:
    message = rule.META.message
    assert message.problem.strip() and message.remedy.strip(), "expected a problem and a remedy"


@pytest.mark.parametrize("rule", RULES)
def test_docstring_has_summary_and_why_it_matters(rule: type[Rule]) -> None:
    doc = inspect.cleandoc(rule.__doc__ or "")
    summary = doc.split("\n", 1)[0]
    assert summary.strip() and summary.rstrip().endswith(".")
    assert "\n## Why it matters\n" in doc
    assert "\n## Fix\n" in doc


@pytest.mark.parametrize("rule", RULES)
def test_rule_has_valid_and_invalid_examples(rule: type[Rule]) -> None:
    if issubclass(rule, ArtifactRule):
        # Its input is a build product, not a source file: tests/cli/test_artifact_examples
        # runs the example it has instead.
        assert (rule.VALID, rule.INVALID) == ([], [])
        return
    assert rule.VALID, "no Valid example"
    assert rule.INVALID, "no Invalid example"


@pytest.mark.parametrize(("code", "rules"), CODES)
def test_fix_is_declared_exactly_when_an_example_shows_one(
    code: str, rules: tuple[type[Rule], ...]
) -> None:
    has_fixed = any(example.fixed is not None for rule in rules for example in rule.INVALID)
    assert (rules[0].META.fix != Applicability.NONE) == has_fixed


def test_docs_rules_is_current() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_rule_docs.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_the_codes_known_without_loading_rules_are_the_registrys() -> None:
    # Config validation (lintgv/codes.py) reads the codes off the rule modules' names.
    assert known_codes() == tuple(rule_codes())


@pytest.mark.parametrize("rule", RULES)
def test_codes_check_never_reports_are_the_artifact_rules_with_their_command(
    rule: type[Rule],
) -> None:
    # Config validation (lintgv/codes.py) refuses a selection of only these codes, naming
    # the command that reports them.
    command = reporter(rule.META.code)
    if issubclass(rule, ArtifactRule):
        assert command is not None and rule.REPORTED_BY.startswith(f"`{command}`")
    else:
        assert command is None


@pytest.mark.parametrize("rule", RULES)
def test_a_source_rule_names_the_migration_phase_that_plans_its_sites(rule: type[Rule]) -> None:
    phase = rule.META.phase
    if issubclass(rule, ArtifactRule):
        assert phase is None, "no migration step changes what a build produces"
    else:
        assert phase in {p.key for p in PHASES}
