"""A fork of a TVM release before 0.10 (AKG is one of 0.6) sets its `tvm-version`: lintgv
reports the same names made by hand, for a port of the supply to replace, but no fix
names through a supply the release does not have, and no command writes one."""

import json
import shutil
from pathlib import Path

import pytest

from tests.cli.conftest import run_lintgv

FIXTURES = Path(__file__).parent.parent / "fixtures"
PROJECTS = ("fix_project", "fix_unique_names", "thread_project")
NO_SUPPLY = "no automatic fix: TVM 0.8 has no NameSupply or GlobalVarSupply (they came with 0.10)"


def _copy(tmp_path: Path, name: str, version: str) -> Path:
    root = shutil.copytree(FIXTURES / name, tmp_path / version / name)
    config = root / "lintgv.toml"
    kept = config.read_text().replace('tvm-version = "0.16"\n', "") if config.exists() else ""
    config.write_text(f'tvm-version = "{version}"\n{kept}')
    return root


def _findings(root: Path) -> list[dict]:
    done = run_lintgv("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert done.returncode == 1, done.stderr
    return json.loads(done.stdout)["findings"]


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("name", PROJECTS)
def test_a_release_before_0_10_finds_the_same_sites_and_offers_no_supply_fix(
    tmp_path: Path, name: str
) -> None:
    later, earlier = (
        _findings(_copy(tmp_path, name, "0.16")),
        _findings(_copy(tmp_path, name, "0.8")),
    )
    where = [(f["code"], f["path"], f["line"], f["column"]) for f in later]
    assert [(f["code"], f["path"], f["line"], f["column"]) for f in earlier] == where
    assert any(f["fix"] for f in later)  # on 0.16 these sites have fixes
    for finding in earlier:
        if finding["code"].startswith(("GV1", "GV2")):
            assert finding["fix"] is None, finding
            assert "no automatic fix: " in finding["message"], finding


@pytest.mark.parametrize("name", PROJECTS)
def test_fix_on_a_release_before_0_10_writes_nothing_and_says_why(
    tmp_path: Path, name: str
) -> None:
    root = _copy(tmp_path, name, "0.8")
    before = _files(root)
    done = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=root)
    assert done.returncode == 1, done.stdout + done.stderr
    assert _files(root) == before
    assert done.stdout.startswith("Fixed nothing.")
    assert NO_SUPPLY.removeprefix("no automatic fix: ") in done.stdout


def test_a_copy_left_alone_on_a_release_before_0_10_names_the_release(tmp_path: Path) -> None:
    done = run_lintgv(
        "fix", "--unsafe", "--no-cache", ".", cwd=_copy(tmp_path, "fix_unique_names", "0.8")
    )
    left = done.stdout.split("1 unique-name copy left as it is:", 1)[1]
    assert "CodeGenBase::GetUniqueName" in left
    assert NO_SUPPLY.removeprefix("no automatic fix: ") in left


def test_the_runtime_runs_no_copy_of_a_tree_before_0_10_and_says_why(tmp_path: Path) -> None:
    done = run_lintgv("validate-copies", ".", cwd=_copy(tmp_path, "fix_unique_names", "0.8"))
    assert done.returncode == 2
    assert "copy not run: TVM 0.8 has no NameSupply or GlobalVarSupply" in done.stdout
    assert "Traceback" not in done.stderr


def test_a_release_0_0_is_no_tvm_release(tmp_path: Path) -> None:
    done = run_lintgv("check", "--tvm-version", "0.0", ".", cwd=tmp_path)
    assert done.returncode == 2
    assert 'expected a TVM release such as "0.16" or "0.26"' in done.stderr


def _move_to_old_release(root: Path, name: str, include: tuple[str, str] = ("", "")) -> Path:
    """Move `root`/src/`name` into src/old, a folder whose config says TVM 0.8."""
    old = root / "src" / "old"
    old.mkdir(exist_ok=True)
    source = root / "src" / name
    (old / name).write_text(source.read_text().replace(*include))
    source.unlink()
    (old / "lintgv.toml").write_text(
        (root / "lintgv.toml").read_text().replace('tvm-version = "0.16"', 'tvm-version = "0.8"')
    )
    return old / name


@pytest.mark.parametrize(
    ("name", "moved", "include"),
    [
        ("fix_free_unique_name", "compiler.cc", ('"cache.h"', '"../cache.h"')),
        ("thread_project", "build.cc", ("", "")),
        ("fix_unique_names", "codegen_base.cc", ('"codegen_base.h"', '"../codegen_base.h"')),
    ],
)
def test_no_change_across_files_writes_a_file_of_a_release_before_0_10(
    tmp_path: Path, name: str, moved: str, include: tuple[str, str]
) -> None:
    # A change made from files on 0.16 would write the supply into the file on 0.8.
    root = _copy(tmp_path, name, "0.16")
    old = _move_to_old_release(root, moved, include)
    before = old.read_bytes()
    for extra in ((), ("--prove-names", "--allow-unsandboxed")):
        done = run_lintgv("fix", "--unsafe", "--no-cache", *extra, ".", cwd=root)
        assert done.returncode in (0, 1), done.stdout + done.stderr
        assert old.read_bytes() == before
        assert f"it would write src/old/{moved}, and TVM 0.8 has no NameSupply" in done.stdout
    report = json.loads(run_lintgv("check", "--no-cache", "--format", "json", ".", cwd=root).stdout)
    edited = {
        e.get("path", f["path"]) for f in report["findings"] if f["fix"] for e in f["fix"]["edits"]
    }
    assert f"src/old/{moved}" not in edited


