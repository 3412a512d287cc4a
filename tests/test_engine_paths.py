"""The engine names a file relative to its root as paths.relative_to_root does, and asks
per-file globs about it as git asks about a path and each folder above it."""

import contextlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lintgv.config import Config
from lintgv.engine import _table
from lintgv.paths import Matcher, matches_any, relative_to_root

ROOT = Path("/p/root")
# Components that make the corners: the root's own name and its parent's, a name that
# extends the root's, `.` and `..`, and an empty one (a doubled slash).
PARTS = st.sampled_from(["p", "root", "rootx", "a", "b.py", ".", "..", ""])


@given(st.lists(PARTS, min_size=1, max_size=6), st.booleans())
def test_a_file_is_named_relative_to_its_root_as_relative_to_root_names_it(
    parts: list[str], absolute: bool
) -> None:
    path = Path(("/" if absolute else "") + "/".join(parts))
    table = _table(Config(root=ROOT))
    assert table.relative(path) == relative_to_root(path, ROOT)
    # Asked again: the folder's part now comes from what was worked out the first time.
    assert table.relative(path) == relative_to_root(path, ROOT)


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real root, p/root, with a folder in it, for a check run from each of them."""
    base = tmp_path_factory.mktemp("places")
    (base / "p" / "root" / "a").mkdir(parents=True)
    return base


@given(parts=st.lists(PARTS, min_size=1, max_size=6))
def test_a_relative_path_is_named_from_the_current_folder_whichever_it_is(
    places: Path, parts: list[str]
) -> None:
    root = places / "p" / "root"
    path = Path("/".join(parts))
    table = _table(Config(root=root))
    # One table, asked from the root, a folder in it, the folder above it and beyond: a
    # folder's part worked out from one current folder must not answer for another.
    for where in ("p/root", "p/root/a", "p", "", "p/root"):
        with contextlib.chdir(places / where):
            assert table.relative(path) == relative_to_root(path, root)


GLOBS = st.sampled_from(
    ["*supply*", "a/", "/a/", "a/**/b", "**/b/", "b.py", "a?/", "/", "*", "!a/b/", "[ab]/"]
)
SEGMENTS = st.sampled_from(["a", "b", "ab", "b.py", "x_supply.cc", "c"])


@given(
    st.lists(GLOBS, min_size=1, max_size=3),
    st.lists(st.lists(SEGMENTS, min_size=1, max_size=4), min_size=1, max_size=4),
    st.booleans(),
)
def test_a_glob_covers_a_file_when_it_matches_the_file_or_a_folder_above_it(
    globs: list[str], paths: list[list[str]], absolute: bool
) -> None:
    # Several paths through one matcher: a folder's answer, remembered from an earlier
    # path, must be the answer for the next one too.
    patterns = tuple(dict.fromkeys(globs))
    for parts in paths:
        relative = ("/" if absolute else "") + "/".join(parts)
        spec = Matcher(patterns)
        components = relative.split("/")
        folders = ["/".join(components[: i + 1]) + "/" for i in range(len(components) - 1)]
        expected = any(spec.matches(f) for f in folders) or spec.matches(relative)
        assert matches_any(relative, patterns) == expected
