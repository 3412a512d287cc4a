"""Faults around `check` and `fix`: files that cannot be written, change under the run,
folders that cannot be read, symlink loops, broken caches and Ctrl-C. No file is ever
left half-written, and the exit status and message say what happened."""

import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lintgv.fixing import file_fix
from lintgv.fixing.run import fix_paths
from lintgv.fixing.settle import settle as real_settle

LintgvRunner = Callable[..., subprocess.CompletedProcess[str]]
FIXTURES = Path(__file__).parent.parent / "fixtures"

SITE = 'void F(IRModule mod) {\n  GlobalVar gv("f");\n  mod->Add(gv, x);\n}\n'
FIXED = (
    "#include <tvm/ir/global_var_supply.h>\n\n"
    "void F(IRModule mod) {\n  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
    '  GlobalVar gv = global_var_supply->FreshGlobal("f", false);\n  mod->Add(gv, x);\n}\n'
)


def test_the_expected_fix_is_what_fix_writes(tmp_path: Path, lintgv: LintgvRunner) -> None:
    (tmp_path / "a.cc").write_text(SITE)
    lintgv("fix", "--unsafe", "--no-cache", ".", cwd=tmp_path)
    assert (tmp_path / "a.cc").read_text() == FIXED


def test_a_read_only_file_is_reported_and_left_as_it_is(
    tmp_path: Path, lintgv: LintgvRunner
) -> None:
    locked, free = tmp_path / "locked.cc", tmp_path / "free.cc"
    locked.write_text(SITE)
    free.write_text(SITE)
    locked.chmod(0o444)
    result = lintgv("fix", "--unsafe", "--no-cache", ".", cwd=tmp_path)
    assert locked.read_text() == SITE
    assert free.read_text() == FIXED
    assert "locked.cc: cannot be written: the file is read-only; not overwritten" in result.stdout
    assert result.returncode == 3  # a finding remains (1), a file was not written (2)


def _settle_then(action: Callable[[Path], None]) -> Callable[..., object]:
    """Return a settle that runs `action` on the file once its fixes are worked out."""

    def settle_and_act(text: str, *args: object, **kwargs: object) -> object:
        settled = real_settle(text, *args, **kwargs)  # type: ignore[arg-type]  # passed through
        for path in Path(os.environ["FAULT_ROOT"]).glob("*.cc"):
            if path.name.startswith("victim"):
                action(path)
        return settled

    return settle_and_act


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda p: p.write_text(SITE + "// edited meanwhile\n"), "changed on disk"),
        (lambda p: p.unlink(), "cannot be read again"),
    ],
    ids=["changed", "deleted"],
)
def test_a_file_changed_or_deleted_between_read_and_write_is_not_overwritten(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    action: Callable[[Path], None],
    message: str,
) -> None:
    victim = tmp_path / "victim.cc"
    victim.write_text(SITE)
    monkeypatch.setenv("FAULT_ROOT", str(tmp_path))
    monkeypatch.setattr(file_fix, "settle", _settle_then(action))
    result = fix_paths([tmp_path], {}, unsafe=True, use_cache=False, jobs=1)
    assert [e.path.name for e in result.all_errors] == ["victim.cc"]
    assert message in result.all_errors[0].message
    if victim.exists():
        assert victim.read_text() == SITE + "// edited meanwhile\n"
    assert [p.name for p in tmp_path.iterdir()] == (["victim.cc"] if victim.exists() else [])