def test_a_migration_plan_counts_sites_before_0_10_as_by_hand(tmp_path: Path) -> None:
    plans = {}
    for version in ("0.16", "0.8"):
        root = _copy(tmp_path, "fix_free_unique_name", version)
        done = run_lintgv("migrate", "--plan", "--format", "json", ".", cwd=root)
        plans[version] = json.loads(done.stdout)["total"]
    assert plans["0.16"]["across_files"] == 5
    assert plans["0.8"] == {**plans["0.16"], "across_files": 0, "by_hand": 5}


def test_a_migration_plan_counts_a_copy_whose_change_writes_a_file_before_0_10_as_by_hand(
    tmp_path: Path,
) -> None:
    # The copy is in a file on 0.16, one file calling it on 0.8: fix refuses the change.
    root = _copy(tmp_path, "fix_free_unique_name", "0.16")
    _move_to_old_release(root, "compiler.cc", ('"cache.h"', '"../cache.h"'))
    done = run_lintgv("migrate", "--plan", "--format", "json", ".", cwd=root)
    total = json.loads(done.stdout)["total"]
    assert total["across_files"] == 0
    assert total["by_hand"] == 5
    fixed = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=root)
    assert "it would write src/old/compiler.cc, and TVM 0.8 has no NameSupply" in fixed.stdout


def test_a_migration_plan_counts_a_copy_named_without_a_finding_before_0_10_as_by_hand(
    tmp_path: Path,
) -> None:
    # The call in the folder on 0.8 is suppressed: it has no finding, yet the copy's
    # change would write that file, and fix refuses it.
    root = _copy(tmp_path, "fix_unique_names", "0.16")
    old = root / "src" / "old"
    old.mkdir()
    (old / "lintgv.toml").write_text('tvm-version = "0.8"\n')
    (old / "codegen_x.cc").write_text(
        '#include "../codegen_c.h"\n'
        'void CodeGenC::Emit() { GetUniqueName("x"); }  // lintgv: ignore[GV203]\n'
    )
    done = run_lintgv("migrate", "--plan", "--format", "json", ".", cwd=root)
    total = json.loads(done.stdout)["total"]
    assert total["across_files"] == 0, total
    fixed = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=root)
    assert "it would write src/old/codegen_x.cc, and TVM 0.8 has no NameSupply" in fixed.stdout


def test_a_copy_named_in_a_comment_alone_before_0_10_is_still_changed_across_files(
    tmp_path: Path,
) -> None:
    # A comment holds no call: the change writes nothing on 0.8, and fix makes it.
    root = _copy(tmp_path, "fix_unique_names", "0.16")
    plan = run_lintgv("migrate", "--plan", "--format", "json", ".", cwd=root)
    across = json.loads(plan.stdout)["total"]["across_files"]
    old = root / "src" / "old"
    old.mkdir()
    (old / "lintgv.toml").write_text('tvm-version = "0.8"\n')
    remark = "// GetUniqueName() of CodeGenC named these once.\nvoid Emit() {}\n"
    (old / "codegen_x.cc").write_text(remark)
    done = run_lintgv("migrate", "--plan", "--format", "json", ".", cwd=root)
    assert json.loads(done.stdout)["total"]["across_files"] == across > 0
    fixed = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=root)
    assert "has no NameSupply" not in fixed.stdout
    assert "NameSupply" in (root / "src" / "codegen_base.h").read_text()
    assert (old / "codegen_x.cc").read_text() == remark


def test_validate_copies_runs_no_copy_of_a_folder_before_0_10(tmp_path: Path) -> None:
    root = _copy(tmp_path, "fix_unique_names", "0.16")
    _move_to_old_release(root, "codegen_base.cc", ('"codegen_base.h"', '"../codegen_base.h"'))
    done = run_lintgv("validate-copies", ".", cwd=root)
    assert done.returncode == 2, done.stdout + done.stderr
    assert (
        "src/old/codegen_base.cc: error: copy not run: TVM 0.8 has no NameSupply or "
        "GlobalVarSupply (they came with 0.10) to compare its names with"
    ) in done.stdout
    assert "1 copy; 0 ran, 0 match NameSupply, 1 not run." in done.stdout


@pytest.mark.parametrize("order", [("old", "src"), ("src", "old")])
def test_validate_copies_runs_the_copies_on_0_10_whatever_folder_comes_first(
    tmp_path: Path, order: tuple[str, str]
) -> None:
    root = _copy(tmp_path, "fix_unique_names", "0.16")
    old = root / "old"
    old.mkdir()
    (old / "lintgv.toml").write_text('tvm-version = "0.8"\n')
    for name in ("codegen_base.h", "codegen_base.cc"):
        text = (root / "src" / name).read_text().replace("CodeGenBase", "OldCodeGen")
        (old / name).write_text(text)
    done = run_lintgv("validate-copies", *order, cwd=root)
    assert done.returncode == 3, done.stdout + done.stderr  # names differ, one not run
    assert "src/codegen_base.cc:9: CodeGenBase::GetUniqueName: names differ" in done.stdout
    assert "old/codegen_base.cc: error: copy not run: TVM 0.8 has no NameSupply" in done.stdout
    assert done.stdout.endswith("2 copies; 1 ran, 0 match NameSupply, 1 not run.\n")


def test_a_release_before_0_10_given_for_every_copy_refuses_the_run(tmp_path: Path) -> None:
    root = _copy(tmp_path, "fix_unique_names", "0.16")
    done = run_lintgv("validate-copies", "--tvm-version", "0.8", ".", cwd=root)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "TVM has name supplies from 0.10 on (PR 12066)" in done.stderr
