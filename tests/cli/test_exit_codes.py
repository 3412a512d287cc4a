"""Exit status of `lintgv check`: bit flags, 0 clean, 1 findings, 2 could not check, 3 both."""

FINDING = "import tvm\ngv = tvm.ir.GlobalVar('main')\n"
CLEAN = "import tvm\nname = 'main'\n"
UNPARSABLE = "import tvm\ngv = tvm.ir.GlobalVar('main'\n"


def test_clean_tree_exits_0(lintgv, project) -> None:
    root = project({"clean.py": CLEAN})
    result = lintgv("check", "--no-cache", ".", cwd=root)
    assert (result.returncode, result.stdout) == (0, "Found 0 findings in 1 file.\n")


def test_findings_exit_1(lintgv, project) -> None:
    root = project({"bad.py": FINDING, "clean.py": CLEAN})
    assert lintgv("check", "--no-cache", ".", cwd=root).returncode == 1


def test_a_file_that_could_not_be_checked_exits_2(lintgv, project) -> None:
    root = project({"broken.py": UNPARSABLE, "clean.py": CLEAN})
    assert lintgv("check", "--no-cache", ".", cwd=root).returncode == 2


def test_findings_and_errors_exit_3(lintgv, project) -> None:
    root = project({"bad.py": FINDING, "broken.py": UNPARSABLE})
    assert lintgv("check", "--no-cache", ".", cwd=root).returncode == 3


def test_exit_zero_ignores_findings_but_not_errors(lintgv, project) -> None:
    root = project({"bad.py": FINDING})
    assert lintgv("check", "--no-cache", "--exit-zero", ".", cwd=root).returncode == 0
    root = project({"broken.py": UNPARSABLE})
    assert lintgv("check", "--no-cache", "--exit-zero", ".", cwd=root).returncode == 2


def test_a_missing_path_exits_2_and_is_named(lintgv, project) -> None:
    root = project({"clean.py": CLEAN})
    result = lintgv("check", "--no-cache", "clean.py", "missing.py", cwd=root)
    assert result.returncode == 2
    assert "missing.py: error:" in result.stdout


def test_an_unknown_option_is_a_usage_error(lintgv, project) -> None:
    root = project({"clean.py": CLEAN})
    result = lintgv("check", "--no-such-option", cwd=root)
    assert result.returncode == 2
    assert "unrecognized arguments: --no-such-option" in result.stderr


def test_every_format_gives_the_same_exit_status(lintgv, project) -> None:
    root = project({"bad.py": FINDING, "broken.py": UNPARSABLE})
    for fmt in ("text", "json", "sarif", "github"):
        assert lintgv("check", "--no-cache", "--format", fmt, ".", cwd=root).returncode == 3, fmt


def test_an_output_file_that_cannot_be_written_is_a_clear_error(lintgv, project) -> None:
    root = project({"bad.py": FINDING})
    result = lintgv("check", "--no-cache", "-o", "no/such/folder/report.txt", ".", cwd=root)
    assert result.returncode == 2
    assert "no/such/folder/report.txt: cannot be written (No such file or directory)" in (
        result.stderr
    )
    result = lintgv("baseline", "--no-cache", "-o", "no/such/folder/b.json", ".", cwd=root)
    assert result.returncode == 2
    assert "no/such/folder/b.json: cannot be written" in result.stderr
