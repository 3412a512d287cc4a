""".gitignore patterns select the files git itself leaves out: every case is put to git
(`git ls-files --others --exclude-standard`) and to lintgv's walk, in the same tree."""

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lintgv.discovery import Discovery
from lintgv.gitignore import translate

FILES = [
    "a.py",
    "b.py",
    "ab.py",
    "a b.py",
    "#x.py",
    "!y.py",
    "[z].py",
    "A.py",
    "1.py",
    "a/a.py",
    "a/b.py",
    "a/b/a.py",
    "a/b/c/d.py",
    "b/a/x.py",
    "b/ab/x.py",
    "c/a.py/x.py",
    "c/d/a/b.py",
    "x/y/z/q.py",
    "aa/ab.py",
    "ba/aa/b.py",
    "x/a/b/a/b/q.py",
    "b/x/b/x/a.py",
    "ab/ab/a/ab.py",
    "k/ab/a/m/c.py",
    "x/yy/y/z.py",
]

CASES = [
    "a.py",
    "/a.py",
    "\\/a",  # a quoted slash first: git needs a slash the relative path never starts with
    "*.py\n!\\/a.py",  # so its negation takes nothing back
    "a/",
    "/a/",
    "a",
    "a/b",
    "a/b/",
    "/a/b",
    "b/a",
    "*.py",
    "*",
    "**",
    "**/",
    "a/*",
    "a/**",
    "a/**/",
    "**/a",
    "**/a/b",
    "a/**/b",
    "a/**/a.py",
    "x/**/q.py",
    "**/b/**/x.py",
    "?.py",
    "??.py",
    "a?py",
    "[ab].py",
    "[!a].py",
    "[^a].py",
    "[a-b]*.py",
    "[b-a].py",
    "[]z[].py",
    "[[:upper:]].py",
    "[[:digit:][:space:]].py",
    "[[:alpha:]]/**",
    "a*b*.py",
    "ab**.py",
    "***",
    "\\#x.py",
    "#x.py",
    "\\!y.py",
    "a\\ b.py",
    "a\\*.py",
    "\\[z\\].py",
    "a.py   ",
    "a.py\\ ",
    "*.py\n!a.py",
    "a/\n!a/b/",
    "*\n!*/\n!a.py",
    "a/**\n!a/b/",
    "b\n!b/a",
    "!a.py",
    "/",
    "c/*/a.py",
    "c/*/*/b.py",
    "**/a/**/c.py",
    "x/**/y/**/z.py",
    "/**",
    "*\n!/**",
    "*\n!/**/\n!*.py",
    "**\\/c.py",
    "x/**\\/q.py",
    "[[:a]b:]].py",
    "a.py\0junk",
    "a.py**/*",
    "a**/*",
    "a**/*/b.py",
    "a**/*/c/d.py",
    "a**/**/*",
    "x**/*/q.py",
]


def _tree(root: Path, ignore: str) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=_GIT)
    for name in FILES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x = 1\n")
    (root / ".gitignore").write_text(ignore + "\n")


