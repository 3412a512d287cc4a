"""Texts that tests run a query or a check over: the rules' own examples, and every C++
fixture."""

from pathlib import Path
from typing import Any

import pytest

from lintgv.model import Language
from lintgv.registry import all_rules

FIXTURES = Path(__file__).parent / "fixtures"


def example_params(language: Language) -> list[Any]:
    """Return the code of every example of `language`'s rules that needs no config of
    its own, as pytest params named by rule, kind and place."""
    return [
        pytest.param(example.code, id=f"{rule.META.code}-{kind}-{i}")
        for rule in all_rules()
        if language == rule.LANGUAGE
        for kind, examples in (("valid", rule.VALID), ("invalid", rule.INVALID))
        for i, example in enumerate(examples)
        if not example.config
    ]


def cpp_texts() -> list[str]:
    """Return the text of every C++ fixture file, then of every C++ rule example."""
    texts = []
    for path in sorted(FIXTURES.rglob("*")):
        if path.suffix in (".cc", ".h", ".cpp"):
            texts.append(path.read_text(encoding="utf-8"))
    for rule in all_rules():
        if rule.LANGUAGE is Language.CPP:
            texts.extend(example.code for example in (*rule.VALID, *rule.INVALID))
    return texts
