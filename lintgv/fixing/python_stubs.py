"""A Python function's declaration in its module's stub (`passes.pyi` beside `passes.py`),
for supply threading (fixing/threading_python.py): the stub gets the same parameter as
the function, so the one declaration must be found, and a stub that declares it more
than once, inside a block, or with GlobalVarSupply bound to something else stops the
change.

Apart from the threader (fixing/python_threader.py) because a stub is read by rules of
its own: no call in it is followed, only its declarations and its imports.
"""

import re
from collections.abc import Sequence

from lintgv.fixing.python_calls import PyFile, Target
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.walk import descendants

_SUPPLY_NAME = re.compile(r"\bGlobalVarSupply\b")
_SUPPLY_IMPORT = re.compile(
    r"^from\s+tvm\.ir\.supply\s+import\s+[^\n]*\bGlobalVarSupply\b(?!\s+as\b)", re.MULTILINE
)


def stub_declaration(
    file: PyFile | str, target: Target
) -> tuple[PyFile, cst.FunctionDef] | str | None:
    """Return the one declaration of `target` in its module's stub, as loaded into `file`
    (None when the stub does not declare it), or why the stub stops the change."""
    if isinstance(file, str):
        return f"{file}, so its declaration of {target.name} is unknown"
    path = file.path
    body: Sequence[cst.CSTNode] = file.module.body
    scope: cst.CSTNode = file.module
    if target.cls is not None:
        classes = [
            c for c in body if isinstance(c, cst.ClassDef) and c.name.value == target.cls.name.value
        ]
        if len(classes) != 1:
            return None if not classes else f"{path.name} defines {target.cls.name.value} twice"
        scope = classes[0]
        inner = classes[0].body
        body = inner.body if isinstance(inner, cst.IndentedBlock) else []
    found = [d for d in body if isinstance(d, cst.FunctionDef) and d.name.value == target.name]
    if len(found) > 1:
        return f"{path.name} declares {target.name} {len(found)} times (overloads)"
    anywhere = [
        d
        for d in descendants(scope)
        if isinstance(d, cst.FunctionDef) and d.name.value == target.name
    ]
    if len(anywhere) > len(found):
        # `if TYPE_CHECKING:` or a version test: a declaration the change would miss.
        return f"{path.name} declares {target.name} inside a block"
    if found and _SUPPLY_NAME.search(file.text) and not _SUPPLY_IMPORT.search(file.text):
        return f"{path.name} gives the name GlobalVarSupply to something else"
    return (file, found[0]) if found else None
