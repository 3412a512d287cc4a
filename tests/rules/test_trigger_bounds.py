"""Trigger scans are bounded: a pattern reads at most SCAN characters of a line or a
statement past its start (DICT_SCAN into a dict of attributes). Unbounded, a hostile file
repeating a pattern's start without its end made every occurrence read on to the end:
minutes for a file of 200 KB, in a CI gate on a stranger's pull request."""

import re

import pytest

from lintgv.helpers.names import (
    CPP_RETRY_TRIGGERS,
    CPP_SHAPE_TRIGGERS,
    DICT_SCAN,
    PYTHON_SHAPE_TRIGGERS,
    SCAN,
)
from lintgv.rules._global_symbol.base import PYTHON_TRIGGERS
from lintgv.rules.gv303_tvmscript_global_symbol import META as GV303

# (pattern, text with {} where the filler goes): the pattern matches with a short filler.
CASES = {
    "C++ recursion": (CPP_SHAPE_TRIGGERS[3], "return Unique(name{} + 1);"),
    "C++ counter in the map": (
        CPP_SHAPE_TRIGGERS[4],
        "return name{} + std::to_string(used[name]);",
    ),
    "C++ loop": (
        CPP_SHAPE_TRIGGERS[0],
        "while (true) {{\n  int x{};\n  if (used.count(n)) n = base + std::to_string(i++);\n}}",
    ),
    "C++ retry": (
        CPP_RETRY_TRIGGERS[0],
        "while (mod->ContainGlobalVar(name{})) {{\n  name = FreshName(name);\n}}",
    ),
    "Python recursion": (PYTHON_SHAPE_TRIGGERS[2], "return self.unique(name{} + str(i))\n"),
    "Python counter": (
        PYTHON_SHAPE_TRIGGERS[3],
        "used[name] += 1\nx = 1{}\nreturn name + str(used[name])\n",
    ),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_shape_matches_within_the_bound_and_not_past_it(case: str) -> None:
    pattern, text = CASES[case]
    assert re.search(pattern, text.format(" " * 10))
    assert not re.search(pattern, text.format(" " * (SCAN + 10)))


@pytest.mark.parametrize("pattern", [PYTHON_TRIGGERS[0], GV303.triggers[0]], ids=["GV301", "GV303"])
def test_a_dict_of_attributes_is_read_up_to_its_bound(pattern: str) -> None:
    call = "func_attr" if "func_attr" in pattern else "with_attrs"
    near = f'{call}({{"a": 1,{" " * 100}"global_symbol": "f"}})'
    far = f'{call}({{"a": 1,{" " * (DICT_SCAN + 10)}"global_symbol": "f"}})'
    assert re.search(pattern, near)
    assert not re.search(pattern, far)
