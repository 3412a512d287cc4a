"""What a dotted name in a Python file refers to, from its imports and local definitions.

libcst's QualifiedNameProvider builds full scopes and costs ten times the parse itself;
the rules only ask "does this callee resolve to tvm's GlobalVar?". Imports anywhere in the
file count (a function-level import is treated as file-wide), and a local class, function
or assignment of the same name shadows an import, as libcst would report it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import field

from lintgv.parsing import libcst_lazy as cst
from lintgv.records import mutable


def resolve_relative(name: str, module_name: str) -> str:
    """Return `name` with a leading-dot relative import resolved against `module_name`."""
    if not name.startswith(".") or not module_name:
        return name
    dots = len(name) - len(name.lstrip("."))
    package = module_name.split(".")[:-1]
    if dots > 1:
        package = package[: len(package) - (dots - 1)]
    parts = [*package, name[dots:]] if name[dots:] else package
    return ".".join(parts)


def parameter_names(params: cst.Parameters) -> list[str]:
    """Return the names of every parameter, `*args` and `**kwargs` included, in order."""
    stars = (p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param))
    every = (*params.posonly_params, *params.params, *params.kwonly_params, *stars)
    return [p.name.value for p in every]


def dotted(node: cst.BaseExpression) -> str | None:
    """Return `a.b.c` for a Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr.value}" if head is not None else None
    return None


def module_of(node: cst.BaseExpression | cst.ImportFrom) -> str:
    """Return the module an import names, leading dots of a relative one kept."""
    if isinstance(node, cst.ImportFrom):
        dots = "." * len(node.relative)
        inner = dotted(node.module) if node.module is not None else None
        return dots + (inner or "")
    return dotted(node) or ""


def _statements(body: object) -> Iterator[cst.CSTNode]:
    """Yield every statement under `body` (a module or a block), not expressions."""
    items = getattr(body, "body", ())
    if not isinstance(items, (list, tuple)):
        items = [items]
    for item in items:
        if isinstance(item, cst.SimpleStatementLine):
            yield from item.body
        elif isinstance(item, cst.Match):  # its blocks are its cases'
            yield item
            for case in item.cases:
                yield from _statements(case)
        elif isinstance(item, cst.BaseCompoundStatement):
            yield item
            yield from _statements(item.body)
            for extra in ("orelse", "handlers", "finalbody"):
                branch = getattr(item, extra, None)
                if isinstance(branch, (list, tuple)):
                    for handler in branch:
                        yield from _statements(handler.body)
                elif branch is not None:
                    yield from _statements(branch.body if hasattr(branch, "body") else branch)
        elif isinstance(item, cst.BaseSuite):
            yield from _statements(item)


# A package path ending in a `tvm` module: `mypkg.tvm` is TVM re-exported.
_REEXPORTED_TVM = re.compile(r"^(?:\w+\.)+tvm$")


@mutable
class NameTable:
    """Bound names of one file: imported (to their dotted targets) and local."""

    imports: dict[str, set[str]] = field(default_factory=dict)
    local: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, module: cst.Module, module_name: str) -> NameTable:
        """Collect the names `module` binds."""
        table = cls()
        for statement in _statements(module):
            table._add(statement, module_name)
        return table

    def _bind(self, name: str, target: str) -> None:
        self.imports.setdefault(name, set()).add(target)

    def _add(self, statement: cst.CSTNode, module_name: str) -> None:
        if isinstance(statement, cst.Import):
            for alias in statement.names:
                full = dotted(alias.name) or ""
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    self._bind(alias.asname.name.value, full)
                else:
                    head = full.split(".")[0]
                    self._bind(head, head)
        elif isinstance(statement, cst.ImportFrom) and not isinstance(
            statement.names, cst.ImportStar
        ):
            base = resolve_relative(module_of(statement), module_name)
            for alias in statement.names:
                name = dotted(alias.name) or ""
                bound = name
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    bound = alias.asname.name.value
                self._bind(bound, f"{base}.{name}" if base else name)
        elif isinstance(statement, cst.ClassDef | cst.FunctionDef):
            self.local.add(statement.name.value)
        elif isinstance(statement, cst.Assign):
            source = dotted(statement.value)
            for target in statement.targets:
                if isinstance(target.target, cst.Name):
                    name = target.target.value
                    resolved = self.resolve_dotted(source) if source else set()
                    if resolved:
                        self.imports.setdefault(name, set()).update(resolved)
                    else:
                        self.local.add(name)

    def resolve_dotted(self, name: str) -> set[str]:
        """Return what the dotted `name` may refer to (empty when unknown)."""
        head, _, rest = name.partition(".")
        results = set()
        for target in self.imports.get(head, ()):
            # `from mypkg import tvm`: a package that re-exports TVM hands out TVM itself.
            target = _REEXPORTED_TVM.sub("tvm", target)
            results.add(f"{target}.{rest}" if rest else target)
        if head in self.local:
            results.add(name)
        return results

    def qualified_names(self, node: cst.BaseExpression) -> set[str]:
        """Return the dotted names `node` may refer to."""
        name = dotted(node)
        return self.resolve_dotted(name) if name is not None else set()
