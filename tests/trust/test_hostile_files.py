"""The file system of a hostile tree: `fix` writes only regular files inside the tree it
was given (never through a symbolic link that leaves it, never splitting a hard link), the
cache is never written through a link and never trusted when altered, and a FIFO, a device
or a socket named like a source file is reported without being opened."""

import os
import socket
from pathlib import Path

import pytest
from hostile import run_lintgv

SITE = "#include <tvm/ir/module.h>\nvoid f() {\n  int x = 1;  // lintgv: ignore[GV101]\n}\n"
FIXED = "#include <tvm/ir/module.h>\nvoid f() {\n  int x = 1;\n}\n"


def test_a_symlink_to_a_file_outside_the_tree_is_checked_but_not_fixed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.cc"
    outside.write_text(SITE)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "inside.cc").write_text(SITE)
    (tree / "link.cc").symlink_to(outside)
    result = run_lintgv("fix", "--no-cache", ".", cwd=tree)
    assert outside.read_text() == SITE
    assert (tree / "inside.cc").read_text() == FIXED
    assert f"link.cc: not fixed: outside the tree (it resolves to {outside})" in result.stdout
    assert result.returncode == 3  # findings remain (the link's), one file not fixed


def test_a_symlinked_folder_outside_the_tree_is_not_written_even_in_a_diff(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "a.cc").write_text(SITE)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "vendor").symlink_to(outside)
    diff = run_lintgv("fix", "--no-cache", "--diff", ".", cwd=tree)
    assert "a.cc" not in diff.stdout  # the diff shows only what a run would write
    run_lintgv("fix", "--no-cache", ".", cwd=tree)
    assert (outside / "a.cc").read_text() == SITE


