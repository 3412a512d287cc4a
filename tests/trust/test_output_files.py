"""What lintgv writes besides fixed sources (reports, baselines, emitted C, a validate
build) goes only to new or regular files, never through a symbolic link, and is replaced
whole; a hostile tree's link makes exit 2 with a message naming it."""

import os
from pathlib import Path

import pytest
from hostile import run_lintgv

GV101 = "import tvm\ngv = tvm.ir.GlobalVar('f')\n"


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    return victim


@pytest.mark.parametrize(
    "command",
    [
        ["baseline"],  # its default output file, lintgv-baseline.json
        ["baseline", "-o", "lintgv-baseline.json"],
        ["check", "-o", "lintgv-baseline.json"],
    ],
)
def test_a_report_or_baseline_is_not_written_through_a_link(
    tmp_path: Path, command: list[str]
) -> None:
    root = tmp_path / "tree"
    root.mkdir()
    (root / "a.py").write_text(GV101)
    victim = _victim(tmp_path)
    (root / "lintgv-baseline.json").symlink_to(victim)
    result = run_lintgv(*command, "--no-cache", ".", cwd=root)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.endswith(
        "lintgv: error: lintgv-baseline.json: it is a symbolic link; "
        "lintgv does not write through one\n"
    )
    assert victim.read_text() == "keep me"


def test_emit_c_does_not_write_through_a_link_in_its_folder(tmp_path: Path) -> None:
    (tmp_path / "m.json").write_text('{"model": "net", "functions": ["run"]}')
    (tmp_path / "out").mkdir()
    victim = _victim(tmp_path)
    (tmp_path / "out" / "net.c").symlink_to(victim)
    result = run_lintgv("emit-c", "m.json", "-o", "out", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "lintgv: error: out/net.c: it is a symbolic link; lintgv does not write through one\n"
    )
    assert victim.read_text() == "keep me"


@pytest.mark.system("cc", "nm")
@pytest.mark.parametrize("linked", ["main.c", "main", "model0", "model0/net.o"])
def test_validate_does_not_write_through_a_link_in_its_build_folder(
    tmp_path: Path, linked: str
) -> None:
    (tmp_path / "m.json").write_text('{"model": "net", "functions": ["run"]}')
    (tmp_path / "build" / "model0").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    victim = _victim(elsewhere)
    if linked == "model0":
        (tmp_path / "build" / "model0").rmdir()
        (tmp_path / "build" / linked).symlink_to(elsewhere)
    else:
        (tmp_path / "build" / linked).symlink_to(victim)
    build = tmp_path / "build"
    result = run_lintgv("validate", "--build-dir", build, "m.json", cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert f"{build}/{linked}: it is a symbolic link; lintgv does not write through one" in (
        result.stderr
    )
    assert sorted(p.name for p in elsewhere.iterdir()) == ["victim.txt"]
    assert victim.read_text() == "keep me"


@pytest.mark.system("cc", "nm")
def test_validate_builds_in_a_relative_build_folder(tmp_path: Path) -> None:
    (tmp_path / "m.json").write_text('{"model": "net", "functions": ["run"]}')
    result = run_lintgv("validate", "--build-dir", "build", "m.json", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "the program printed: 1 calls ok" in result.stdout
    assert (tmp_path / "build" / "main").is_file()


def test_a_failed_write_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lintgv.writing import OutputError, write_output

    output = tmp_path / "report.txt"
    output.write_text("old report")

    def full(source: object, target: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(OutputError, match=r"report\.txt: cannot be written"):
        write_output(output, "new report")
    assert output.read_text() == "old report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]
