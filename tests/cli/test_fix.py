"""`lintgv fix` as a subprocess, on copies of tests/fixtures/fix_project.

LINTGV_UPDATE_GOLDEN=1 rewrites tests/fixtures/fix_project_fixed from the actual result.
"""

import difflib
import json
import os
import pty
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest

from lintgv.parsing.cpp import parse_cpp
from tests.cli.conftest import run_lintgv

FIXTURES = Path(__file__).parent.parent / "fixtures"
PROJECT = FIXTURES / "fix_project"
EXPECTED = FIXTURES / "fix_project_fixed"
SOURCES = ("src/relay/lift_functions.cc", "python/tvm_ext/build.py")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    target = tmp_path / "project"
    shutil.copytree(PROJECT, target)
    return target


def _snapshot(root: Path) -> dict[str, bytes]:
    return {name: (root / name).read_bytes() for name in SOURCES}


SUGGESTED = "a new supply; pass the module's supply in instead"
CPP_SUGGESTED = f'Use GlobalVarSupply(NameSupply(""))->FreshGlobal(..., false): {SUGGESTED}'
PY_SUGGESTED = f"Use GlobalVarSupply().fresh_global(..., False): {SUGGESTED}"


def test_unsafe_fix_rewrites_the_project_as_expected(project: Path) -> None:
    result = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=project)
    if os.environ.get("LINTGV_UPDATE_GOLDEN"):
        for name in SOURCES:
            shutil.copyfile(project / name, EXPECTED / name)
    assert _snapshot(project) == _snapshot(EXPECTED)
    assert result.returncode == 1  # two sites have no automatic fix
    assert result.stdout.splitlines() == [
        "Fixed 7 findings in 2 files (GV101: 7).",
        "2 findings remain:",
        "  GV101     1  no automatic fix: no GlobalVarSupply or IRModule in scope to name it with "
        f"(suggested: {CPP_SUGGESTED})",
        "  GV101     1  no automatic fix: the IRModule it is added to (`mod`) is made after "
        f"this line (suggested: {PY_SUGGESTED})",
        # Nothing calls it here: its signature stays as it is (fixing/threading.py).
        "  supply parameter not threaded into Dummy (src/relay/lift_functions.cc): no call of "
        "Dummy in the files checked",
    ]


def test_a_second_run_changes_nothing(project: Path) -> None:
    run_lintgv("fix", "--unsafe", ".", cwd=project)
    before = _snapshot(project)
    again = run_lintgv("fix", "--unsafe", ".", cwd=project)
    assert _snapshot(project) == before
    assert again.stdout.startswith("Fixed nothing.")


def test_every_changed_file_parses_again(project: Path) -> None:
    run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=project)
    cst.parse_module((project / "python/tvm_ext/build.py").read_text())
    assert parse_cpp((project / "src/relay/lift_functions.cc").read_text()).error_nodes() == []


def test_without_unsafe_nothing_changes_and_the_summary_says_why(project: Path) -> None:
    result = run_lintgv("fix", "--no-cache", ".", cwd=project)
    assert _snapshot(project) == _snapshot(PROJECT)
    assert result.returncode == 1
    assert (
        "  GV101     7  unsafe fix (may change names or behaviour); apply with --unsafe"
        in result.stdout.splitlines()
    )


def test_diff_prints_a_patch_and_writes_nothing(project: Path) -> None:
    result = run_lintgv("fix", "--unsafe", "--diff", "--no-cache", ".", cwd=project)
    assert _snapshot(project) == _snapshot(PROJECT)
    expected = ""
    for name in SOURCES:
        expected += "".join(
            difflib.unified_diff(
                (PROJECT / name).read_text().splitlines(keepends=True),
                (EXPECTED / name).read_text().splitlines(keepends=True),
                f"a/{name}",
                f"b/{name}",
            )
        )
    assert sorted(result.stdout.split("--- a/")) == sorted(expected.split("--- a/"))
    assert result.stderr.startswith("Would fix 7 findings in 2 files (GV101: 7).")
    assert result.returncode == 1


