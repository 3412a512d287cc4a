"""Every rule lintgv has, found by importing lintgv/rules/*, and the selection a config makes."""

import importlib
import pkgutil
from collections.abc import Callable
from functools import cache, lru_cache

import lintgv.rules
from lintgv.codes import is_selected
from lintgv.config import Config
from lintgv.model import Language
from lintgv.rules._base import ArtifactRule, Rule, RuleMeta


@cache
def all_rules() -> tuple[type[Rule], ...]:
    """Return every rule class, ordered by code then language; reject a reused code."""
    found: list[type[Rule]] = []
    for info in pkgutil.iter_modules(lintgv.rules.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"lintgv.rules.{info.name}")
        for value in vars(module).values():
            is_rule = isinstance(value, type) and issubclass(value, Rule)
            if is_rule and value.__module__ == module.__name__ and hasattr(value, "META"):
                found.append(value)
    owners: dict[tuple[str, str], str] = {}
    for rule in found:
        key = (rule.META.code, str(rule.LANGUAGE))
        if key in owners and owners[key] != rule.__module__:
            raise RuntimeError(f"rule code {rule.META.code} is defined twice")
        owners[key] = rule.__module__
    return tuple(sorted(found, key=lambda r: (r.META.code, str(r.LANGUAGE))))


def rule_codes() -> dict[str, tuple[type[Rule], ...]]:
    """Return each code with the rule classes (one per language) that implement it."""
    codes: dict[str, list[type[Rule]]] = {}
    for rule in all_rules():
        codes.setdefault(rule.META.code, []).append(rule)
    return {code: tuple(rules) for code, rules in codes.items()}


@cache
def rule_meta(code: str) -> RuleMeta:
    """Return the metadata of `code`, which its rules (one per language) share."""
    return rule_codes()[code][0].META


def codes_where(has: Callable[[RuleMeta], bool]) -> frozenset[str]:
    """Return the codes whose metadata has a property: `has(meta)` is true."""
    return frozenset(code for code, rules in rule_codes().items() if has(rules[0].META))


def is_enabled(code: str, default_enabled: bool, config: Config) -> bool:
    """Tell whether `config` turns `code` on; the more specific of select and ignore wins."""
    return is_selected(code, default_enabled, config.select, config.extend_select, config.ignore)


# Asked once per file checked; a run has one config per project root.
@lru_cache(maxsize=64)
def select(config: Config, language: Language | None = None) -> tuple[type[Rule], ...]:
    """Return the source rules `config` enables (for one language, when given); artifact
    rules are reported by their own commands, whatever the selection."""
    return tuple(
        rule
        for rule in all_rules()
        if not issubclass(rule, ArtifactRule)
        and (language is None or language == rule.LANGUAGE)
        and is_enabled(rule.META.code, rule.META.default_enabled, config)
    )