# --- folders another user cannot read ---------------------------------------------------


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder every user can enter (pytest's own tmp_path is private to its owner)."""
    with tempfile.TemporaryDirectory(prefix="lintgv-faults-") as name:
        os.chmod(name, 0o755)
        yield Path(name)


# The interpreter may live where `nobody` cannot read it, so root starts Python, runs the
# command once on an empty folder (loading every module it needs), then drops to
# `nobody` and runs it for real.
_DROP_PRIVILEGES = """
import contextlib, encodings.utf_8_sig, io, os, sys, tempfile
from lintgv.cli import main
args = sys.argv[1:]
if os.getuid() == 0:
    # A first run as root, on a file with a finding, imports every module the real run
    # needs (many are imported lazily), while the interpreter's own files are readable.
    with tempfile.TemporaryDirectory() as warm, contextlib.redirect_stdout(io.StringIO()):
        with open(os.path.join(warm, "w.cc"), "w") as stream:
            stream.write('void F(IRModule mod) { GlobalVar gv("f"); mod->Add(gv, f); }\\n')
        with open(os.path.join(warm, "lintgv.toml"), "w") as stream:
            stream.write("")  # a config file is read with tomllib, imported when first read
        main([*args[:-1], warm])
    os.setgroups([])
    os.setgid(int(os.environ["DROP_TO_GID"]))
    os.setuid(int(os.environ["DROP_TO_UID"]))
sys.exit(main(args))
"""


def _as_unprivileged(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run lintgv as `nobody` when root (root reads every folder, whatever its mode)."""
    nobody = pwd.getpwnam("nobody")
    env = {**os.environ, "DROP_TO_UID": str(nobody.pw_uid), "DROP_TO_GID": str(nobody.pw_gid)}
    return subprocess.run(
        [sys.executable, "-c", _DROP_PRIVILEGES, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )


def _give_to_runner(path: Path) -> None:
    if os.getuid() == 0:
        nobody = pwd.getpwnam("nobody")
        os.chown(path, nobody.pw_uid, nobody.pw_gid)


def test_a_folder_that_cannot_be_read_is_reported_and_the_rest_checked(
    shared_dir: Path,
) -> None:
    closed = shared_dir / "closed"
    closed.mkdir()
    (closed / "hidden.cc").write_text(SITE)
    (shared_dir / "open.cc").write_text(SITE)
    closed.chmod(0o000)
    try:
        result = _as_unprivileged("check", "--no-cache", ".", cwd=shared_dir)
    finally:
        closed.chmod(0o755)
    assert "open.cc:2:3: GV101" in result.stdout
    assert "closed: error: cannot be read: Permission denied" in result.stdout
    assert result.returncode == 3


def _fix_while_unreadable(root: Path, locked: Path) -> subprocess.CompletedProcess[str]:
    """Run `fix --unsafe` unprivileged over the tree under `root`, given to the runner,
    all but `locked`, which it may not read."""
    for path in [root, *root.rglob("*")]:
        _give_to_runner(path)
    locked.chmod(0o000)
    try:
        return _as_unprivileged("fix", "--unsafe", "--no-cache", ".", cwd=root)
    finally:
        locked.chmod(0o644)


def test_a_file_that_cannot_be_read_stops_threading_a_supply(shared_dir: Path) -> None:
    package = shared_dir / "pkg"
    package.mkdir()
    (shared_dir / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    (package / "__init__.py").write_text("")
    (package / "passes.py").write_text(
        "import tvm\n\n\ndef make_global(name):\n    return tvm.ir.GlobalVar(name)\n"
    )
    call = "from pkg.passes import make_global\n\n\ndef build(mod):\n    return make_global('g')\n"
    (package / "driver.py").write_text(call)
    locked = package / "locked.py"
    locked.write_text(call)
    before = {p.name: p.read_bytes() for p in package.iterdir()}
    result = _fix_while_unreadable(shared_dir, locked)
    assert "pkg/locked.py: cannot be read: Permission denied" in result.stdout
    assert (
        "No change across files was made: pkg/locked.py could not be read, and a call there "
        "would be left behind." in result.stdout
    )
    assert {p.name: p.read_bytes() for p in package.iterdir()} == before


def test_a_file_that_cannot_be_read_stops_replacing_a_copy(shared_dir: Path) -> None:
    source = shared_dir / "src"
    shutil.copytree(FIXTURES / "fix_unique_names" / "src", source)
    locked = source / "codegen_x.cc"
    locked.write_text('#include "codegen_c.h"\nvoid CodeGenX::Emit() { GetUniqueName("x"); }\n')
    before = {p.name: p.read_bytes() for p in source.iterdir()}
    result = _fix_while_unreadable(shared_dir, locked)
    assert (
        "No change across files was made: src/codegen_x.cc could not be read, and a call "
        "there would be left behind." in result.stdout
    )
    # Within one file only: no header, and no caller of the copy, changes.
    changed = {name for name, data in before.items() if (source / name).read_bytes() != data}
    assert not changed & {"codegen_base.h", "codegen_c.cc", "codegen_x.cc"}, changed


def test_fix_in_a_folder_it_cannot_write_reports_and_keeps_the_file(shared_dir: Path) -> None:
    folder = shared_dir / "frozen"
    folder.mkdir()
    target = folder / "a.cc"
    target.write_text(SITE)
    _give_to_runner(target)  # the file is writable, only its folder is not
    folder.chmod(0o555)
    try:
        result = _as_unprivileged("fix", "--unsafe", "--no-cache", ".", cwd=shared_dir)
    finally:
        folder.chmod(0o755)
    assert target.read_text() == SITE
    assert sorted(p.name for p in folder.iterdir()) == ["a.cc"]
    assert "frozen/a.cc: cannot be written: [Errno 13] Permission denied" in result.stdout
    assert result.returncode == 3


# --- symlinks and caches ------------------------------------------------------------------


def test_symlink_loops_are_reported_and_never_followed_forever(
    tmp_path: Path, lintgv: LintgvRunner
) -> None:
    (tmp_path / "a.cc").symlink_to(tmp_path / "b.cc")
    (tmp_path / "b.cc").symlink_to(tmp_path / "a.cc")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to(tmp_path)
    (tmp_path / "real.cc").write_text(SITE)
    for command in ("check", "fix"):
        result = lintgv(command, "--no-cache", ".", cwd=tmp_path)
        for name in ("a.cc", "b.cc", "sub/up"):
            assert re.search(rf"{name}: (error: )?symbolic link loop", result.stdout), command
        assert result.returncode == 3, command
    assert (tmp_path / "real.cc").read_text() == SITE  # unsafe fixes need --unsafe


def test_a_corrupted_cache_is_ignored_and_rebuilt(tmp_path: Path, lintgv: LintgvRunner) -> None:
    (tmp_path / "a.cc").write_text(SITE)
    cold = lintgv("check", ".", cwd=tmp_path)
    entries = list((tmp_path / ".lintgv_cache").glob("results-*"))
    assert entries
    for entry in entries:
        entry.write_bytes(b"\x80\x04garbage" + os.urandom(64))
    warm = lintgv("check", ".", cwd=tmp_path)
    assert (warm.stdout, warm.returncode) == (cold.stdout, cold.returncode)
    again = lintgv("check", ".", cwd=tmp_path)
    assert again.stdout == cold.stdout
    assert "unreadable" not in again.stderr  # the rebuilt cache reads back


def test_a_cache_that_cannot_be_written_changes_nothing_but_a_warning(
    tmp_path: Path, lintgv: LintgvRunner
) -> None:
    (tmp_path / "a.cc").write_text(SITE)
    cold = lintgv("check", "--no-cache", ".", cwd=tmp_path)
    full = tmp_path / "full"
    full.write_text("a file where the cache folder should be")  # like ENOSPC: no writes
    result = lintgv("check", "--cache-dir", "full", ".", cwd=tmp_path)
    assert (result.stdout, result.returncode) == (cold.stdout, cold.returncode)
    assert "cache folder full is not a folder; the cache is off for this run" in result.stderr


# --- Ctrl-C -------------------------------------------------------------------------------


def test_ctrl_c_during_fix_leaves_every_file_whole(tmp_path: Path) -> None:
    paths = [tmp_path / f"f{i:03}.cc" for i in range(150)]
    for path in paths:
        path.write_text(SITE)
    process = subprocess.Popen(
        [sys.executable, "-m", "lintgv", "fix", "--unsafe", "--no-cache", "-j", "1", "."],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # As from a terminal, even when the suite itself runs with Ctrl-C ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # Interrupt once writing has begun: the first file read back fixed is the signal.
    while process.poll() is None and not any(p.read_text() == FIXED for p in paths):
        os.sched_yield()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=120)
    contents = {p.read_text() for p in paths}
    assert contents <= {SITE, FIXED}, "a file was left half-written"
    assert not list(tmp_path.glob(".*lintgv-tmp")), "a temporary file was left behind"
    if process.returncode == 130:
        assert "lintgv: interrupted" in stderr
    else:  # the run finished before the signal arrived
        assert process.returncode == 0, stdout + stderr
        assert contents == {FIXED}