def test_ignore_keeps_a_code_from_being_fixed(project: Path) -> None:
    result = run_lintgv("fix", "--unsafe", "--no-cache", "--ignore", "GV101", ".", cwd=project)
    assert _snapshot(project) == _snapshot(PROJECT)
    assert result.stdout.startswith("Fixed nothing.")
    assert result.returncode == 0


def test_select_limits_the_files_fixed(project: Path) -> None:
    result = run_lintgv("fix", "--unsafe", "--select", "GV101", "src", cwd=project)
    assert (project / SOURCES[0]).read_bytes() == (EXPECTED / SOURCES[0]).read_bytes()
    assert (project / SOURCES[1]).read_bytes() == (PROJECT / SOURCES[1]).read_bytes()
    assert result.stdout.startswith("Fixed 4 findings in 1 file (GV101: 4).")


def test_crlf_bom_mode_and_a_missing_final_newline_are_kept(tmp_path: Path) -> None:
    source = (
        "void F(IRModule mod) {\n"
        '  GlobalVar gv("f");\n  mod->Add(gv, x);\n}'  # no final newline
    )
    path = tmp_path / "a.cc"
    path.write_bytes(b"\xef\xbb\xbf" + source.replace("\n", "\r\n").encode())
    path.chmod(0o750)
    result = run_lintgv("fix", "--unsafe", "--no-cache", "a.cc", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf#include <tvm/ir/global_var_supply.h>\r\n\r\n")
    assert data.endswith(b"  mod->Add(gv, x);\r\n}")
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert path.stat().st_mode & 0o777 == 0o750


def test_a_run_with_every_site_fixed_exits_zero(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        "import tvm\nfrom tvm import relay\n\n\ndef f(mod: tvm.IRModule):\n"
        '    mod[relay.GlobalVar("f")] = 1\n'
    )
    result = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout == "Fixed 1 finding in 1 file (GV101: 1).\n"


def test_max_rounds_below_one_is_a_usage_error(tmp_path: Path) -> None:
    result = run_lintgv("fix", "--max-rounds", "0", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "--max-rounds" in result.stderr


def test_a_crlf_python_file_keeps_its_line_ends(tmp_path: Path) -> None:
    source = (
        "import tvm\nfrom tvm import relay\n\n\ndef f(mod: tvm.IRModule):\n"
        '    mod[relay.GlobalVar("f")] = 1  # keep\n'
    )
    path = tmp_path / "a.py"
    path.write_bytes(source.replace("\n", "\r\n").encode())
    run_lintgv("fix", "--unsafe", "--no-cache", "a.py", cwd=tmp_path)
    data = path.read_bytes()
    assert b"from tvm.ir.supply import GlobalVarSupply\r\n" in data
    assert b'mod[GlobalVarSupply(mod).fresh_global("f", False)] = 1  # keep\r\n' in data
    assert b"\n" not in data.replace(b"\r\n", b"")


def test_a_file_that_cannot_be_checked_sets_bit_two(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        "import tvm\nfrom tvm import relay\n\n\ndef f(mod: tvm.IRModule):\n"
        '    mod[relay.GlobalVar("f")] = 1\n'
    )
    (tmp_path / "b.cc").write_bytes(b"int x;\0\n")
    result = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "Fixed 1 finding in 1 file (GV101: 1)." in result.stdout
    assert "b.cc: binary file (NUL byte); not checked" in result.stdout


def test_a_terminal_gets_a_progress_bar_on_stderr(project: Path) -> None:
    # The bar is drawn once a run has taken the delay the environment sets: none here,
    # so this small run draws it however fast the machine.
    controller, terminal = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "lintgv", "fix", "--unsafe", "--no-cache", "."],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=terminal,
        env={**os.environ, "COLUMNS": "100", "TERM": "xterm", "LINTGV_PROGRESS_DELAY": "0"},
    ) as process:
        os.close(terminal)
        drawn = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the terminal closed: the process is done with it
                break
            if not chunk:
                break
            drawn += chunk
        stdout, _ = process.communicate(timeout=120)
    os.close(controller)
    assert b"lintgv fix: " in drawn
    assert stdout.startswith(b"Fixed 7 findings in 2 files")


