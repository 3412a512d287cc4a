"""A broken configuration is an error naming the file, the key and the value (exit 2).

A bad config file stops the checking of the folders it governs; it is reported like a
file that could not be checked, so the JSON report lists it under `errors`.
"""

from pathlib import Path

import pytest

from lintgv.config import is_config_file

CODE = {"a.py": "x = 1\n"}


def _error(lintgv, project, files: dict[str, str], *args: str) -> str:
    root = project({**CODE, **files})
    result = lintgv("check", "--no-cache", *args, ".", cwd=root)
    assert result.returncode == 2
    return result.stdout + result.stderr


def test_unknown_key_names_file_and_key_and_suggests(lintgv, project) -> None:
    output = _error(lintgv, project, {"lintgv.toml": "tvm_version = '0.16'\n"})
    assert "lintgv.toml: invalid value for `tvm_version`: '0.16'" in output
    assert "did you mean `tvm-version`?" in output


def test_bad_value_names_file_key_and_value(lintgv, project) -> None:
    output = _error(lintgv, project, {"lintgv.toml": 'select = ["XY1"]\n'})
    assert "lintgv.toml: invalid value for `select`: 'XY1'" in output
    assert "expected a code or prefix such as GV101 or GV1" in output


def test_wrong_type_in_pyproject_names_the_key(lintgv, project) -> None:
    output = _error(lintgv, project, {"pyproject.toml": "[tool.lintgv]\nrespect-gitignore = 1\n"})
    assert "pyproject.toml: invalid value for `respect-gitignore`: 1 (expected true or false)" in (
        output
    )


def test_invalid_toml_is_named(lintgv, project) -> None:
    output = _error(lintgv, project, {"lintgv.toml": "select = [\n"})
    assert "lintgv.toml: invalid value for `(file)`: 'lintgv.toml' (not valid TOML" in output


def test_bad_tvm_version_names_the_value(lintgv, project) -> None:
    output = _error(lintgv, project, {"lintgv.toml": 'tvm-version = "1.0"\n'})
    assert "invalid value for `tvm-version`: '1.0'" in output


@pytest.mark.parametrize("setting", ['tvm-version = "0.\uff1116"', 'select = ["GV\uff11"]'])
def test_a_digit_of_another_script_is_no_digit(lintgv, project, setting: str) -> None:
    # Python's `\d` and int() take a full-width digit (U+FF11): 0.16 was read from it.
    output = _error(lintgv, project, {"lintgv.toml": setting + "\n"})
    assert "invalid value for `" + setting.split(" ")[0] + "`" in output


@pytest.mark.parametrize("glob", ["", "!", "./", "!  "])
def test_an_empty_per_file_pattern_is_refused(lintgv, project, glob: str) -> None:
    # `"!" = ["GV101"]` dropped GV101 on every file, and the gate passed.
    toml = f'[per-file-ignores]\n"{glob}" = ["GV101"]\n'
    output = _error(
        lintgv, project, {"lintgv.toml": toml, "b.py": "import tvm\ngv = tvm.ir.GlobalVar('f')\n"}
    )
    assert "(an empty pattern names no file)" in output


def test_bad_per_file_ignore_names_the_nested_key(lintgv, project) -> None:
    toml = '[per-file-ignores]\n"tests/*" = ["G101"]\n'
    output = _error(lintgv, project, {"lintgv.toml": toml})
    assert "invalid value for `per-file-ignores.tests/*`: 'G101'" in output


def test_bad_command_line_setting_is_named(lintgv, project) -> None:
    output = _error(lintgv, project, {}, "--select", "nope")
    assert "--select: 'nope': expected a code or prefix such as GV101 or GV1" in output


def test_explicit_config_file_that_is_missing_is_named(lintgv, project) -> None:
    output = _error(lintgv, project, {}, "--config", "absent.toml")
    assert "absent.toml" in output


def test_a_folder_that_can_be_listed_but_not_entered_is_no_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Without the folder's execute permission, is_file raises instead of answering (a
    # user other than root sees it; root may enter any folder, so the refusal is made).
    def refused(self: Path) -> bool:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "is_file", refused)
    assert not is_config_file(tmp_path / "locked" / "lintgv.toml")
    assert not is_config_file(tmp_path / "locked" / "pyproject.toml")


ELSEWHERE = "names only codes that `check`, `fix` and the server never report"


@pytest.mark.parametrize("selection", ['select = ["GV5"]', 'extend-select = ["GV511"]'])
def test_selecting_only_codes_of_build_output_names_their_commands(
    lintgv, project, selection: str
) -> None:
    output = _error(lintgv, project, {"pyproject.toml": f"[tool.lintgv]\n{selection}\n"})
    assert f"pyproject.toml: invalid value for `{selection.split()[0]}`" in output
    assert ELSEWHERE in output
    assert "`lintgv validate-copies` reports GV511" in output


def test_a_command_line_selection_of_validate_codes_names_the_command(lintgv, project) -> None:
    output = _error(lintgv, project, {}, "--select", "GV1,GV50")
    assert "--select: 'GV50': " + ELSEWHERE in output
    assert "`lintgv validate` reports GV501, GV502, GV503, GV504, whatever" in output


def test_ignoring_codes_of_build_output_is_allowed(lintgv, project) -> None:
    root = project({**CODE, "lintgv.toml": 'ignore = ["GV5"]\n'})
    assert lintgv("check", "--no-cache", ".", cwd=root).returncode == 0


def test_ignoring_every_source_family_selects_no_rule(lintgv, project) -> None:
    toml = 'ignore = ["GV1", "GV2", "GV3", "GV4", "GV9"]\n'
    output = _error(lintgv, project, {"lintgv.toml": toml})
    assert "invalid value for `ignore`" in output and "selects no rule" in output
