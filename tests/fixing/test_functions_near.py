"""PyFile.functions_near: a site's function is looked for among the functions of the
top-level statement holding its line, not among all of a file's. For every line of
sources laid out every way a statement's code can begin and end (decorators, comments
before and after, nested functions, one-line bodies, a last line without a break), the
function found is the one a search of every function finds."""

from pathlib import Path

import pytest

from lintgv.fixing.python_calls import PyFile, target_at

SOURCES = [
    '''\
import tvm


# A comment before a decorated function.
@tvm.register
# Between decorator and def.
def first(mod):
    gv = tvm.ir.GlobalVar("f")
    # a comment at the body's end

# a comment at the module's level
def second(): return tvm.ir.GlobalVar("g")
x = 1; y = 2
class Holder:
    """Doc."""

    def method(self):
        def inner():
            return tvm.ir.GlobalVar("h")

        return inner()
        # trailing, indented


    @staticmethod
    def other():
        pass
if __name__ == "__main__":
    def local():
        return 1
    local()
async def last():
    await x''',
    "def only():\n    pass\n",
    "x = 1\n",
    "def a():\n    return 1\r\ndef b():\r\n    return 2\r\n",
]


@pytest.mark.parametrize("text", SOURCES)
def test_the_function_at_each_line_is_found_as_among_every_function(text: str) -> None:
    file = PyFile(Path("m.py"), text, "m")
    assert file.parsed.starts is not None
    for line in range(1, text.count("\n") + 3):
        found = target_at(file, line)
        holding = [
            f
            for f in file.functions
            if file.span_of(f).start_line <= line <= file.span_of(f).end_line
        ]
        if not holding:
            assert found is None, line
            continue
        innermost = max(holding, key=lambda f: file.span_of(f).start_line)
        assert found is not None and found.function is innermost, line