def test_a_symlinked_folder_outside_the_tree_is_not_walked(tmp_path: Path) -> None:
    """A link to a folder outside the one named is not the tree's: a link to `/` had
    `check` walk and report the whole machine (90,000 files, minutes)."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "a.cc").write_text(SITE.replace("  // lintgv: ignore[GV101]", ""))
    tree = tmp_path / "tree"
    (tree / "src").mkdir(parents=True)
    (tree / "src" / "b.cc").write_text('void g() { GlobalVar gv("main"); }\n')
    (tree / "vendor").symlink_to(outside)
    (tree / "rootfs").symlink_to("/")
    (tree / "again").symlink_to("src")  # inside the tree: walked (its files once)
    result = run_lintgv("check", "--no-cache", ".", cwd=tree)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Found 1 finding in 1 file (1 checked)" in result.stdout
    for link in ("vendor", "rootfs"):
        assert f"{link}: a symbolic link to a folder outside .; not followed" in result.stderr
    assert "again" not in result.stderr


def test_a_symlink_within_the_tree_is_fixed_and_stays_a_link(tmp_path: Path) -> None:
    (tmp_path / "real.cc").write_text(SITE)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "link.cc").symlink_to(tmp_path / "real.cc")
    run_lintgv("fix", "--no-cache", ".", cwd=tmp_path)
    assert (tmp_path / "sub" / "link.cc").is_symlink()
    assert (tmp_path / "real.cc").read_text() == FIXED


def test_a_hard_linked_file_is_reported_not_split(tmp_path: Path) -> None:
    (tmp_path / "a.cc").write_text(SITE)
    os.link(tmp_path / "a.cc", tmp_path / "twin.cc")
    result = run_lintgv("fix", "--no-cache", ".", cwd=tmp_path)
    assert "not fixed: hard-linked (2 links)" in result.stdout
    assert (tmp_path / "a.cc").read_text() == SITE
    assert os.stat(tmp_path / "a.cc").st_ino == os.stat(tmp_path / "twin.cc").st_ino


def test_the_cache_is_never_written_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "a.cc").write_text(SITE)
    (tree / ".lintgv_cache").symlink_to(target)
    cold = run_lintgv("check", "--no-cache", ".", cwd=tree)
    result = run_lintgv("check", ".", cwd=tree)
    assert list(target.iterdir()) == []
    assert "is a symbolic link; the cache is off for this run" in result.stderr
    assert (result.stdout, result.returncode) == (cold.stdout, cold.returncode)


def test_the_cache_is_not_made_in_a_folder_a_symlink_leads_out_to(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    (outside / "a.cc").write_text(SITE)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "b.cc").write_text(SITE)
    (tree / "linked").symlink_to(outside)
    cold = run_lintgv("check", "--no-cache", ".", cwd=tree)
    assert "linked/a.cc" not in cold.stdout  # the walk does not follow the link out
    result = run_lintgv("check", ".", cwd=tree)
    assert sorted(p.name for p in outside.iterdir()) == ["a.cc", "lintgv.toml"]
    assert (tree / ".lintgv_cache").is_dir()
    assert (result.stdout, result.returncode) == (cold.stdout, cold.returncode)


def test_an_altered_cache_entry_is_not_trusted(tmp_path: Path) -> None:
    (tmp_path / "a.cc").write_text(SITE)
    cold = run_lintgv("check", ".", cwd=tmp_path)
    (entry,) = (tmp_path / ".lintgv_cache").glob("results-*")
    data = bytearray(entry.read_bytes())
    data[-5] ^= 0x01  # one bit of the pickled results
    entry.write_bytes(bytes(data))
    warm = run_lintgv("check", ".", cwd=tmp_path)
    assert "its digest does not match its content" in warm.stderr
    assert (warm.stdout, warm.returncode) == (cold.stdout, cold.returncode)


def test_a_fifo_named_like_a_source_file_is_reported_without_being_opened(
    tmp_path: Path,
) -> None:
    os.mkfifo(tmp_path / "x.py")  # opening it for reading would wait for a writer forever
    (tmp_path / "a.py").write_text("x = 1\n")
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert "x.py: error: a named pipe (FIFO), not a regular file; not checked" in result.stdout
    assert result.returncode == 2


def test_a_socket_and_a_device_are_reported_without_being_read(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(tmp_path / "s.cc"))
        (tmp_path / "zero.cc").symlink_to("/dev/zero")  # endless bytes if it were read
        result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert "s.cc: error: a socket, not a regular file; not checked" in result.stdout
    assert "zero.cc: error: a character device, not a regular file; not checked" in result.stdout


def test_a_fifo_as_config_or_gitignore_does_not_hang(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / ".gitignore")
    (tmp_path / "a.py").write_text("x = 1\n")
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert "cannot be read (it is a named pipe (FIFO)" in result.stderr
    os.mkfifo(tmp_path / "lintgv.toml")  # not a regular file: not a config file either
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_bad_gitignore_pattern_is_skipped_with_its_file_and_line(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*.pyc\nfoo\\\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert "Traceback" not in result.stderr
    assert f"{tmp_path / '.gitignore'}:2: invalid pattern 'foo\\\\' is skipped" in result.stderr
    assert result.returncode == 0


@pytest.mark.parametrize(
    "pattern",
    [
        "*a*a*a*a*a*a*a*a*a*a*a*a*b",
        "x/**/**/**/**/**/**/**/**/**/**/**/**/y",
        "**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b",
        "a**/a**/**/a/**/a/**/a/**/a/**/a/**/b",
    ],
)
def test_a_pathological_gitignore_pattern_matches_in_linear_time(
    tmp_path: Path, pattern: str
) -> None:
    (tmp_path / ".gitignore").write_text(pattern + "\n")
    deep = tmp_path.joinpath("x", *["a"] * 40)
    deep.mkdir(parents=True)
    (deep / ("a" * 80 + ".py")).write_text("x = 1\n")
    # Backtracking took minutes here (22 s for the second pattern and 30 folders); the
    # hang guard of run_lintgv would end it.
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 0
    assert "Found 0 findings in 1 file." in result.stdout
