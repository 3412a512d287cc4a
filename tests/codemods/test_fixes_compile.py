"""Every C++ fix a rule's examples show compiles where it lands: the fixed text of each
invalid example, compiled with the system C++ compiler against small stub headers of
TVM's types (tests/stubs: only as much as the examples use, not TVM's code)."""

from collections.abc import Callable
from pathlib import Path

import pytest

from lintgv.model import Language
from lintgv.registry import all_rules

pytestmark = pytest.mark.system("c++")

PRELUDE = "#include <tvm/ir/module.h>\nusing namespace tvm;\n"
FIXED = [
    pytest.param(example.fixed, id=f"{rule.META.code}-invalid-{index}")
    for rule in all_rules()
    if rule.LANGUAGE == Language.CPP and rule.META.code.startswith("GV1")
    for index, example in enumerate(rule.INVALID)
    if example.fixed is not None
]


@pytest.mark.parametrize("fixed", FIXED)
def test_a_fixed_example_compiles(
    tmp_path: Path, fixed: str, syntax_errors: Callable[[Path], str]
) -> None:
    source = tmp_path / "fixed.cc"
    source.write_text(PRELUDE + fixed)
    assert syntax_errors(source) == ""
