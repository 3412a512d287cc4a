"""Multi-file changes: proved, then written together or not at all."""

import shutil
from pathlib import Path

import pytest

from lintgv.codemods.unique_names import HELPER_NAMES, UNPROVEN, Change, Skipped
from lintgv.fixing import groups
from lintgv.fixing.files import Tree
from lintgv.fixing.files import write_atomically as real_write
from lintgv.fixing.groups import GroupFix, Workspace, fix_groups
from lintgv.fixing.proof import NameProof
from lintgv.fixing.run import fix_paths
from lintgv.fixing.summary import render_summary
from lintgv.holding import CppParses

FIXTURES = Path(__file__).parent.parent / "fixtures"
EXPECTED = FIXTURES / "fix_unique_names_fixed" / "src"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "fix_unique_names", tmp_path / "project")
    return tmp_path / "project"


def _texts(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def _run(
    project: Path, *, unsafe: bool = True, write: bool = True, prove: NameProof | None = None
) -> tuple[list[GroupFix], list[Skipped], Workspace]:
    paths = sorted((project / "src").iterdir())
    workspace = Workspace(1 << 20)
    outcomes, left = fix_groups(
        paths,
        workspace,
        HELPER_NAMES,
        unsafe=unsafe,
        write=write,
        max_rounds=5,
        prove=prove,
        tree=Tree.of([project]),
    )
    return outcomes, left, workspace


def test_a_change_is_written_to_every_file_it_touches(project: Path) -> None:
    (done,), left, _ = _run(project)
    assert done.done and done.sites == 4
    assert _texts(project / "src") == _texts(EXPECTED)
    # The printer's GetUniqueName only returns `Doc()`: no copy, so none is left either.
    assert left == []


def test_an_unproven_change_waits_for_unsafe(project: Path) -> None:
    before = _texts(project / "src")
    (outcome,), _, _ = _run(project, unsafe=False)
    assert not outcome.done
    assert outcome.reason == f"unsafe fix ({UNPROVEN}); apply with --unsafe"
    assert _texts(project / "src") == before


@pytest.mark.system("c++", "bwrap")
def test_a_change_proven_to_rename_waits_for_unsafe(project: Path) -> None:
    before = _texts(project / "src")
    proof = NameProof(lambda path: "0.24")
    (outcome,), _, _ = _run(project, unsafe=False, prove=proof)
    assert not outcome.done
    assert outcome.reason == (
        "unsafe fix (names differ from NameSupply.fresh_name at 13 of 17: "
        "x1 → x_1, x2 → x_2, x11 → x1 (+10 more) (TVM 0.24)); apply with --unsafe"
    )
    assert _texts(project / "src") == before


def test_diff_mode_keeps_the_change_in_memory_only(project: Path) -> None:
    before = _texts(project / "src")
    (outcome,), _, workspace = _run(project, write=False)
    assert outcome.done
    assert _texts(project / "src") == before
    header = project / "src" / "codegen_base.h"
    assert workspace.current(header) == (EXPECTED / "codegen_base.h").read_text()


def test_a_failed_write_puts_back_the_files_already_written(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _texts(project / "src")
    calls: list[Path] = []

    def second_fails(path: Path, data: bytes, digest: str, tree: Tree) -> None:
        calls.append(path)
        if len(calls) == 2:
            raise OSError("disk full")
        real_write(path, data, digest, tree)

    monkeypatch.setattr(groups, "write_atomically", second_fails)
    (outcome,), _, _ = _run(project)
    assert not outcome.done
    assert outcome.reason is not None and outcome.reason.endswith("nothing kept")
    assert _texts(project / "src") == before


def test_a_file_changed_on_disk_stops_the_whole_change(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_prove = groups.prove_change

    def prove_then_edit(
        change: Change,
        workspace: Workspace,
        paths: list[Path],
        names: frozenset[str],
        parses: CppParses | None = None,
    ) -> str | None:
        reason = real_prove(change, workspace, paths, names, parses)
        (project / "src" / "codegen_c.cc").write_text("// edited meanwhile\n")
        return reason

    monkeypatch.setattr(groups, "prove_change", prove_then_edit)
    (outcome,), _, _ = _run(project)
    assert not outcome.done
    assert outcome.reason is not None and "changed on disk" in outcome.reason
    assert (project / "src" / "codegen_base.h").read_text() == (
        FIXTURES / "fix_unique_names" / "src" / "codegen_base.h"
    ).read_text()


def test_lintgv_fix_reports_the_change_and_a_second_run_does_nothing(project: Path) -> None:
    first = fix_paths([project], {}, unsafe=True, use_cache=False)
    summary = render_summary(first, unsafe=True).splitlines()
    assert summary[1] == (
        "Replaced 1 unique-name copy with a supply (4 call sites): CodeGenBase::GetUniqueName."
    )
    # The printer's GetUniqueName returns a Doc and keeps no names: GV201 does not report
    # it, so it is no copy left to a human either.
    assert not any("Printer::GetUniqueName" in line for line in summary)
    assert _texts(project / "src") == _texts(EXPECTED)
    again = fix_paths([project], {}, unsafe=True, use_cache=False)
    assert not any(g.done for g in again.groups)
    assert _texts(project / "src") == _texts(EXPECTED)
