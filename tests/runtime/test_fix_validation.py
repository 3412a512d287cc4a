"""A GV2xx rewrite is unsafe as planned: nothing is run. `lintgv fix --prove-names` runs the
copy in the sandbox beside the NameSupply of the configured TVM release, and trusts the
rewrite only when the names are the same."""

from pathlib import Path

import pytest

from lintgv.codemods.unique_names import UNPROVEN, Change, plan_changes
from lintgv.fixing.proof import NameProof
from lintgv.model import Applicability
from lintgv.runtime.copies import sandbox

pytestmark = pytest.mark.system("c++", "bwrap")

COPIES = Path(__file__).parent / "copies"


def plan(tmp_path: Path, text: str) -> Change:
    path = tmp_path / "printer.cc"
    path.write_text(text)
    changes, skipped = plan_changes([path], lambda p: p.read_text())
    assert skipped == []
    [change] = changes
    return change


def test_planning_runs_nothing_and_leaves_the_rewrite_unsafe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: object, **kwargs: object) -> sandbox.Outcome:
        raise AssertionError("planning ran code of the tree")

    monkeypatch.setattr(sandbox, "run_sandboxed", refuse)
    change = plan(tmp_path, (COPIES / "supply_like.cc").read_text())
    assert (change.applicability, change.evidence) == (Applicability.UNSAFE, UNPROVEN)


def test_a_proof_makes_a_supply_like_copy_safe(tmp_path: Path) -> None:
    change = plan(tmp_path, (COPIES / "supply_like.cc").read_text())
    applicability, evidence = NameProof(lambda path: "0.24").judge(change)
    assert applicability == Applicability.SAFE
    assert "same names as NameSupply.fresh_name" in evidence


def test_a_proof_follows_the_configured_tvm_release(tmp_path: Path) -> None:
    # The copy names the empty name "v", as NameSupply does from TVM 0.24 on only.
    change = plan(tmp_path, (COPIES / "supply_like.cc").read_text())
    applicability, evidence = NameProof(lambda path: "0.16").judge(change)
    assert applicability == Applicability.UNSAFE
    assert 'at 2 of 17: v → "", v_1 → _1' in evidence
    assert "TVM 0.16" in evidence


def test_a_proof_of_a_copy_that_changes_names_says_which(tmp_path: Path) -> None:
    change = plan(tmp_path, (COPIES / "no_underscore.cc").read_text())
    applicability, evidence = NameProof(lambda path: "0.24").judge(change)
    assert applicability == Applicability.UNSAFE
    assert "x1 → x_1, x2 → x_2, x11 → x1" in evidence