def test_a_copy_becomes_the_supply_of_the_configured_release(
    copy_fixture: Callable[[str], Path],
) -> None:
    # TVM 0.25 renamed NameSupply: a fix for that release must not write the old API
    # (which GV401 would then report).
    project = copy_fixture("fix_unique_names")
    (project / "lintgv.toml").write_text('tvm-version = "0.26"\n')
    result = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=project)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    header = (project / "src" / "codegen_base.h").read_text()
    assert '  UniqueNameSupply name_supply_ = UniqueNameSupply("");\n' in header
    assert "#include <tvm/ir/unique_name_supply.h>\n" in header
    after = run_lintgv("check", "--no-cache", "--select", "GV401", ".", cwd=project)
    assert after.returncode == 0, after.stdout


def test_an_inline_loop_without_a_one_line_replacement_says_why(tmp_path: Path) -> None:
    # The loop numbers a suffix and asks about the sum: no variable holds the name, so
    # GV204 shows no replacement, and the summary says so (not a reason of GV201's).
    (tmp_path / "namer.py").write_text(
        "class Namer:\n    def __init__(self):\n        self.used = {}\n\n"
        "    def unique(self, name):\n        suffix = ''\n        i = 0\n"
        "        while name + suffix in self.used:\n            i += 1\n"
        "            suffix = '_' + str(i)\n        self.used[name + suffix] = 1\n"
        "        return name + suffix\n"
    )
    result = run_lintgv("fix", "--no-cache", "--unsafe", "--select", "GV204", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert (
        "GV204     1  no automatic fix: the loop builds its candidate in its condition"
    ) in result.stdout


PRINTER_H = """\
class RelayPrinter {
 public:
  Doc GetUniqueName(const std::string& prefix);
  Doc AllocVar(const Var& var) { return GetUniqueName(var->name_hint); }

 private:
  std::unordered_map<std::string, int> name_alloc_map_;
};
"""

PRINTER_CC = """\
#include "printer.h"

Doc RelayPrinter::GetUniqueName(const std::string& prefix) {
  std::string unique_prefix = prefix;
  while (name_alloc_map_.count(unique_prefix)) {
    unique_prefix = prefix + "_" + std::to_string(++name_alloc_map_[prefix]);
  }
  name_alloc_map_[unique_prefix] = 0;
  return Doc::Text(unique_prefix);
}
"""


def test_a_printer_copy_becomes_a_wrapper_and_the_summary_says_what_stays(
    tmp_path: Path,
) -> None:
    (tmp_path / "printer.h").write_text(PRINTER_H)
    (tmp_path / "printer.cc").write_text(PRINTER_CC)
    done = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=tmp_path)
    assert (
        "Made 1 unique-name copy a wrapper of a supply (it returns what it made of the "
        "name; its calls stay): RelayPrinter::GetUniqueName."
    ) in done.stdout
    assert "Replaced" not in done.stdout
    assert (
        (tmp_path / "printer.cc")
        .read_text()
        .endswith(
            "Doc RelayPrinter::GetUniqueName(const std::string& prefix) {\n"
            "  return Doc::Text(name_supply_->FreshName(prefix));\n}\n"
        )
    )
    # The header declares and calls the method by its name: a thin wrapper's now, which
    # the run knows, in the fix's own summary and in the next check.
    assert "remain" not in done.stdout
    check = run_lintgv("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert json.loads(check.stdout)["findings"] == []
    again = run_lintgv("fix", "--unsafe", "--no-cache", "--diff", ".", cwd=tmp_path)
    assert "---" not in again.stdout


def test_no_change_across_files_is_made_while_a_folder_cannot_be_read(
    copy_fixture: Callable[[str], Path],
) -> None:
    # A caller of the copy sits in a folder whose config is broken: the walk cannot see
    # it, and replacing the copy would leave that call behind.
    project = copy_fixture("fix_unique_names")
    hidden = project / "src" / "backend"
    hidden.mkdir()
    (hidden / "lintgv.toml").write_text("tvm-version = [\n")
    (hidden / "codegen_x.cc").write_text(
        '#include "../codegen_c.h"\nvoid CodeGenX::Emit() { GetUniqueName("x"); }\n'
    )
    python = project / "python" / "pkg"
    (python / "sub").mkdir(parents=True)
    (python / "passes.py").write_text(
        "import tvm\n\n\ndef make_global(name):\n    return tvm.ir.GlobalVar(name)\n"
    )
    for caller in (python / "driver.py", python / "sub" / "driver.py"):
        caller.write_text(
            "from pkg.passes import make_global\n\n\ndef build(mod):\n    return make_global('g')\n"
        )
    (python / "sub" / "lintgv.toml").write_text("tvm-version = [\n")
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}

    result = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=project)

    assert result.returncode & 2, result.stdout
    assert "No change across files was made: python/pkg/sub, src/backend could not be read" in (
        result.stdout
    )
    changed = {p.name for p, data in before.items() if p.read_bytes() != data}
    # Only fixes within one file may be made: the copy's header and the Python files
    # (whose GV101 has no fix of its own) stay as they were.
    assert not {n for n in changed if n.endswith((".h", ".py"))}, changed


