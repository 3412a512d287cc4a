"""Inline uniquing loops in Python (GV204): while a name is taken, append a counter or
ask again, in a function that is not itself a unique-name helper (GV201 reports those).

Two shapes, each asking a dict, a set or a module whether a name is taken:
- the condition asks about a variable and the body rebuilds it from a counter, or asks a
  naming function again: `while name in used: name = f"{hint}_{i}"`,
  `while name in mod: name = self.get_unique_name(hint)`; or it asks about a sum whose
  suffix the body rebuilds: `while name + suffix in used: suffix = f"_{i}"`;
- an endless or counting loop builds a candidate and leaves when it is free:
  `for i in itertools.count(1): c = f"{hint}_{i}"; if c not in used: break`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lintgv.helpers.python_text import LOOKUPS, is_built, is_number_text
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.names import dotted
from lintgv.parsing.walk import descendants
from lintgv.records import frozen

_ASKS = re.compile(r"name|unique|fresh", re.IGNORECASE)
COUNTING = frozenset({"range", "count", "itertools.count"})
_MODULES = frozenset({"mod", "module", "ir_module", "irmodule"})


@frozen
class InlineLoop:
    """A loop that makes a name unique by hand."""

    node: cst.While | cst.For
    variable: str  # the variable that ends up holding the name
    base: str  # the name a supply should be asked for
    container: str  # what is asked whether the name is taken
    module: bool  # the container is an IRModule: the names are GlobalVar names


def inline_loop(node: cst.While | cst.For) -> InlineLoop | None:
    """Return the loop as an inline uniquing loop, or None when it is not one."""
    if isinstance(node, cst.While):
        for asked, container in _taken_checks(node.test, taken=True):
            variable = dotted(asked)
            if variable is None and is_built(asked):
                # The condition builds the candidate: `while f"{hint}_{i}" in used: i += 1`.
                return _found(node, "", asked, container)
            value = _rebuilt(node.body, variable) if variable is not None else None
            if variable is not None and value is not None:
                return _found(node, variable, value, container)
            base = _suffixed(node.body, asked)
            if base is not None:
                last = container.rsplit(".", 1)[-1].lower().strip("_")
                return InlineLoop(node, "", base, container, last in _MODULES)
        if not _is_endless(node.test):
            return None
    elif not _is_counting(node.iter):
        return None
    return _leaves_when_free(node)


def _found(
    node: cst.While | cst.For, variable: str, value: cst.BaseExpression, container: str
) -> InlineLoop:
    last = container.rsplit(".", 1)[-1].lower().strip("_")
    return InlineLoop(node, variable, _base(value, variable), container, last in _MODULES)


def _taken_checks(
    test: cst.BaseExpression, taken: bool
) -> Iterator[tuple[cst.BaseExpression, str]]:
    """Yield (asked, container) for each question in `test` that is true when the name
    is `taken` (`v in c`, `c.get(v)`) or, when not, when it is free (`v not in c`,
    `not c.get(v)`)."""
    if isinstance(test, cst.BooleanOperation):
        yield from _taken_checks(test.left, taken)
        yield from _taken_checks(test.right, taken)
    elif isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        yield from _taken_checks(test.expression, not taken)
    elif isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        operator = test.comparisons[0].operator
        container = dotted(test.comparisons[0].comparator)
        if isinstance(operator, cst.In if taken else cst.NotIn) and container:
            yield test.left, container
    elif isinstance(test, cst.Call) and taken:
        func = test.func
        if isinstance(func, cst.Attribute) and func.attr.value in LOOKUPS and test.args:
            container = dotted(func.value)
            if container:
                yield test.args[0].value, container


def _rebuilt(body: cst.BaseSuite, variable: str) -> cst.BaseExpression | None:
    """Return the value the loop body gives `variable`: a name built from a counter, or one
    asked of a naming function again (a retry); None when it gives none."""
    for node in descendants(body):
        if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda):
            continue
        if isinstance(node, cst.Assign) and any(dotted(t.target) == variable for t in node.targets):
            if is_built(node.value) or _is_retry(node.value):
                return node.value
        elif (
            isinstance(node, cst.AugAssign)
            and dotted(node.target) == variable
            and isinstance(node.operator, cst.AddAssign)
            and (
                is_number_text(node.value)
                or is_built(node.value)
                or isinstance(node.value, cst.SimpleString)  # `name += "_"` until free
            )
        ):
            return node.value
    return None


def _suffixed(body: cst.BaseSuite, asked: cst.BaseExpression) -> str | None:
    """Return the base name when the condition asks about a sum one of whose terms the
    body rebuilds from a counter (`while name + suffix in used:` with `i += 1` and
    `suffix = f"_{i}"` in the body): the sum without that term, as written."""
    terms = _terms(asked)
    if len(terms) < 2:
        return None
    for term in terms:
        variable = dotted(term)
        if variable is not None and _numbers(body, variable):
            # Writes a node's code alone (for a message: `"_".join(parts)`, `stem.upper()`).
            code = cst.Module(body=[]).code_for_node
            return " + ".join(code(t).strip() for t in terms if t is not term)
    return None


def _numbers(body: cst.BaseSuite, variable: str) -> bool:
    """Tell whether the loop body gives `variable` a counter it bumps, as text, alone or
    after a constant (`i += 1` and `suffix = "_" + str(i)` or `f"_{i}"`): a suffix, where
    a whole name would need more. A random, hashed or timed suffix is no counter."""
    bumped = _bumped(body)
    for node in descendants(body):
        if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Lambda):
            continue
        if isinstance(node, cst.Assign) and any(dotted(t.target) == variable for t in node.targets):
            texts = [t for t in _terms(node.value) if is_number_text(t)]
            return any(
                isinstance(n, cst.Name | cst.Attribute) and (dotted(n) or "") in bumped
                for t in texts
                for n in descendants(t)
            )
    return _rebuilt(body, variable) is not None


def _bumped(body: cst.BaseSuite) -> set[str]:
    """Return the names the loop body adds a number to (`i += 1`, `i = i + 1`)."""
    found: set[str] = set()
    for node in descendants(body):
        if (
            isinstance(node, cst.AugAssign)
            and isinstance(node.operator, cst.AddAssign)
            and isinstance(node.value, cst.Integer)
        ):
            found.add(dotted(node.target) or "")
        elif isinstance(node, cst.Assign) and isinstance(node.value, cst.BinaryOperation):
            value = node.value
            target = dotted(node.targets[0].target)
            if (
                isinstance(value.operator, cst.Add)
                and target is not None
                and dotted(value.left) == target
                and isinstance(value.right, cst.Integer)
            ):
                found.add(target)
    found.discard("")
    return found


def _terms(node: cst.BaseExpression) -> list[cst.BaseExpression]:
    """Return the terms of a `+` sum, left to right (one term for anything else)."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return [*_terms(node.left), *_terms(node.right)]
    return [node]


