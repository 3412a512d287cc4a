"""`--config FILE`: a config kept outside the tree (a base branch's, for a pull request's
checkout) governs the tree as if it sat in the working folder, and nothing is read or
written beside it; without any config file, the cache lives in the folder given, not in
the working folder."""

import json
import shutil
from pathlib import Path

from tests.cli.conftest import Lintgv

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
    assert "+    gvar = GlobalVarSupply(mod).fresh_global(name, False)" in given.stdout
    assert "noise" not in given.stderr


def test_a_path_that_names_nothing_does_not_place_the_cache(lintgv: Lintgv, tmp_path: Path) -> None:
    tree = tmp_path / "top" / "p"
    (tree / "src").mkdir(parents=True)
    (tree / "src" / "a.py").write_text(SITE)
    done = lintgv("check", "src/../../../../../../../../nope.cc", "../missing.cc", "src", cwd=tree)
    assert done.returncode == 3, done.stderr  # a finding, and two paths that name nothing
    assert done.stdout.count("error: no such file or folder") == 2
    assert list((tree / "src" / ".lintgv_cache").glob("results-*"))
    assert sorted(p.name for p in (tmp_path / "top").iterdir()) == ["p"]
    assert sorted(p.name for p in tree.iterdir()) == ["src"]


def test_globs_apply_to_a_path_that_goes_up_and_back_into_the_tree(
    lintgv: Lintgv, tmp_path: Path
) -> None:
    config, tree = _pull_request(tmp_path)
    shutil.copy(config, tree / "lintgv.toml")
    here = lintgv("check", "--no-cache", "--format", "json", ".", cwd=tree)
    around = lintgv("check", "--no-cache", "--format", "json", "../pr", cwd=tree)
    assert [p.removeprefix("../pr/") for p in _paths(around)] == _paths(here)


PASSES = 'import tvm\n\n\ndef make_global(name, kind="fn"):\n    return tvm.ir.GlobalVar(name)\n'
LOCAL = '\n\ndef local_use(mod):\n    return make_global("g")\n'
DRIVER = (
    'from pkg.sub.passes import make_global\n\n\ndef drive(mod):\n    return make_global("f")\n'
)


def _package(root: Path) -> None:
    (root / "python" / "pkg" / "sub").mkdir(parents=True)
    (root / "python" / "pkg" / "__init__.py").write_text("")
    (root / "python" / "pkg" / "sub" / "__init__.py").write_text("")
    (root / "python" / "pkg" / "sub" / "passes.py").write_text(PASSES + LOCAL)
    (root / "python" / "pkg" / "driver.py").write_text(DRIVER)


REFUSED = "python/pkg/driver.py must change too, and is not among the files given"


def test_threading_into_a_subfolder_sees_the_callers_of_the_whole_project(
    lintgv: Lintgv, tmp_path: Path
) -> None:
    """However the project is known (its config, given or found; its git work tree; the
    package the folder is part of), a caller outside the folder given stops the change."""
    _package(tmp_path)
    fix = ("fix", "--unsafe", "--no-cache", "python/pkg/sub")
    by_package = lintgv(*fix, cwd=tmp_path)
    (tmp_path / ".git").mkdir()
    by_work_tree = lintgv(*fix, cwd=tmp_path)
    (tmp_path / ".git").rmdir()
    (tmp_path / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    by_config = lintgv(*fix, cwd=tmp_path)
    by_config_given = lintgv(*fix[:3], "--config", "lintgv.toml", fix[3], cwd=tmp_path)
    # A config of its own in the folder given does not make it a project apart.
    (tmp_path / "python" / "pkg" / "sub" / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    by_nested_config = lintgv(*fix, cwd=tmp_path)
    for done in (by_package, by_work_tree, by_config, by_config_given, by_nested_config):
        assert REFUSED in done.stdout
    assert (tmp_path / "python" / "pkg" / "sub" / "passes.py").read_text() == PASSES + LOCAL


LIB_H = "#pragma once\nnamespace tvm {\nGlobalVar MakeMain(const std::string& name);\n}\n"
LIB_CC = (
    '#include "lib.h"\nnamespace tvm {\n'
    "GlobalVar MakeMain(const std::string& name) { return GlobalVar(name); }\n"
    'void LocalUse(IRModule mod) { GlobalVar g = MakeMain("x"); }\n}\n'
)
USER_CC = (
    '#include "../a/lib.h"\nnamespace tvm {\n'
    'void Use(IRModule mod) { GlobalVar g = MakeMain("y"); }\n}\n'
)


def _cpp_project(root: Path) -> dict[Path, str]:
    files = {
        root / "a" / "lib.h": LIB_H,
        root / "a" / "lib.cc": LIB_CC,
        root / "b" / "user.cc": USER_CC,
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return files


def test_a_function_a_header_declares_is_not_threaded_when_nothing_marks_the_project(
    lintgv: Lintgv, tmp_path: Path
) -> None:
    files = _cpp_project(tmp_path / "p")
    done = lintgv("fix", "--unsafe", "--no-cache", "p/a", cwd=tmp_path)
    assert (
        "it is declared in p/a/lib.h, which any file may include, and nothing marks the "
        "project's root (a config file, a version control folder, a build file): its "
        "callers outside the folder given cannot be seen"
    ) in done.stdout
    assert all(path.read_text() == text for path, text in files.items())
    # A build file marks an exported tree's root: the caller in b/ is seen and stops it.
    (tmp_path / "p" / "CMakeLists.txt").write_text("project(p)\n")
    done = lintgv("fix", "--unsafe", "--no-cache", "p/a", cwd=tmp_path)
    assert "p/b/user.cc must change too, and is not among the files given" in done.stdout
    (tmp_path / "p" / "CMakeLists.txt").unlink()
    # A config given with --config, kept in the project under a name discovery would not
    # find, marks the project too.
    (tmp_path / "p" / "lintgv-ci.toml").write_text('tvm-version = "0.16"\n')
    done = lintgv(
        "fix", "--unsafe", "--no-cache", "--config", "p/lintgv-ci.toml", "p/a", cwd=tmp_path
    )
    assert "p/b/user.cc must change too, and is not among the files given" in done.stdout
    assert all(path.read_text() == text for path, text in files.items())
