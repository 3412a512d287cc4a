"""Where a supply threaded into a Python function is written (fixing/threading_python.py):
the keyword-only parameter added to a signature, a function's own or its declaration in
its module's stub, and the argument passed by keyword at a call.

Apart from the threader (fixing/python_threader.py) because these are positions in text,
not questions of who calls whom: each edit is found from the nodes' spans alone.
"""

from lintgv.fixing.python_calls import PyFile
from lintgv.fixing.thread_edits import PARAMETER
from lintgv.lines import LineIndex
from lintgv.model import Edit, Span
from lintgv.parsing import libcst_lazy as cst

_DECLARATION = f"{PARAMETER}: GlobalVarSupply"


def _point(line: int, column: int, text: str) -> Edit:
    return Edit(Span(line, column, line, column), text, "")


def _after(file: PyFile, node: cst.CSTNode, text: str) -> Edit:
    if isinstance(node, cst.Param):
        # A parameter's own range ends at its name or annotation: its default comes after.
        annotation = node.annotation.annotation if node.annotation is not None else None
        node = node.default or annotation or node.name
    span = file.span_of(node)
    return _point(span.end_line, span.end_col, text)


def parameter_edit(file: PyFile, function: cst.FunctionDef) -> Edit:
    """Return the edit adding the keyword-only parameter to `function`'s signature."""
    params = function.params
    if isinstance(params.star_arg, cst.Param | cst.ParamStar):
        last = params.kwonly_params[-1] if params.kwonly_params else params.star_arg
        return _after(file, last, f", {_DECLARATION}")
    if params.star_kwarg is not None:
        start = file.span_of(params.star_kwarg)
        return _point(start.start_line, start.start_col, f"*, {_DECLARATION}, ")
    last_positional: cst.CSTNode | None = None
    if params.params:
        last_positional = params.params[-1]
    elif isinstance(params.posonly_ind, cst.ParamSlash):
        last_positional = params.posonly_ind
    if last_positional is not None:
        return _after(file, last_positional, f", *, {_DECLARATION}")
    return _after_paren(file, function.name, f"*, {_DECLARATION}")


def argument_edit(file: PyFile, call: cst.Call, supply: str) -> Edit:
    """Return the edit passing `supply` to `call` by keyword."""
    if call.args:
        return _after(file, call.args[-1], f", {PARAMETER}={supply}")
    return _after_paren(file, call.func, f"{PARAMETER}={supply}")


def _after_paren(file: PyFile, before: cst.CSTNode, text: str) -> Edit:
    """Return the edit putting `text` just inside the `(` that follows `before`."""
    index = LineIndex(file.text)
    end = file.span_of(before)
    at = file.text.index("(", index.offset(end.end_line, end.end_col)) + 1
    line, column = index.position(at)
    return _point(line, column, text)
