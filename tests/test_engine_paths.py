"""The engine names a file relative to its root as paths.relative_to_root does."""

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from lintgv.config import Config
from lintgv.engine import _table
from lintgv.paths import relative_to_root

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
