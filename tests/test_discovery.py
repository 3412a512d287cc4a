"""What the walk notes of the paths it looked at, for a warm run to check again
(lintgv/remembered.py): the state of each, or that it is absent."""

import os
from pathlib import Path

from lintgv.config import CONFIG_FILES
from lintgv.discovery import Discovery, signature


def test_each_folder_s_config_files_are_noted_as_a_lookup_finds_them(tmp_path: Path) -> None:
    # The walk reads a folder's listing and looks up only the config names it holds (in
    # any case: a file system may not tell case apart); the rest are noted absent, as a
    # lookup would have found them.
    files = {
        "a.py": "x = 1\n",
        "with_config/lintgv.toml": "# defaults\n",
        "with_config/b.py": "x = 1\n",
        "other_case/PyProject.TOML": "[tool.lintgv]\n",
        "other_case/c.py": "x = 1\n",
        "plain/deeper/d.py": "x = 1\n",
        "project/pyproject.toml": "[tool.lintgv]\n",
        "project/e.py": "x = 1\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    discovery = Discovery({}, None)
    found = {str(c.path.relative_to(tmp_path)) for c in discovery.discover([tmp_path], [])}
    assert found == {name for name in files if name.endswith(".py")}
    folders = [tmp_path / f for f in ("", "with_config", "other_case", "plain", "plain/deeper")]
    for folder in [*folders, tmp_path / "project"]:
        for name in CONFIG_FILES:
            path = os.path.join(os.path.abspath(folder), name)
            assert discovery.read[path] == signature(path), path
    assert discovery.read[str(tmp_path / "with_config" / "lintgv.toml")] is not None
    assert discovery.read[str(tmp_path / "project" / "pyproject.toml")] is not None


def test_files_found_by_the_walk_have_the_paths_and_module_names_named_alone(
    tmp_path: Path,
) -> None:
    # The walk makes each file's path from its folder's and its module name from the
    # folder's package: the same as for the file named on the command line.
    for name in ("pkg/__init__.py", "pkg/sub/__init__.py", "pkg/sub/m.py", "top.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n", encoding="utf-8")
    walked = {c.path: c.module_name for c in Discovery({}, None).discover([tmp_path], [])}
    alone = Discovery({}, None)
    for path, module in walked.items():
        (named,) = alone.discover([Path(str(path))], [])
        assert (named.path, named.module_name) == (path, module)
    assert walked[tmp_path / "pkg" / "sub" / "m.py"] == "pkg.sub.m"
    assert walked[tmp_path / "pkg" / "__init__.py"] == "pkg"
