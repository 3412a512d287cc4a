"""`--config FILE`: a config kept outside the tree (a base branch's, for a pull request's
checkout) governs the tree as if it sat in the working folder, and nothing is read or
written beside it; without any config file, the cache lives in the folder given, not in
the working folder."""

import json
import shutil
from pathlib import Path

from conftest import Lintgv

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "tvm_like"
SITE = "from tvm import ir\n\n\ndef make():\n    return ir.GlobalVar('main')\n"


def _pull_request(tmp_path: Path) -> tuple[Path, Path]:
    """Return (base config, tree): the example tree with its config moved out of it."""
    tree = tmp_path / "pr"
    shutil.copytree(EXAMPLE, tree)
    base = tmp_path / "base"
    base.mkdir()
    config = base / "lintgv.toml"
    (tree / "lintgv.toml").rename(config)
    return config, tree


def _paths(done: object) -> list[str]:
    return sorted({f["path"] for f in json.loads(done.stdout)["findings"]})  # type: ignore[attr-defined]


def test_a_config_given_by_path_has_its_globs_relative_to_the_working_folder(
    lintgv: Lintgv, tmp_path: Path
) -> None:
    config, tree = _pull_request(tmp_path)
    shutil.copy(config, tree / "lintgv.toml")
    in_tree = lintgv("check", "--no-cache", "--format", "json", ".", cwd=tree)
    (tree / "lintgv.toml").unlink()
    given = lintgv("check", "--no-cache", "--format", "json", "--config", config, ".", cwd=tree)
    assert _paths(given) == _paths(in_tree)
    assert not any(p.startswith(("tests/", "generated/")) for p in _paths(given))
    # Run from elsewhere, the same globs name other folders: `tests/*` is not ignored.
    outside = lintgv(
        "check", "--no-cache", "--format", "json", "--config", config, "pr", cwd=tmp_path
    )
    assert any(p.startswith("pr/tests/") for p in _paths(outside))


def test_the_cache_is_written_in_the_tree_not_beside_a_config_kept_elsewhere(
    lintgv: Lintgv, tmp_path: Path
) -> None:
    config, tree = _pull_request(tmp_path)
    done = lintgv("check", "--config", config, "pr", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert list((tree / ".lintgv_cache").glob("results-*"))
    assert sorted(p.name for p in config.parent.iterdir()) == ["lintgv.toml"]
    assert not (tmp_path / ".lintgv_cache").exists()


def test_without_a_config_the_cache_is_written_in_the_folder_given(
    lintgv: Lintgv, tmp_path: Path
) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.py").write_text(SITE)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    cold = lintgv("check", tree, cwd=elsewhere)
    warm = lintgv("check", tree, cwd=elsewhere)
    assert list(elsewhere.iterdir()) == []
    assert list((tree / ".lintgv_cache").glob("results-*"))
    assert (warm.stdout, warm.returncode) == (cold.stdout, 1)


def test_a_fix_with_a_config_kept_elsewhere_threads_as_with_the_config_in_the_tree(
    lintgv: Lintgv, tmp_path: Path
) -> None:
    config, tree = _pull_request(tmp_path)
    # A folder beside the config that a project scan rooted there would read.
    (tmp_path / "base" / "noise").mkdir()
    (tmp_path / "base" / "noise" / ".gitignore").write_text("[z-a]\n")
    given = lintgv("fix", "--unsafe", "--diff", "--no-cache", "--config", config, ".", cwd=tree)
    shutil.copy(config, tree / "lintgv.toml")
    in_tree = lintgv("fix", "--unsafe", "--diff", "--no-cache", ".", cwd=tree)
    assert given.returncode == in_tree.returncode
    assert given.stdout == in_tree.stdout
    assert "+    global_var_supply = GlobalVarSupply(mod)" in given.stdout
    assert "noise" not in given.stderr
