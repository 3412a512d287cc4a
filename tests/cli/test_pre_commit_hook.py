"""The pre-commit hook this repository offers (.pre-commit-hooks.yaml), installed and run
by pre-commit itself with `pre-commit try-repo`, as a user's repository would.

pre-commit builds the hook's environment with pip, which fetches lintgv's dependencies
from a package index: without one the test fails at that install."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent.parent
pytestmark = [pytest.mark.network, pytest.mark.system("git")]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, timeout=60)


def _hook_repo(tmp_path: Path) -> Path:
    """Return a committed copy of this checkout as it is now, new files included (what
    pre-commit installs the hook from; `try-repo` on the checkout would miss new files)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    copy = tmp_path / "lintgv-repo"
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = copy / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    _git(copy, "init", "-q")
    _git(copy, "add", ".")
    _git(copy, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "x")
    return copy


def _try_repo(hooks: Path, repo: Path, home: Path, *files: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hooks), "lintgv", "--files", *files],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_the_hook_fails_on_a_finding_and_passes_on_a_clean_file(tmp_path: Path) -> None:
    repo = tmp_path / "user-repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "passes.py").write_text("import tvm\ngv = tvm.ir.GlobalVar('f')\n")
    (repo / "clean.py").write_text("x = 1\n")
    (repo / "notes.txt").write_text("GlobalVar('f')\n")
    _git(repo, "add", ".")
    home = tmp_path / "pre-commit-home"
    hooks = _hook_repo(tmp_path)
    found = _try_repo(hooks, repo, home, "passes.py", "clean.py")
    assert found.returncode == 1, found.stdout + found.stderr
    assert "passes.py:2:6: GV101" in found.stdout
    clean = _try_repo(hooks, repo, home, "clean.py", "notes.txt")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout
