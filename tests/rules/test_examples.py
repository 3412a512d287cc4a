"""Every rule's Valid and Invalid examples, run through the engine."""

import pytest

from lintgv.examples import fixed_text, run_example
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


@pytest.mark.parametrize(("rule", "example"), VALID)
def test_valid_example_is_not_reported(rule: type[Rule], example: Valid) -> None:
    result = run_example(rule, example)
    assert result.errors == ()
    noisy = [f for f in result.findings if f.code == rule.META.code]
    assert noisy == [], f"noisy: {noisy}"


@pytest.mark.parametrize(("rule", "example"), INVALID)
def test_invalid_example_is_reported(rule: type[Rule], example: Invalid) -> None:
    result = run_example(rule, example)
    assert result.errors == ()
    found = [f for f in result.findings if f.code == rule.META.code]
    assert found, "missed"
    first = found[0]
    if example.span is not None:
        span = first.span
        assert (
            span.start_line,
            span.start_col + 1,
            span.end_line,
            span.end_col + 1,
        ) == example.span
    if example.message is not None:
        assert first.message == example.message
    if example.fixed is not None:
        assert fixed_text(rule, example) == example.fixed
