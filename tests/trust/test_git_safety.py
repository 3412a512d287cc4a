"""`--diff-base` on a hostile repository: git runs with the repository's programs turned
off, and its diff is read by a parser that cannot be fooled by a changed line that looks
like a header, nor by an unusual file name."""

import subprocess
from pathlib import Path

import pytest
from hostile import run_lintgv

from lintgv.diff_base import parse_diff, unquote

SITE = "import tvm\ngv = tvm.ir.GlobalVar('f')\n"


def _git(root: Path, *args: str) -> None:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", *identity, *args], cwd=root, check=True, capture_output=True)


def _repository(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(exist_ok=True)
    _git(root, "init", "-q")
    for name, text in files.items():
        (root / name).write_text(text)
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "base")
    return root


def test_a_changed_line_that_looks_like_a_file_header_stays_in_its_file() -> None:
    diff = (
        "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n"
        "@@ -1,0 +2,2 @@\n+++ b/evil.py\n+x = 1\n"
        "@@ -9,0 +11 @@\n+y = 2\n"
    )
    assert parse_diff(diff) == {"a.py": [range(2, 4), range(11, 12)]}


@pytest.mark.system("git")
def test_lines_that_look_like_headers_do_not_move_later_findings(tmp_path: Path) -> None:
    base = "\n".join(f"x{i} = {i}" for i in range(20)) + "\n"
    root = _repository(tmp_path / "repo", {"a.py": base})
    lines = base.splitlines()
    lines[2:2] = ["++ b/evil.py", "+++ b/evil.py"]  # added lines that read as headers
    lines.insert(15, "import tvm; gv = tvm.ir.GlobalVar('f')")
    (root / "a.py").write_text("\n".join(lines) + "\n")
    result = run_lintgv("check", "--no-cache", "--diff-base", "HEAD", "a.py", cwd=root)
    assert "a.py:16:" in result.stdout, result.stdout + result.stderr


@pytest.mark.system("git")
def test_the_repositorys_fsmonitor_hook_never_runs(tmp_path: Path) -> None:
    root = _repository(tmp_path / "repo", {"a.py": SITE})
    marker = tmp_path / "marker"
    hook = tmp_path / "hook.sh"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    _git(root, "config", "core.fsmonitor", str(hook))
    _git(root, "config", "diff.external", str(hook))
    (root / "a.py").write_text(SITE + "gv2 = tvm.ir.GlobalVar('g')\n")
    result = run_lintgv("check", "--no-cache", "--diff-base", "HEAD", ".", cwd=root)
    assert "a.py:3:" in result.stdout, result.stdout + result.stderr
    assert not marker.exists(), "a program the repository named was run"


@pytest.mark.system("git")
def test_unusual_file_names_are_read_exactly(tmp_path: Path) -> None:
    name = 'ünï "q"\tx.py'
    root = _repository(tmp_path / "repo", {name: "x = 1\n"})
    (root / name).write_text("x = 1\n" + SITE)
    result = run_lintgv("check", "--no-cache", "--diff-base", "HEAD", ".", cwd=root)
    assert "GV101" in result.stdout, result.stdout + result.stderr
    assert unquote('"\\303\\274 \\"q\\"\\tx.py"') == 'ü "q"\tx.py'
