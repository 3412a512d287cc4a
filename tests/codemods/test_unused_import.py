"""The GlobalVar import GV101's fixes leave unused is dropped, and nothing else is."""

import pytest

from lintgv.codemods.includes import without_unused_import

# What the text was before the fixes: it used the name (as the alias, below).
BEFORE = "x = GlobalVar('a') or GV('b')\n"
CASES = [
    # The name alone, one of several, first or last, on one line or in parentheses.
    ("from tvm.relay import GlobalVar\nx = 1\n", "x = 1\n"),
    ("from tvm.relay import GlobalVar, Var\nVar(1)\n", "from tvm.relay import Var\nVar(1)\n"),
    ("from tvm.relay import Var, GlobalVar\nVar(1)\n", "from tvm.relay import Var\nVar(1)\n"),
    (
        "from tvm.relay import (\n    Var,\n    GlobalVar,\n)\nVar(1)\n",
        "from tvm.relay import (\n    Var,\n)\nVar(1)\n",
    ),
    ("from tvm.relay import GlobalVar as GV\nx = 1\n", "x = 1\n"),
    ("from tvm.relay import GlobalVar\r\nx = 1\r\n", "x = 1\r\n"),
]
KEPT = [
    "from tvm.relay import GlobalVar\ny = GlobalVar\n",  # still used
    "from tvm.relay import GlobalVar\n__all__ = ['GlobalVar']\n",  # re-exported
    "from tvm.relay import GlobalVar\n# GlobalVar is built elsewhere\n",  # named again
    "from tvm.relay import GlobalVar; x = 1\n",  # shares its line
    "from .expr import GlobalVar\n",  # relative: the package's own
    "def f(:\n    pass\nfrom tvm.relay import GlobalVar\n",  # does not parse
]
UNUSED_BEFORE = "from tvm.relay import GlobalVar as GV\nx = relay.GlobalVar('a')\n"


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_an_unused_globalvar_import_is_dropped(text: str, expected: str) -> None:
    assert without_unused_import(text, "GlobalVar", text + BEFORE) == expected


@pytest.mark.parametrize("text", KEPT)
def test_an_import_that_may_be_used_is_kept(text: str) -> None:
    assert without_unused_import(text, "GlobalVar", text + BEFORE) == text


def test_an_import_unused_before_the_fixes_is_none_of_their_business() -> None:
    after = "from tvm.relay import GlobalVar as GV\nx = supply.fresh_global('a')\n"
    assert without_unused_import(after, "GlobalVar", UNUSED_BEFORE) == after
