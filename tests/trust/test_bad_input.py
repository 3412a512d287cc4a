"""Bad input ends in a precise message and exit 2, never a traceback and never a silent
pass: random command lines, configs and files (a fuzz test), and each case once found."""

import os
import socket
from pathlib import Path

import pytest
from hostile import run_lintgv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lintgv.cli import main

FUZZ = settings(
    max_examples=int(os.environ.get("LINTGV_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
OPTIONS = [
    "--select", "--extend-select", "--ignore", "--tvm-version", "--format", "--jobs",
    "--config", "--diff-base", "--baseline", "--max-rounds", "--statistics", "--no-cache",
    "--unsafe", "--diff", "-o",
]  # fmt: skip
VALUES = st.one_of(
    st.sampled_from(
        ["", "GV1", "GV105", "X", "0", "-1", "99999", "json", "0.16", "9.9", ",", "a b"]
    ),
    st.text(max_size=8),
)
COMMANDS = ["check", "fix", "baseline", "explain", "rules", "validate-copies"]
SOURCES = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(
        [
            b"import tvm\ngv = tvm.ir.GlobalVar('f')\n",
            b'GlobalVar gv("f");\n',
            b"x = (((((\n",
            b"\xff\xfe\x00",
            b"# lintgv: ignore[GV999]\n",
        ]
    ),
)
CONFIGS = st.one_of(
    st.text(max_size=120),
    st.sampled_from(
        [
            "select = []\n",
            'select = ["GV105"]\n',
            'tvm-version = "0.3"\n',
            "max-file-size = -1\n",
            "a = " + "[" * 400 + "]" * 400 + "\n",
            "[per-file-ignores]\n'*' = ['nope']\n",
            "severity = 3\n",
        ]
    ),
)


@FUZZ
@given(
    command=st.sampled_from(COMMANDS),
    options=st.lists(st.tuples(st.sampled_from(OPTIONS), VALUES), max_size=3),
    config=CONFIGS,
    source=SOURCES,
)
def test_no_input_makes_a_traceback_and_exit_codes_are_0_1_2(
    tmp_path_factory: pytest.TempPathFactory,
    command: str,
    options: list[tuple[str, str]],
    config: str,
    source: bytes,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # In-process (fast): without the garbage-collector tuning meant for a whole run.
    monkeypatch.setattr("lintgv.cli.spare_the_collector", lambda: None)
    root = tmp_path_factory.mktemp("fuzz")
    (root / "lintgv.toml").write_text(config)
    (root / "a.py").write_bytes(source)
    (root / "b.cc").write_bytes(source)
    argv = [command] + [part for option in options for part in option] + [str(root)]
    if command == "validate-copies":
        argv = [command, str(root)]  # it runs copies: only with the tree as it is
    cwd = os.getcwd()
    os.chdir(root)
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        code = exc.code if isinstance(exc.code, int) else 2
    finally:
        os.chdir(cwd)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    assert code in (0, 1, 2, 3), (argv, code, captured.err[-500:])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--select", "GV105"], "--select: 'GV105': no rule has this code or prefix; did you mean"),
        (["--select", ""], "--select: []: selects no rule"),
        (["--select", "GV1", "--ignore", "GV101"], "--ignore: ['GV101']: selects no rule"),
        (["--ignore", "GV"], "--ignore: ['GV']: selects no rule"),
        (["--select", "GV5"], "--select: 'GV5': names only codes that `check`, `fix`"),
        (["--select", "GV3", "--ignore", "GV301,GV302"], "--select and --ignore: selects no"),
        (["--diff-base", ""], "--diff-base: '' is not a git ref"),
        (["--diff-base=--"], "--diff-base: '--' is not a git ref"),
        (["--tvm-version", ""], "argument --tvm-version: expected a TVM release such as"),
        (["--ignore", "GV77"], "--ignore: 'GV77': no rule has this code or prefix"),
        (["-j", "0"], "argument --jobs/-j: expected at least 1, not 0"),
    ],
)
def test_a_bad_command_line_is_a_precise_error(
    tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    result = run_lintgv("check", "--no-cache", *args, ".", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_codes_in_a_config_file_name_the_file_and_the_closest_code(
    tmp_path: Path,
) -> None:
    (tmp_path / "lintgv.toml").write_text('extend-select = ["GV30"]\nignore = ["GV1O1"]\n')
    (tmp_path / "a.py").write_text("x = 1\n")
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "lintgv.toml: invalid value for `ignore`: 'GV1O1'" in result.stdout
    assert "did you mean GV101?" in result.stdout


def test_an_unclosed_bracket_in_a_pattern_is_named_not_raised(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("[z-a\nignored.py\n")
    (tmp_path / "a.py").write_text("import tvm\ngv = tvm.ir.GlobalVar('main')\n")
    (tmp_path / "ignored.py").write_text("import tvm\ngv = tvm.ir.GlobalVar('b')\n")
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert ".gitignore:1: invalid pattern '[z-a' is skipped, as git does" in result.stderr
    assert "a.py:2:6: GV101" in result.stdout
    assert "ignored.py" not in result.stdout  # the file's other patterns still apply
    (tmp_path / "lintgv.toml").write_text('extend-exclude = ["[z-a"]\n')
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "lintgv.toml: invalid value for `extend-exclude`: '[z-a'" in result.stdout


def test_a_deeply_nested_config_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "lintgv.toml").write_text("a = " + "[" * 2000 + "]" * 2000 + "\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "lintgv.toml" in result.stdout + result.stderr


def test_too_many_jobs_are_cut_to_the_cores(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    result = run_lintgv("check", "--no-cache", "-j", "100000", ".", cwd=tmp_path)
    assert result.returncode == 0
    assert f"this machine has {os.cpu_count()} cores" in result.stderr


@pytest.mark.parametrize("address", ["127.0.0.1:99999", "127.0.0.1:-1", "nothing"])
def test_a_bad_tcp_address_is_a_precise_error(tmp_path: Path, address: str) -> None:
    result = run_lintgv("server", "--tcp", address, cwd=tmp_path)
    assert result.returncode == 2
    assert "--tcp" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_tcp_address_in_use_is_a_precise_error(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = run_lintgv("server", "--tcp", f"127.0.0.1:{port}", cwd=tmp_path)
    assert result.returncode == 2
    assert "cannot listen there" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_construction_inside_a_match_case_is_reported_and_fixed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        "import tvm\n\n\ndef lower(mod, kind):\n    match kind:\n        case 'fn':\n"
        "            gv = tvm.ir.GlobalVar('f')\n            mod[gv] = 1\n    return mod\n"
    )
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert "a.py:7:18: GV101" in result.stdout, result.stdout
    run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=tmp_path)
    assert "GlobalVarSupply(mod).fresh_global('f', False)" in (tmp_path / "a.py").read_text()


BIG_NUMBER = "9" * 5000  # more digits than Python converts to an int by default
DEEP = "[" * 100_000 + "]" * 100_000


def test_a_config_with_a_huge_number_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.lintgv]\n\n[x]\ny = {BIG_NUMBER}\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "pyproject.toml: invalid value for `(file)`: 'pyproject.toml' (cannot be read: " in (
        result.stdout
    )
    assert "set_int_max_str_digits" not in result.stdout  # advice for programmers only


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        ('{"lintgv_baseline": 1, "findings": [], "at": ' + BIG_NUMBER + "}", "not JSON: Exceeds"),
        (DEEP, "nested too deeply to read"),
    ],
)
def test_a_baseline_too_big_to_read_is_a_precise_error(
    tmp_path: Path, document: str, reason: str
) -> None:
    (tmp_path / "b.json").write_text(document)
    (tmp_path / "a.py").write_text("x = 1\n")
    result = run_lintgv("check", "--no-cache", "--baseline", "b.json", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith(f"lintgv: error: b.json: not a usable baseline ({reason}")


@pytest.mark.parametrize(
    ("document", "reason"),
    [
        ('{"model": "m", "functions": ["a"], "x": ' + BIG_NUMBER + "}", "(not JSON: Exceeds"),
        ('{"model": "m", "functions": ' + DEEP + "}", "(nested too deeply to read)"),
    ],
)
def test_a_manifest_too_big_to_read_is_a_precise_error(
    tmp_path: Path, document: str, reason: str
) -> None:
    (tmp_path / "m.json").write_text(document)
    result = run_lintgv("emit-c", "m.json", "-o", "out", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("lintgv: error: m.json: invalid value for `(document)`")
    assert reason in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["check", "fix", "baseline", "validate-copies"])
def test_a_path_too_long_to_look_up_is_a_file_error(tmp_path: Path, command: str) -> None:
    name = "a" * 300
    cache = [] if command == "validate-copies" else ["--no-cache"]
    result = run_lintgv(command, *cache, name, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    # `fix` lists its problems as "  PATH: MESSAGE", the others as "PATH: error: MESSAGE".
    said = (result.stdout + result.stderr).replace(": error:", ":")
    assert f"{name}: cannot be read: File name too long" in said


def test_a_config_that_ignores_every_rule_is_a_config_error(tmp_path: Path) -> None:
    (tmp_path / "lintgv.toml").write_text('ignore = ["GV"]\n')
    (tmp_path / "a.py").write_text("import tvm\ngv = tvm.ir.GlobalVar('f')\n")
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "lintgv.toml: invalid value for `ignore`: ['GV'] (selects no rule" in result.stdout
