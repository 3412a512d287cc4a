"""Every invalid `[tool.lintgv]` value: the message names the file, the key and the value."""

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from lintgv.config import SETTING_KEYS, load_config
from lintgv.errors import ConfigError
from lintgv.release import Release

LintgvRunner = Callable[..., subprocess.CompletedProcess[str]]

# key → (TOML value, the value as the message shows it); at least one per setting.
INVALID = [
    ("select", '["GV1", "XY9"]', "'XY9'"),
    ("select", '"GV101"', "'GV101'"),
    ("extend-select", '["gv101"]', "'gv101'"),
    ("ignore", "[101]", "101"),
    ("per-file-ignores", '["tests/*"]', "['tests/*']"),
    ("per-file-ignores", '{"tests/*" = ["nope"]}', "'nope'"),
    ("supply-paths", '"*supply*"', "'*supply*'"),
    ("extend-supply-paths", "[1]", "[1]"),
    ("exclude", "true", "True"),
    ("extend-exclude", '[["a"]]', "[['a']]"),
    ("respect-gitignore", '"yes"', "'yes'"),
    ("python-extensions", '["py"]', "'py'"),
    ("cpp-extensions", '[".cc", "h"]', "'h'"),
    ("extra-constructors", "{}", "{}"),
    ("extra-unique-name-helpers", "3", "3"),
    ("extra-supply-names", '"supply"', "'supply'"),
    ("tvmscript-modules", '"mypkg.language"', "'mypkg.language'"),
    ("tvm-packages", '"mypkg.compat"', "'mypkg.compat'"),
    ("supply-depth", "0", "0"),
    ("tvm-version", '"1.0"', "'1.0'"),
    ("tvm-version", "0.16", "0.16"),
    ("tvm-version", '"0.0"', "'0.0'"),
    ("severity", '{GV101 = "loud"}', "'loud'"),
    ("severity", '{GV1 = "error"}', "'GV1'"),
    ("severity", '"error"', "'error'"),
    ("max-file-size", "-1", "-1"),
    ("max-file-size", '"2MB"', "'2MB'"),
    ("max-file-size", "true", "True"),
    ("no-such-setting", "1", "1"),
]


def test_every_setting_has_an_invalid_example() -> None:
    assert set(SETTING_KEYS) <= {key for key, _, _ in INVALID}


@pytest.mark.parametrize("file_name", ["lintgv.toml", "pyproject.toml"])
@pytest.mark.parametrize(("key", "toml", "shown"), INVALID)
def test_an_invalid_value_names_file_key_and_value(
    tmp_path: Path, file_name: str, key: str, toml: str, shown: str
) -> None:
    header = "[tool.lintgv]\n" if file_name == "pyproject.toml" else ""
    path = tmp_path / file_name
    path.write_text(f"{header}{key} = {toml}\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    assert f"`{key}" in message
    assert shown in message


def test_the_cli_prints_the_config_error_and_exits_2(tmp_path: Path, lintgv: LintgvRunner) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.lintgv]\ntvm-version = "1.0"\n')
    (tmp_path / "a.cc").write_text("int x;\n")
    for command in ("check", "fix"):
        result = lintgv(command, "--no-cache", ".", cwd=tmp_path)
        assert result.returncode == 2, command
        output = result.stdout + result.stderr
        assert "pyproject.toml: invalid value for `tvm-version`: '1.0'" in output, command


def test_the_config_holds_the_release_parsed_once_as_it_was_written(tmp_path: Path) -> None:
    (tmp_path / "lintgv.toml").write_text('tvm-version = "0.25.1"\n')
    release = load_config(tmp_path / "lintgv.toml").release
    assert release == Release(25) and release.has_unique_name_supply
    assert release.text == "0.25.1"  # what a proof's evidence shows, as the user wrote it
