"""`--force-exclude`: files named on the command line obey excludes and .gitignore too."""

from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

Lintgv = Callable[..., CompletedProcess[str]]

SITE = "import tvm\n\ngv = tvm.ir.GlobalVar('main')\n"


def _project(root: Path) -> Path:
    (root / "lintgv.toml").write_text('extend-exclude = ["generated/"]\n', encoding="utf-8")
    for folder in ("generated", "ignored", "src"):
        (root / folder).mkdir()
        (root / folder / "ops.py").write_text(SITE, encoding="utf-8")
    (root / ".gitignore").write_text("ignored/\n", encoding="utf-8")
    (root / ".git").mkdir()  # the .gitignore's repository root
    return root


def test_a_named_file_in_an_excluded_folder_is_checked_without_the_flag(
    tmp_path: Path, lintgv: Lintgv
) -> None:
    root = _project(tmp_path)
    result = lintgv("check", "--no-cache", "generated/ops.py", cwd=root)
    assert result.returncode == 1, result.stdout
    assert "GV101" in result.stdout


def test_force_exclude_skips_named_files_that_a_walk_would_skip(
    tmp_path: Path, lintgv: Lintgv
) -> None:
    root = _project(tmp_path)
    result = lintgv(
        "check",
        "--no-cache",
        "--force-exclude",
        "generated/ops.py",
        "ignored/ops.py",
        "src/ops.py",
        cwd=root,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "src/ops.py" in result.stdout
    assert "generated/ops.py" not in result.stdout
    assert "ignored/ops.py" not in result.stdout
