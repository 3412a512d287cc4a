"""The migration plan's phases take their codes, callees and fix commands from the rules'
metadata: a new rule lands in its phase with no edit of lintgv/migration.py."""

from collections.abc import Iterator
from dataclasses import replace

import pytest

from lintgv import registry
from lintgv.migration import PHASES, Phase
from lintgv.rules._base import MigrationPhase, Rule


def _phase(key: MigrationPhase) -> Phase:
    return next(p for p in PHASES if p.key is key)


@pytest.fixture
def with_new_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Register one more rule, GV205: a callee of the unique-name helpers' phase with a
    safe fix of its own."""
    meta = replace(registry.rule_meta("GV202"), code="GV205", reports_callees=True)
    new_rule = type("NewRule", (Rule,), {"META": meta, "LANGUAGE": None})
    codes = {**registry.rule_codes(), "GV205": (new_rule,)}
    registry.rule_meta.cache_clear()
    monkeypatch.setattr(registry, "rule_codes", lambda: codes)
    yield
    registry.rule_meta.cache_clear()


def test_the_phases_hold_the_codes_their_rules_name() -> None:
    helpers = _phase(MigrationPhase.UNIQUE_NAME_HELPERS)
    assert helpers.codes == ("GV201", "GV202", "GV203")
    assert helpers.callee_codes == ("GV201", "GV202")
    assert helpers.multi_file
    assert helpers.fix == "lintgv fix --unsafe --select GV201,GV202,GV203"
    assert _phase(MigrationPhase.SUPPRESSIONS).fix == "lintgv fix --select GV901,GV902"
    assert _phase(MigrationPhase.UNIQUING_LOOPS).fix == ""  # display only: nothing to apply


@pytest.mark.usefixtures("with_new_rule")
def test_a_new_rule_lands_in_the_phase_its_metadata_names() -> None:
    helpers = _phase(MigrationPhase.UNIQUE_NAME_HELPERS)
    assert helpers.codes == ("GV201", "GV202", "GV203", "GV205")
    assert helpers.callee_codes == ("GV201", "GV202", "GV205")
    assert helpers.fix == "lintgv fix --unsafe --select GV201,GV202,GV203,GV205"
    assert "GV205" not in _phase(MigrationPhase.GLOBAL_VARS).codes
