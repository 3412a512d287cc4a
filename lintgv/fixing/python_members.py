"""A supply kept as an attribute, for Python supply threading (fixing/threading_python.py).

As in C++ (fixing/cpp_members.py): where a caller with no supply to pass is a method of
a module-level class that sets its attributes in its own `__init__`, that `__init__`
ends by setting `self.global_var_supply = GlobalVarSupply()`, and the method passes
`self.global_var_supply`: every call one object makes shares one supply.
"""

import re
from dataclasses import dataclass

import libcst as cst

from lintgv.fixing.python_calls import PyFile
from lintgv.lines import LineIndex
from lintgv.model import Edit, Span
from lintgv.parsing.names import dotted
from lintgv.parsing.walk import descendants

ATTRIBUTE = "global_var_supply"
NEW_SUPPLY = "GlobalVarSupply()"
_PLAIN = frozenset({"staticmethod", "classmethod"})
# Class and static methods without a decorator.
_IMPLICIT = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})
_ATTRIBUTE_USE = re.compile(rf"\.\s*{ATTRIBUTE}\b")


@dataclass(frozen=True)
class Member:
    """The attribute a class is given: its key (one per class), what a method passes,
    and the edit that sets it in `__init__`."""

    key: int
    passed: str
    edit: Edit


def member_for(file: PyFile, method: cst.FunctionDef) -> Member | None:
    """Return the attribute `method` can pass, or None when it is no instance method of
    a module-level class whose `__init__` (of its own, with no `return`, not the caller
    itself) can set one; a class with `__slots__` or that uses the attribute already
    gets none."""
    body = file.parent_of(method)
    owner = file.parent_of(body) if body is not None else None
    if not isinstance(owner, cst.ClassDef) or not isinstance(file.parent_of(owner), cst.Module):
        return None
    receiver = _receiver(method)
    if receiver is None or method.name.value == "__init__":
        return None
    init = next(
        (
            s
            for s in owner.body.body
            if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"
        ),
        None,
    )
    if init is None or not isinstance(init.body, cst.IndentedBlock) or _receiver(init) is None:
        return None
    code = file.module.code_for_node(owner)
    if _returns(init) or _has_slots(owner) or _ATTRIBUTE_USE.search(code):
        return None
    last = init.body.body[-1]
    start = file.span_of(init.body.body[0])
    index = LineIndex(file.text)
    line_start = index.offset(start.start_line, 0)
    indent = file.text[line_start : index.offset(start.start_line, start.start_col)]
    line = file.span_of(last).end_line + 1
    if line > len(index):
        return None  # the file ends inside __init__, without a line break
    newline = "\r\n" if "\r\n" in file.text else "\n"
    text = f"{indent}{_receiver(init)}.{ATTRIBUTE} = {NEW_SUPPLY}{newline}"
    return Member(id(owner), f"{receiver}.{ATTRIBUTE}", Edit(Span(line, 0, line, 0), text, ""))


def _receiver(function: cst.FunctionDef) -> str | None:
    """Return the name of an instance method's first parameter (`self`)."""
    if function.name.value in _IMPLICIT or any(
        dotted(d.decorator) in _PLAIN for d in function.decorators
    ):
        return None
    params = function.params.posonly_params or function.params.params
    return params[0].name.value if params else None


def _returns(function: cst.FunctionDef) -> bool:
    return any(isinstance(node, cst.Return) for node in descendants(function.body))


def _has_slots(owner: cst.ClassDef) -> bool:
    for statement in owner.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets = small.targets if isinstance(small, cst.Assign) else []
                if any(dotted(t.target) == "__slots__" for t in targets):
                    return True
                if isinstance(small, cst.AnnAssign) and dotted(small.target) == "__slots__":
                    return True
    return False
