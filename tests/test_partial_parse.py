"""Partial parsing keeps working where a file's strings continue over a backslash."""

import warnings

from lintgv.parsing.python import _parse_both, parse_python, quiet_parse
from lintgv.parsing.python_lines import select_lines
from lintgv.prefilter import combined

CONTINUED = (
    "def f(mod):\n"
    '    raise ValueError("a message that goes on \\\n'
    '        over two lines")\n'
    "\n"
    "\n"
    "def g(mod):\n"
    '    return GlobalVar("main")\n'
)


def test_a_backslash_continued_string_still_allows_a_partial_parse() -> None:
    selection = select_lines(CONTINUED, combined(("GlobalVar",)))
    assert selection is not None  # None would mean: parse the whole file
    # g, and the header of f: the first statement, where a fix's import would go.
    assert selection.keep == frozenset({0, 5, 6})
    assert [line for line, _ in selection.stubs] == [1]


def test_the_partial_parse_keeps_the_file_line_numbers() -> None:
    selection = select_lines(CONTINUED, combined(("GlobalVar",)))
    parsed = parse_python(CONTINUED, "", selection)
    assert not parsed.complete
    assert parsed.file_line(3) == 6


def test_an_escaped_backslash_before_a_newline_ends_nothing() -> None:
    broken = 'x = "a\\\\\nb"\nGlobalVar("f")\n'
    assert select_lines(broken, combined(("GlobalVar",))) is None


def test_the_tree_s_own_warnings_are_not_the_run_s() -> None:
    """CPython warns about an invalid escape in the checked code ("\\d"): under
    `-W error` that warning would raise, and otherwise it would be printed as lintgv's."""
    text = 'import tvm\npattern = "\\d+"\ngv = tvm.ir.GlobalVar("a")\n'
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parse_python(text)
        assert quiet_parse(text).body
        # CPython's parse, which places statements fast, is not lost to the warning.
        assert _parse_both(text)[1] is not None
