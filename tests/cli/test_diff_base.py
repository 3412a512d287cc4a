"""`check --diff-base REF`: only findings on lines changed since a git ref."""

import json
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.system("git")

OLD = "import tvm\n\nold = tvm.ir.GlobalVar('old')\n"


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=root,
        check=True,
        capture_output=True,
    )


def _repo(project) -> Path:
    root = project({"a.py": OLD, "b.cc": 'GlobalVar gv("old");\n'})
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "start")
    return root


def _lines(lintgv, root: Path, *args: str) -> tuple[int, list[tuple[str, int]]]:
    result = lintgv("check", "--no-cache", "--format", "json", *args, ".", cwd=root)
    document = json.loads(result.stdout or '{"findings": []}')
    return result.returncode, [(f["path"], f["line"]) for f in document["findings"]]


def test_only_changed_lines_are_reported(lintgv, project) -> None:
    root = _repo(project)
    (root / "a.py").write_text(OLD + "new = tvm.ir.GlobalVar('new')\n", encoding="utf-8")
    assert _lines(lintgv, root, "--diff-base", "HEAD") == (1, [("a.py", 4)])


def test_unchanged_tree_is_clean(lintgv, project) -> None:
    root = _repo(project)
    assert _lines(lintgv, root, "--diff-base", "HEAD") == (0, [])
    assert _lines(lintgv, root)[0] == 1


def test_lines_committed_since_the_ref_count(lintgv, project) -> None:
    root = _repo(project)
    (root / "b.cc").write_text('GlobalVar gv("old");\nGlobalVar other("x");\n', encoding="utf-8")
    git(root, "commit", "-q", "-am", "more")
    assert _lines(lintgv, root, "--diff-base", "HEAD~1") == (1, [("b.cc", 2)])
    assert _lines(lintgv, root, "--diff-base", "HEAD") == (0, [])


def test_untracked_files_count_as_new(lintgv, project) -> None:
    root = _repo(project)
    (root / "c.py").write_text(OLD, encoding="utf-8")
    assert _lines(lintgv, root, "--diff-base", "HEAD") == (1, [("c.py", 3)])


def test_a_finding_spanning_a_changed_line_is_reported(lintgv, project) -> None:
    root = _repo(project)
    (root / "a.py").write_text(OLD.replace("('old')", "(\n    'old'\n)"), encoding="utf-8")
    assert _lines(lintgv, root, "--diff-base", "HEAD") == (1, [("a.py", 3)])


def test_unknown_ref_is_a_clear_error(lintgv, project) -> None:
    root = _repo(project)
    result = lintgv("check", "--no-cache", "--diff-base", "no-such-branch", ".", cwd=root)
    assert result.returncode == 2
    assert "--diff-base: 'no-such-branch' is not a commit in" in result.stderr


def test_outside_a_git_repository_is_a_clear_error(lintgv, project) -> None:
    root = project({"a.py": OLD})
    result = lintgv("check", "--no-cache", "--diff-base", "HEAD", ".", cwd=root)
    assert result.returncode == 2
    assert "is not inside a git repository" in result.stderr


def test_a_gitignore_in_the_change_hides_no_tracked_file(lintgv, project) -> None:
    """A pull request that adds a file git tracks and a pattern for it, and changes a
    tracked file it then ignores too: git still tracks both, and the gate checks both.
    Untracked files the pattern covers stay ignored, as in git."""
    root = _repo(project)
    (root / "hidden").mkdir()
    (root / "hidden" / "evil.py").write_text(OLD, encoding="utf-8")
    (root / "hidden" / "scratch.py").write_text(OLD, encoding="utf-8")
    (root / "a.py").write_text(OLD + "new = tvm.ir.GlobalVar('new')\n", encoding="utf-8")
    (root / ".gitignore").write_text("hidden/\na.py\n", encoding="utf-8")
    git(root, "add", "-f", ".gitignore", "a.py", "hidden/evil.py")
    git(root, "commit", "-q", "-m", "hide")
    assert _lines(lintgv, root, "--diff-base", "HEAD~1") == (
        1,
        [("a.py", 4), ("hidden/evil.py", 3)],
    )
    assert _lines(lintgv, root)[1] == [("b.cc", 1)]  # a whole check honours the patterns