# git with no configuration of the machine or the user: only the tree's .gitignore.
_GIT = {
    "PATH": os.environ.get("PATH", ""),
    "HOME": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def _by_git(root: Path) -> set[str]:
    listed = subprocess.run(
        ["git", "-c", "core.excludesFile=", "ls-files", "-z", "--others", "--exclude-standard"],
        cwd=root,
        env=_GIT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return {p for p in listed.split("\0") if p.endswith(".py")}


def _by_lintgv(root: Path) -> set[str]:
    errors: list[tuple[Path, str]] = []
    found = Discovery({}).discover([root], errors)
    assert errors == []
    return {c.path.relative_to(root).as_posix() for c in found}


def _compare(tmp_path: Path, ignore: str) -> None:
    _tree(tmp_path, ignore)
    assert _by_lintgv(tmp_path) == _by_git(tmp_path), ignore


@pytest.mark.system("git")
@pytest.mark.parametrize("ignore", CASES)
def test_walk_leaves_out_what_git_leaves_out(tmp_path: Path, ignore: str) -> None:
    _compare(tmp_path, ignore)


@pytest.mark.system("git")
def test_a_deeper_gitignore_takes_back_what_one_above_ignores(tmp_path: Path) -> None:
    _tree(tmp_path, "*.py")
    (tmp_path / "a" / ".gitignore").write_text("!a.py\n")
    (tmp_path / "a" / "b" / ".gitignore").write_text("!/a.py\n")
    assert _by_lintgv(tmp_path) == _by_git(tmp_path) == {"a/a.py", "a/b/a.py"}


@pytest.mark.system("git")
def test_no_ignore_file_from_outside_the_repository_applies(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*.py\n")  # a home folder kept in git, say
    _tree(tmp_path / "repo", "")
    assert _by_lintgv(tmp_path / "repo") == _by_git(tmp_path / "repo") == set(FILES)


@pytest.mark.system("git")
def test_the_repository_s_own_exclude_file_applies(tmp_path: Path) -> None:
    _tree(tmp_path, "")
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("a/\n")
    (tmp_path / "b" / ".gitignore").write_text("!a/\n")
    assert _by_lintgv(tmp_path) == _by_git(tmp_path)
    assert "a/a.py" not in _by_lintgv(tmp_path)
    assert "b/a/x.py" in _by_lintgv(tmp_path)


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("byte order mark", b"\xef\xbb\xbfa.py\n"),
        ("carriage returns", b"a.py\r\nb.py\r\n"),
        ("a NUL ending a line", b"a.py\0b.py\n"),
    ],
)
@pytest.mark.system("git")
def test_ignore_files_are_read_as_git_reads_them(tmp_path: Path, name: str, data: bytes) -> None:
    _tree(tmp_path, "")
    (tmp_path / ".gitignore").write_bytes(data)
    assert _by_lintgv(tmp_path) == _by_git(tmp_path), name


@pytest.mark.system("git")
def test_a_gitignore_that_is_a_symbolic_link_is_not_followed(tmp_path: Path) -> None:
    _tree(tmp_path / "repo", "")
    (tmp_path / "patterns").write_text("*.py\n")
    (tmp_path / "repo" / ".gitignore").unlink()
    (tmp_path / "repo" / ".gitignore").symlink_to(tmp_path / "patterns")
    assert _by_lintgv(tmp_path / "repo") == _by_git(tmp_path / "repo") == set(FILES)


@pytest.mark.system("git")
def test_a_huge_gitignore_is_read_up_to_its_last_whole_line(tmp_path: Path) -> None:
    # 1 MiB of comments, then `*.pyc` across the limit: its start must not read as `*.py`.
    padding = "#" + "x" * 1000 + "\n"
    head = padding * (1024 * 1024 // len(padding))
    _tree(tmp_path, head + "#" * (1024 * 1024 - len(head) - 4) + "\n*.pyc")
    assert _by_lintgv(tmp_path) == set(FILES)


@pytest.mark.system("git")
def test_patterns_below_a_folder_are_relative_to_it(tmp_path: Path) -> None:
    _tree(tmp_path, "")
    (tmp_path / "a" / ".gitignore").write_text("/a.py\nb/\n")
    (tmp_path / "c" / ".gitignore").write_text("**/b.py\n")
    assert _by_lintgv(tmp_path) == _by_git(tmp_path)
    assert "a/a.py" not in _by_lintgv(tmp_path)


# Pieces git reads specially (stars, brackets and classes, escapes, negation, comments,
# trailing spaces, slashes) next to names the tree holds.
_PIECES = st.sampled_from(
    [
        "a",
        "b",
        "ab",
        ".py",
        "p",
        "y",
        ".",
        "*",
        "**",
        "?",
        "/",
        "[ab]",
        "[!a]",
        "[a-",
        "[!",
        "[",
        "]",
        "-",
        "\\",
        "\\*",
        "[[:alpha:]]",
        " ",
        "!",
        "#",
    ]
)


@pytest.mark.system("git")
@settings(max_examples=400, deadline=None)
@given(lines=st.lists(st.lists(_PIECES, min_size=1, max_size=5).map("".join), max_size=3))
def test_generated_patterns_agree_with_git(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str]
) -> None:
    _compare(tmp_path_factory.mktemp("tree"), "\n".join(lines))


@pytest.mark.parametrize("pattern", ["a\\", "[ab", "[[:nope:]]x"])
def test_a_pattern_git_can_use_for_nothing_is_refused(pattern: str) -> None:
    with pytest.raises(ValueError):
        translate(pattern)


def test_blank_lines_and_comments_name_nothing() -> None:
    assert translate("")[0] is None
    assert translate("   ")[0] is None
    assert translate("# a comment")[0] is None
    assert translate("!")[0] is None


@pytest.mark.system("git")
def test_a_repository_inside_the_tree_is_walked_under_its_own_ignore_files(
    tmp_path: Path,
) -> None:
    _tree(tmp_path, "a.py\nb/")
    inner = tmp_path / "vendor" / "inner"
    _tree(inner, "x/")
    (inner / ".git" / "info").mkdir(exist_ok=True)
    (inner / ".git" / "info" / "exclude").write_text("c.py\n")
    walked = _by_lintgv(tmp_path)
    # git lists the inner repository as one entry; inside it, only its own files count.
    assert {p for p in walked if not p.startswith("vendor/")} == _by_git(tmp_path)
    inside = {p.removeprefix("vendor/inner/") for p in walked if p.startswith("vendor/")}
    assert inside == _by_git(inner)
    assert "a.py" in inside and "b/a/x.py" in inside, "the outer .gitignore reached inside"
    assert "k/ab/a/m/c.py" not in inside and "x/y/z/q.py" not in inside


@pytest.mark.system("git")
def test_a_submodule_whose_history_lies_elsewhere_is_walked_without_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _tree(tmp_path, "a.py")
    submodule = tmp_path / "sub"
    submodule.mkdir()
    (submodule / ".git").write_text("gitdir: ../.git/modules/sub\n")
    (submodule / "a.py").write_text("x = 1\n")
    assert "sub/a.py" in _by_lintgv(tmp_path)
    assert not caplog.records


NON_ASCII_FILES = ["é.py", "e.py", "ée.py", "ü/x.py", "u/x.py", "日本.py", "ab.py"]


@pytest.mark.parametrize(
    "ignore",
    ["?.py", "??.py", "???.py", "[é].py", "[!a].py", "é*", "*é.py", "ü/", "?/", "[ü]/", "日?.py"],
)
@pytest.mark.system("git")
def test_non_ascii_names_are_matched_byte_by_byte_as_git_does(tmp_path: Path, ignore: str) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env=_GIT)
    for name in NON_ASCII_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    (tmp_path / ".gitignore").write_text(ignore + "\n", encoding="utf-8")
    assert _by_lintgv(tmp_path) == _by_git(tmp_path), ignore
