"""A warm run reuses the last walk's files only while nothing the walk read has changed:
each change below must show in the very next run."""

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lintgv import checking
from tests.cli.conftest import Lintgv

SITE = 'from tvm import relay\n\n\ndef f(mod):\n    return relay.GlobalVar("f")\n'
Project = Callable[[dict[str, str | bytes]], Path]


def _paths(lintgv: Lintgv, root: Path) -> list[str]:
    done = lintgv("check", "--format", "json", ".", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return sorted({f["path"] for f in json.loads(done.stdout)["findings"]})


def _primed(lintgv: Lintgv, root: Path) -> list[str]:
    """Check `root` twice and return the paths reported. The first run creates the cache
    folder, which changes the root's listing; the second leaves a walk that holds."""
    first = _paths(lintgv, root)
    assert _paths(lintgv, root) == first
    return first


def _touch_folder(folder: Path) -> None:
    """Make sure a folder's mtime moves even on a file system with coarse timestamps."""
    status = folder.stat()
    os.utime(folder, ns=(status.st_atime_ns, status.st_mtime_ns + 10**9))


def test_a_new_file_and_a_removed_one_are_seen(lintgv: Lintgv, project: Project) -> None:
    root = project({"pkg/a.py": SITE, "pkg/b.py": SITE})
    assert _primed(lintgv, root) == ["pkg/a.py", "pkg/b.py"]
    assert list((root / ".lintgv_cache").glob("walk-*.pickle"))
    (root / "pkg" / "c.py").write_text(SITE, encoding="utf-8")
    (root / "pkg" / "a.py").unlink()
    _touch_folder(root / "pkg")
    assert _paths(lintgv, root) == ["pkg/b.py", "pkg/c.py"]


def test_an_edited_gitignore_is_applied(lintgv: Lintgv, project: Project) -> None:
    root = project({"a.py": SITE, "sub/b.py": SITE, "sub/.gitignore": "# nothing yet\n"})
    assert _primed(lintgv, root) == ["a.py", "sub/b.py"]
    (root / "sub" / ".gitignore").write_text("b.py\n", encoding="utf-8")
    assert _paths(lintgv, root) == ["a.py"]


def test_an_edited_config_is_applied(lintgv: Lintgv, project: Project) -> None:
    root = project({"a.py": SITE, "gen/b.py": SITE, "lintgv.toml": "# defaults\n"})
    assert _primed(lintgv, root) == ["a.py", "gen/b.py"]
    (root / "lintgv.toml").write_text('extend-exclude = ["gen"]\n', encoding="utf-8")
    assert _paths(lintgv, root) == ["a.py"]


def test_a_new_package_marker_changes_module_names(lintgv: Lintgv, project: Project) -> None:
    # `from .. import relay` resolves only once pkg/sub is a package inside tvm.
    text = 'from ..relay import GlobalVar\n\n\ndef f(mod):\n    return GlobalVar("f")\n'
    root = project({"tvm/__init__.py": "", "tvm/relay.py": "", "tvm/sub/x.py": text})
    assert _primed(lintgv, root) == []
    (root / "tvm" / "sub" / "__init__.py").write_text("", encoding="utf-8")
    _touch_folder(root / "tvm" / "sub")
    assert _paths(lintgv, root) == ["tvm/sub/x.py"]


def test_a_corrupted_walk_is_ignored_and_rebuilt(lintgv: Lintgv, project: Project) -> None:
    root = project({"a.py": SITE})
    assert _primed(lintgv, root) == ["a.py"]
    (memo,) = (root / ".lintgv_cache").glob("walk-*.pickle")
    memo.write_bytes(b"\x80\x05not a pickle")
    assert _paths(lintgv, root) == ["a.py"]
    assert memo.read_bytes() != b"\x80\x05not a pickle"


def test_another_config_file_on_the_command_line_walks_afresh(
    lintgv: Lintgv, project: Project
) -> None:
    root = project(
        {"a.py": SITE, "gen/b.py": SITE, "all.toml": "", "some.toml": 'extend-exclude = ["gen"]\n'}
    )

    def paths(config: str) -> list[str]:
        done = lintgv("check", "--format", "json", "--config", config, ".", cwd=root)
        return sorted({f["path"] for f in json.loads(done.stdout)["findings"]})

    assert paths("all.toml") == ["a.py", "gen/b.py"]
    assert paths("all.toml") == ["a.py", "gen/b.py"]
    assert paths("some.toml") == ["a.py"]


def test_an_unchanged_walk_is_reused_without_listing_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In process, to see which folders a run lists.
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "a.py").write_text(SITE, encoding="utf-8")
    first = checking.run([tree], {}, cache_dir=cache, jobs=1)
    assert checking.run([tree], {}, cache_dir=cache, jobs=1) == first
    listed: list[str] = []
    real = os.scandir

    def scandir(path: str) -> Iterator[os.DirEntry[str]]:
        listed.append(str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    again = checking.run([tree], {}, cache_dir=cache, jobs=1)
    assert listed == []
    assert [r.path for r in again.results] == [tree / "pkg" / "a.py"]
    assert again.findings_count == first.findings_count == 1


def test_a_folder_whose_mtime_is_put_back_is_walked_again(lintgv: Lintgv, project: Project) -> None:
    # The mtime can be set back (by hand, by an archive that restores mtimes); the
    # ctime cannot, and the walk trusts both.
    root = project({"pkg/a.py": SITE})
    assert _primed(lintgv, root) == ["pkg/a.py"]
    folder = root / "pkg"
    before = folder.stat()
    (folder / "a.py").rename(folder / "c.py")
    os.utime(folder, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert _paths(lintgv, root) == ["pkg/c.py"]


def test_a_project_marker_above_the_folder_moves_the_ignores_that_apply(
    lintgv: Lintgv, project: Project
) -> None:
    # A .gitignore above the folder checked applies up to the project's root, which a
    # build file marks: adding one above makes the outer .gitignore apply.
    root = project({".gitignore": "gen/\n", "proj/gen/a.py": SITE})
    proj = root / "proj"
    assert _primed(lintgv, proj) == ["gen/a.py"]
    (root / "CMakeLists.txt").write_text("project(x)\n", encoding="utf-8")
    assert _paths(lintgv, proj) == []
    (root / "CMakeLists.txt").unlink()
    assert _paths(lintgv, proj) == ["gen/a.py"]


def test_a_config_or_gitignore_created_where_there_was_none_is_applied(
    lintgv: Lintgv, project: Project
) -> None:
    # Absent paths are not looked for again while their folder is unchanged: creating
    # one changes the folder, and that must be enough.
    root = project({"a.py": SITE, "sub/b.py": SITE, "sub/deep/c.py": SITE})
    assert _primed(lintgv, root) == ["a.py", "sub/b.py", "sub/deep/c.py"]
    (root / "sub" / "deep" / ".gitignore").write_text("c.py\n", encoding="utf-8")
    _touch_folder(root / "sub" / "deep")
    assert _paths(lintgv, root) == ["a.py", "sub/b.py"]
    (root / "sub" / "lintgv.toml").write_text('extend-exclude = ["b.py"]\n', encoding="utf-8")
    _touch_folder(root / "sub")
    assert _paths(lintgv, root) == ["a.py"]


def test_a_walk_that_warned_warns_again(lintgv: Lintgv, project: Project) -> None:
    root = project({"a.py": SITE, ".gitignore": "b.py\nbad\\\n"})
    warning = "invalid pattern 'bad\\\\' is skipped"
    for _ in range(3):  # the first run's cache folder changes the listing; then warm
        done = lintgv("check", ".", cwd=root)
        assert done.returncode == 1, done.stderr
        assert warning in done.stderr
