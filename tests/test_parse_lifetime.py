"""A parse lives as long as the check that made it, and no longer: nothing global holds
it and no reference cycle waits for the garbage collector (which a long run tunes to
collect rarely), so a run's memory follows the file being checked, not the files seen."""

import gc
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from lintgv.config import Config
from lintgv.helpers import cpp_loops, cpp_shape
from lintgv.parsing.cpp import parse_cpp
from lintgv.parsing.python import parse_python

PYTHON = """\
import tvm


def lower(mod, name):
    gv = tvm.ir.GlobalVar(name)
    while name in mod:
        name = name + "_1"
    return gv
"""

CPP = """\
std::string GetUniqueName(std::string name) {
  while (used.count(name)) {
    name = name + std::to_string(counter++);
  }
  return name;
}
"""


@pytest.fixture
def no_collector() -> Iterator[None]:
    """Only reference counting frees anything while a test runs."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_a_python_parse_is_freed_by_reference_counting(no_collector: None) -> None:
    parsed = parse_python(PYTHON)
    parsed.walk([])
    call = parsed.module.body[1].body.body[0].body[0].value  # type: ignore[attr-defined]
    assert parsed.positions[call].start.line == 5  # positions and parents built
    assert parsed.parent_of(call) is not None
    alive = weakref.ref(parsed)
    del parsed, call
    assert alive() is None


def test_what_rules_work_out_on_a_cpp_parse_dies_with_it(
    no_collector: None, tmp_path: Path
) -> None:
    config = Config(root=tmp_path)
    parsed = parse_cpp(CPP)
    assert cpp_shape.units(parsed, config, lambda words: True)
    assert cpp_shape.units(parsed, config, lambda words: True)[0] is not None
    assert cpp_loops.inline_loops(parsed, config) == ()  # the loop is inside a helper
    alive = weakref.ref(parsed)
    del parsed
    assert alive() is None


def test_the_text_of_a_cpp_parse_dies_with_it(no_collector: None) -> None:
    # py-tree-sitter keeps a reference to whatever its read callback returns, so the
    # text it was handed must not be the text lintgv keeps.
    first = parse_cpp(CPP)
    edited = CPP.replace("counter++", "next_counter++")
    second = parse_cpp(edited, previous=first)  # an editor's reparse reads the text too
    assert second.tree.root_node.has_error is False
    first_text, second_text = first.data, second.data
    del first, second
    # Only the test's name and the call's own argument refer to each.
    assert sys.getrefcount(first_text) == 2
    assert sys.getrefcount(second_text) == 2


def test_parsing_cpp_leaves_nothing_to_the_binding() -> None:
    # py-tree-sitter keeps every object its read callback returns: lintgv hands it none
    # made for the parse (see _bounded_parse).
    gc.collect()
    before = sum(isinstance(o, memoryview) for o in gc.get_objects())
    previous = None
    for i in range(40):
        parsed = parse_cpp(CPP.replace("counter", f"counter{i}"), previous=previous)
        assert parsed.tree.root_node.has_error is False
        previous = parsed if i % 2 else None  # reparses of an edited text too
    del parsed, previous
    gc.collect()
    assert sum(isinstance(o, memoryview) for o in gc.get_objects()) == before
