"""The pre-commit hook this repository offers (.pre-commit-hooks.yaml), installed and run
by pre-commit itself with `pre-commit try-repo`, as a user's repository would."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent.parent


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, timeout=60)


def _try_repo(repo: Path, home: Path, *files: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "lintgv", "--files", *files],
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
    found = _try_repo(repo, home, "passes.py", "clean.py")
    assert found.returncode == 1, found.stdout + found.stderr
    assert "passes.py:2:6: GV101" in found.stdout
    clean = _try_repo(repo, home, "clean.py", "notes.txt")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "Passed" in clean.stdout
