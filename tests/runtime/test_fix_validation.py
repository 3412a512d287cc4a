"""`lintgv fix` trusts a GV2xx rewrite only when the copy's names match NameSupply's."""

from pathlib import Path

from lintgv.codemods.unique_names import plan_changes
from lintgv.model import Applicability

COPIES = Path(__file__).parent / "copies"


def plan(tmp_path: Path, text: str) -> tuple[Applicability, str]:
    path = tmp_path / "printer.cc"
    path.write_text(text)
    changes, skipped = plan_changes([path], lambda p: p.read_text())
    assert skipped == []
    [change] = changes
    return change.applicability, change.evidence


def test_rewrite_of_supply_like_copy_is_safe(tmp_path: Path) -> None:
    applicability, evidence = plan(tmp_path, (COPIES / "supply_like.cc").read_text())
    assert applicability == Applicability.SAFE
    assert "same names as NameSupply.fresh_name" in evidence


def test_rewrite_that_changes_names_is_unsafe_and_says_which(tmp_path: Path) -> None:
    applicability, evidence = plan(tmp_path, (COPIES / "no_underscore.cc").read_text())
    assert applicability == Applicability.UNSAFE
    assert "x1 → x_1, x2 → x_2, x11 → x1" in evidence
