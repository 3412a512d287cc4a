"""Every rule's Valid and Invalid examples, run through the engine."""

import pytest

from lintgv.examples import fixed_text, run_example
from lintgv.model import Finding
from lintgv.registry import all_rules
from lintgv.rules._base import Invalid, Rule, Valid

VALID = [
    pytest.param(rule, example, id=f"{rule.META.code}-{rule.LANGUAGE or 'any'}-valid-{i}")
    for rule in all_rules()
    for i, example in enumerate(rule.VALID)
]
INVALID = [
    pytest.param(rule, example, id=f"{rule.META.code}-{rule.LANGUAGE or 'any'}-invalid-{i}")
    for rule in all_rules()
    for i, example in enumerate(rule.INVALID)
]


def _printed(finding: Finding) -> tuple[str, tuple[int, int, int, int]]:
    span = finding.span
    return finding.code, (span.start_line, span.start_col + 1, span.end_line, span.end_col + 1)


@pytest.mark.parametrize(("rule", "example"), VALID)
def test_valid_example_is_not_reported(rule: type[Rule], example: Valid) -> None:
    result = run_example(rule, example)
    assert result.errors == ()
    assert [_printed(f) for f in result.findings] == []


@pytest.mark.parametrize(("rule", "example"), INVALID)
def test_invalid_example_is_reported_exactly_where_it_says(
    rule: type[Rule], example: Invalid
) -> None:
    result = run_example(rule, example)
    assert result.errors == ()
    # Every finding, of any code, is accounted for: its code, line and column.
    expected = [(rule.META.code, span) for span in (example.span, *example.also)]
    assert [_printed(f) for f in result.findings] == expected
    if example.message is not None:
        assert result.findings[0].message == str(example.message)
    if example.fixed is not None:
        assert fixed_text(rule, example) == example.fixed


ACROSS = [p for p in INVALID if p.values[0].META.across_files]


@pytest.mark.parametrize(("rule", "example"), ACROSS)
def test_a_finding_fixed_across_files_names_its_copy_as_its_subject(
    rule: type[Rule], example: Invalid
) -> None:
    # The fix summary finds the copy a finding was left with by its subject alone.
    for finding in run_example(rule, example).findings:
        assert finding.subject and f"`{finding.subject}`" in finding.message
