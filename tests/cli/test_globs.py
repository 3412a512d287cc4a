"""Config globs as a ruff user expects them: an anchored exclude names one place, a
negation in `exclude` takes files back, `!` in per-file-ignores means "everywhere but",
a leading `./` is the folder itself; and a link to a folder walked elsewhere is no loop."""

import json
import os
from pathlib import Path

from tests.cli.conftest import run_lintgv

SITE = "from tvm import ir\n\n\ndef make():\n    return ir.GlobalVar('main')\n"


def _tree(root: Path, config: str) -> Path:
    for name in ("x.py", "src/x.py", "src/y.py", "tests/t.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(SITE)
    (root / "lintgv.toml").write_text(config)
    return root


def _reported(root: Path) -> dict[str, list[str]]:
    result = run_lintgv("check", "--no-cache", "--format", "json", ".", cwd=root)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    found: dict[str, list[str]] = {}
    for finding in json.loads(result.stdout)["findings"]:
        found.setdefault(finding["path"], []).append(finding["code"])
    return found


def test_an_anchored_exclude_names_one_place(tmp_path: Path) -> None:
    found = _reported(_tree(tmp_path, 'extend-exclude = ["/x.py"]\n'))
    assert sorted(found) == ["src/x.py", "src/y.py", "tests/t.py"]


def test_a_negated_exclude_takes_files_back(tmp_path: Path) -> None:
    found = _reported(_tree(tmp_path, 'extend-exclude = ["*.py", "!/src/*.py"]\n'))
    assert sorted(found) == ["src/x.py", "src/y.py"]


def test_a_negated_per_file_ignore_applies_everywhere_else(tmp_path: Path) -> None:
    found = _reported(_tree(tmp_path, '[per-file-ignores]\n"!src/**" = ["GV101"]\n'))
    assert sorted(found) == ["src/x.py", "src/y.py"]


def test_a_per_file_glob_may_start_with_the_folder_itself(tmp_path: Path) -> None:
    config = '[per-file-ignores]\n"./src/x.py" = ["GV101"]\n"./tests/" = ["GV101"]\n'
    found = _reported(_tree(tmp_path, config))
    assert sorted(found) == ["src/y.py", "x.py"]


def test_a_link_to_a_folder_walked_elsewhere_is_no_loop(tmp_path: Path) -> None:
    root = _tree(tmp_path, "")
    os.symlink("src", root / "also")
    result = run_lintgv("check", "--no-cache", ".", cwd=root)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "loop" not in result.stdout + result.stderr
    assert "Found 4 findings in 4 files" in result.stdout
    os.symlink("..", root / "src" / "up")
    result = run_lintgv("check", "--no-cache", ".", cwd=root)
    assert "symbolic link loop; not followed again" in result.stdout + result.stderr