@pytest.mark.parametrize(
    ("kind", "tail", "config"),
    [
        ("not UTF-8", b"// caf\xe9\n", ""),
        ("binary", b"// \x00\n", ""),
        ("too big", b"// " + b"x" * 4000 + b"\n", "max-file-size = 3000\n"),
    ],
)
def test_a_caller_that_cannot_be_read_as_text_stops_replacing_a_copy(
    copy_fixture: Callable[[str], Path], kind: str, tail: bytes, config: str
) -> None:
    # The caller is no text to parse, but its bytes call the copy: replacing it would
    # leave that call of a method that is gone.
    project = copy_fixture("fix_unique_names")
    (project / "lintgv.toml").write_text('tvm-version = "0.16"\n' + config)
    caller = project / "src" / "codegen_y.h"
    caller.write_bytes(
        b'#include "codegen_c.h"\nclass CodeGenY : public CodeGenC {\n'
        b'  void Emit() { GetUniqueName("y"); }\n};\n' + tail
    )
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    result = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=project)
    assert "codegen_y.h names GetUniqueName, and cannot be read as text" in result.stdout, kind
    changed = {p.name for p, data in before.items() if p.read_bytes() != data}
    assert not changed & {"codegen_base.h", "codegen_base.cc", "codegen_c.cc"}, changed


def test_a_copy_is_not_replaced_when_a_caller_is_not_among_the_files_given(
    copy_fixture: Callable[[str], Path],
) -> None:
    # A commit hook names the copy's own files: its callers in codegen_c.cc are the
    # project's all the same, and would be left calling a method that is gone.
    project = copy_fixture("fix_unique_names")
    (project / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    given = ("src/codegen_base.cc", "src/codegen_base.h")
    result = run_lintgv("fix", "--unsafe", "--no-cache", *given, cwd=project)
    assert "src/codegen_c.cc must change too, and is not among the files given" in result.stdout
    assert {p for p, data in before.items() if p.read_bytes() != data} == set()
    # Given with its caller, the copy is replaced.
    result = run_lintgv("fix", "--unsafe", "--no-cache", *given, "src/codegen_c.cc", cwd=project)
    assert "GetUniqueName" not in (project / "src" / "codegen_base.h").read_text(), result.stdout


def test_a_copy_is_not_replaced_when_an_excluded_file_names_it(
    copy_fixture: Callable[[str], Path],
) -> None:
    project = copy_fixture("fix_unique_names")
    (project / "lintgv.toml").write_text('tvm-version = "0.16"\nextend-exclude = ["src/gen"]\n')
    (project / "src" / "gen").mkdir()
    (project / "src" / "gen" / "codegen_y.h").write_text(
        '#include "../codegen_c.h"\nclass CodeGenY : public CodeGenC {\n'
        '  void Emit() { GetUniqueName("y"); }\n};\n'
    )
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    result = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=project)
    assert (
        "src/gen/codegen_y.h names GetUniqueName and is excluded from the files checked"
    ) in result.stdout
    assert {p for p, data in before.items() if p.read_bytes() != data} == set()