def _is_retry(value: cst.BaseExpression) -> bool:
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    name = func.value if isinstance(func, cst.Name) else ""
    if isinstance(func, cst.Attribute):
        name = func.attr.value
    return bool(_ASKS.search(name))


def _is_endless(test: cst.BaseExpression) -> bool:
    return (isinstance(test, cst.Name) and test.value == "True") or (
        isinstance(test, cst.Integer) and test.value == "1"
    )


def _is_counting(iterable: cst.BaseExpression) -> bool:
    return isinstance(iterable, cst.Call) and dotted(iterable.func) in COUNTING


def _leaves_when_free(node: cst.While | cst.For) -> InlineLoop | None:
    """A loop that builds a candidate, then leaves when no container has it."""
    body = node.body
    statements = list(body.body) if isinstance(body, cst.IndentedBlock) else [body]
    built: dict[str, cst.BaseExpression] = {}
    for statement in statements:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign) and is_built(small.value):
                    for target in small.targets:
                        if (name := dotted(target.target)) is not None:
                            built[name] = small.value
        elif isinstance(statement, cst.If) and built and _leaves(statement.body):
            for asked, container in _taken_checks(statement.test, taken=False):
                variable = dotted(asked)
                if variable is not None and variable in built:
                    return _found(node, variable, built[variable], container)
    return None


def _leaves(body: cst.BaseSuite) -> bool:
    return any(isinstance(n, cst.Break | cst.Return) for n in descendants(body))


def _base(value: cst.BaseExpression, variable: str) -> str:
    """Return the name the candidate is built from: the first name in the built value that
    is not the loop's own variable or its counter (`hint` in `f"{hint}_{i}"`)."""
    if isinstance(value, cst.Call) and _is_retry(value) and value.args:
        return dotted(value.args[0].value) or variable
    parts: list[cst.BaseExpression] = []
    if isinstance(value, cst.FormattedString):
        parts = [p.expression for p in value.parts if isinstance(p, cst.FormattedStringExpression)]
    elif isinstance(value, cst.BinaryOperation):
        parts = [value.left, value.right]
    elif isinstance(value, cst.Call):
        parts = [a.value for a in value.args]
    for part in parts:
        name = dotted(part)
        if name is not None and name != variable:
            return name
        if isinstance(part, cst.BinaryOperation | cst.FormattedString):
            inner = _base(part, variable)
            if inner != variable:
                return inner
    return variable
