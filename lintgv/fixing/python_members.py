"""A supply kept as an attribute, for Python supply threading (fixing/threading_python.py).

As in C++ (fixing/cpp_members.py): where a caller with no supply to pass is a method of
a module-level class with an `__init__` of its own, that `__init__` begins by setting
`self.global_var_supply = GlobalVarSupply()`, and the method passes
`self.global_var_supply`: every call one object makes shares one supply.
"""

import re
from collections.abc import Callable
from pathlib import Path

from lintgv.fixing.python_calls import PyFile
from lintgv.helpers.python_shape import is_docstring
from lintgv.lines import LineIndex
from lintgv.model import Edit, Span
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.names import dotted
from lintgv.parsing.walk import descendants
from lintgv.records import frozen

ATTRIBUTE = "global_var_supply"
NEW_SUPPLY = "GlobalVarSupply()"
_PLAIN = frozenset({"staticmethod", "classmethod"})
# Class and static methods without a decorator.
_IMPLICIT = frozenset({"__new__", "__init_subclass__", "__class_getitem__"})
_ATTRIBUTE_USE = re.compile(rf"\.\s*{ATTRIBUTE}\b")


@frozen
class Member:
    """The attribute a class is given: its key (one per class), what a method passes,
    and the edit that sets it in `__init__`."""

    key: int
    passed: str
    edit: Edit | None  # None: `__init__` sets it already (a change before)


def member_for(
    file: PyFile, method: cst.FunctionDef, users: Callable[[re.Pattern[str]], list[Path]]
) -> Member | None:
    """Return the attribute `method` can pass, or None when it is no instance method of
    a module-level class that can keep one; `users` gives the project's files whose text
    matches a pattern. The attribute is set first in the class's own `__init__` (its
    last definition; no `return`), before anything there can call a method that passes
    it. None for a decorated class (a frozen or slotted dataclass forbids new
    attributes), one with `__slots__` or its own `__setattr__`, one a project class
    derives from (its `__init__` need not call this one), a method whose name the class
    body binds again (`f = staticmethod(f)`), or when the project uses the attribute
    otherwise."""
    body = file.parent_of(method)
    owner = file.parent_of(body) if body is not None else None
    if not isinstance(owner, cst.ClassDef) or not isinstance(file.parent_of(owner), cst.Module):
        return None
    receiver = _receiver(method)
    name = method.name.value
    if receiver is None or name == "__init__" or owner.decorators or _assigns(owner, name):
        return None
    if _assigns(owner, "__slots__") or _defines(owner, "__setattr__"):
        return None
    inits = [
        s for s in owner.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"
    ]
    init = inits[-1] if inits else None
    if init is None or init.decorators or not isinstance(init.body, cst.IndentedBlock):
        return None
    own = _receiver(init)
    if own is None or _returns(init):
        return None
    passed = f"{receiver}.{ATTRIBUTE}"
    setting = f"{own}.{ATTRIBUTE} = {NEW_SUPPLY}"
    statements = list(init.body.body)
    if statements and file.code_for(statements[0]).strip() == setting:
        return Member(id(owner), passed, None)  # set by a change before
    code = file.code_for(owner)
    if _ATTRIBUTE_USE.search(code) or _used_elsewhere(file, owner, users):
        return None
    if is_docstring(statements[0]):
        statements = statements[1:]
    index = LineIndex(file.text)
    newline = "\r\n" if "\r\n" in file.text else "\n"
    if statements:
        where = file.span_of(statements[0])
        line = where.start_line
        indent = file.text[index.offset(line, 0) : index.offset(line, where.start_col)]
    else:  # a docstring alone
        where = file.span_of(init.body.body[0])
        line = where.end_line + 1
        first = where.start_line
        indent = file.text[index.offset(first, 0) : index.offset(first, where.start_col)]
        if line > len(index):
            return None  # the file ends inside __init__, without a line break
    text = f"{indent}{setting}{newline}"
    return Member(id(owner), passed, Edit(Span(line, 0, line, 0), text, ""))


def _used_elsewhere(
    file: PyFile, owner: cst.ClassDef, users: Callable[[re.Pattern[str]], list[Path]]
) -> bool:
    """Tell whether a class derives from `owner`, or code outside it uses the attribute,
    anywhere in the project."""
    derived = re.compile(rf"\bclass\s+\w+\s*\([^)]*\b{re.escape(owner.name.value)}\b")
    if users(derived):
        return True
    # The class itself does not use it (looked at before): any use in its file is outside.
    return bool(users(_ATTRIBUTE_USE)) or _ATTRIBUTE_USE.search(file.text) is not None


def _assigns(owner: cst.ClassDef, name: str) -> bool:
    """Tell whether the class body assigns `name` (`__slots__ = ...`, `f = staticmethod(f)`)."""
    for statement in owner.body.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else []
            if isinstance(small, cst.AnnAssign):
                targets = [small.target]
            if any(dotted(t) == name for t in targets):
                return True
    return False


def _defines(owner: cst.ClassDef, name: str) -> bool:
    return any(isinstance(s, cst.FunctionDef) and s.name.value == name for s in owner.body.body)


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