@pytest.mark.parametrize("given", ["..", "../src", "../src/../src"])
def test_changes_across_files_are_made_for_paths_spelled_with_dot_dot(
    copy_fixture: Callable[[str], Path], given: str
) -> None:
    project = copy_fixture("fix_unique_names")
    (project / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    result = run_lintgv("fix", "--unsafe", "--no-cache", given, cwd=project / "src")
    assert "Replaced 1 unique-name copy" in result.stdout, result.stdout
    assert "GetUniqueName" not in (project / "src" / "codegen_base.h").read_text()
    threaded = copy_fixture("thread_project")
    result = run_lintgv("fix", "--unsafe", "--no-cache", "..", cwd=threaded / "src")
    assert "Threaded a GlobalVarSupply parameter into ScheduleToModule" in result.stdout


def _make_global_project(root: Path) -> Path:
    """Write a package whose make_global builds a GlobalVar with nothing in scope, called
    from driver.py; return the package."""
    package = root / "python" / "pkg"
    package.mkdir(parents=True)
    (root / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    (package / "__init__.py").write_text("")
    (package / "passes.py").write_text(
        "import tvm\n\n\ndef make_global(name):\n    return tvm.ir.GlobalVar(name)\n"
    )
    (package / "driver.py").write_text(
        "from pkg.passes import make_global\n\n\ndef build(mod):\n    return make_global('g')\n"
    )
    return package


def test_no_change_across_files_is_made_while_a_folder_of_the_project_cannot_be_read(
    tmp_path: Path,
) -> None:
    # The paths given are python/pkg; the project (the config's folder) also holds
    # python/other, whose broken config hides a call.
    package = _make_global_project(tmp_path)
    other = tmp_path / "python" / "other"
    other.mkdir()
    (other / "lintgv.toml").write_text("tvm-version = [\n")
    (other / "user.py").write_text("from pkg.passes import make_global\n\nmake_global('u')\n")
    before = (package / "passes.py").read_bytes()

    result = run_lintgv("fix", "--unsafe", "--no-cache", "python/pkg", cwd=tmp_path)

    assert "No change across files was made: python/other could not be read" in result.stdout
    assert (package / "passes.py").read_bytes() == before


def test_a_folder_too_deep_to_look_up_stops_changes_across_files(tmp_path: Path) -> None:
    package = _make_global_project(tmp_path)
    # Folders nested past the longest path the system looks up (PATH_MAX), made one at a
    # time from inside each other; a call of make_global at the bottom.
    deep = os.open(package, os.O_RDONLY)
    name = "d" * 250
    for _ in range(18):
        os.mkdir(name, dir_fd=deep)
        inner = os.open(name, os.O_RDONLY, dir_fd=deep)
        os.close(deep)
        deep = inner
    caller = os.open("user.py", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=deep)
    os.write(caller, b"from pkg.passes import make_global\n\nmake_global('u')\n")
    os.close(caller)
    os.close(deep)
    before = (package / "passes.py").read_bytes()

    result = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=tmp_path)

    assert result.returncode & 2
    assert "No change across files was made: python/pkg/ddd" in result.stdout
    assert (package / "passes.py").read_bytes() == before


@pytest.mark.parametrize("link", ["loop", "dangling"])
def test_a_link_the_walk_reports_does_not_stop_changes_across_files(
    copy_fixture: Callable[[str], Path], link: str
) -> None:
    project = copy_fixture("fix_unique_names")
    if link == "loop":
        (project / "src" / "up").symlink_to("..")
    else:
        (project / "src" / "gone.cc").symlink_to("missing.cc")

    result = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=project)

    assert "Replaced 1 unique-name copy with a supply" in result.stdout, result.stdout
    assert "No change across files" not in result.stdout
