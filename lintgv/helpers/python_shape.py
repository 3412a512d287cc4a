"""The facts that tell a Python unique-name helper apart, from one function definition:
a lookup and a counter-append (see python_text) linked by a variable or by nesting, in a
loop, by recursion, or with the counter kept in the map itself.
"""

from __future__ import annotations

from lintgv.config import Config
from lintgv.helpers.names import (
    Facts,
    Verdict,
    is_known_name,
    is_supply_method,
    judge,
)
from lintgv.helpers.python_text import (
    LOOKUPS,
    is_built,
    is_lookup,
    is_number_text,
    may_build,
)
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.names import dotted, parameter_names
from lintgv.parsing.walk import children, descendants


def called_name(call: cst.Call) -> str:
    """Return the bare name a call calls (`self.get_unique_name(x)` → get_unique_name)."""
    func = call.func
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return ""


class _Walk:
    """One pass over a function body that collects what `Facts` needs."""

    def __init__(self) -> None:
        self.built: set[int] = set()  # id() of built expressions
        self.built_nodes: list[cst.CSTNode] = []
        self.writes: list[tuple[set[str], cst.CSTNode]] = []  # names bound ← what from
        self.tests: list[tuple[cst.BaseExpression, bool, str]] = []  # tested, in loop, map
        self.assigns: list[tuple[str, cst.CSTNode]] = []
        self.calls: list[cst.Call] = []
        self.returns: list[cst.BaseExpression] = []
        self.subscripts: list[cst.Subscript] = []
        self.bumped: set[str] = set()  # maps whose counter is incremented

    def run(self, body: cst.BaseSuite) -> None:
        stack: list[tuple[cst.CSTNode, bool]] = [(body, False)]
        while stack:
            node, in_loop = stack.pop()
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                continue  # a unit of its own
            self._visit(node, in_loop)
            inner = in_loop or isinstance(node, cst.While | cst.For)
            stack.extend((child, inner) for child in reversed(children(node)))

    def _visit(self, node: cst.CSTNode, in_loop: bool) -> None:
        if isinstance(node, cst.BaseExpression) and is_built(node):
            self._build(node)
        self._write(node)
        if isinstance(node, cst.Call):
            self._call(node, in_loop)
        elif isinstance(node, cst.Comparison):
            first = node.comparisons[0]
            if isinstance(first.operator, cst.In | cst.NotIn):
                self.tests.append((node.left, in_loop, dotted(first.comparator) or ""))
        elif isinstance(node, cst.Assign):
            for target in node.targets:
                self._assign(target.target, node.value)
                if isinstance(node.value, cst.BinaryOperation) and _reads_back(
                    target.target, node.value
                ):
                    self._bump(target.target)  # m[x] = m[x] + 1, not m[x] = n // 32
        elif isinstance(node, cst.AnnAssign | cst.NamedExpr) and node.value is not None:
            self._assign(node.target, node.value)
        elif isinstance(node, cst.AugAssign) and isinstance(node.operator, cst.AddAssign):
            if is_number_text(node.value) or is_built(node.value):
                self._build(node)
                self._assign(node.target, node)
            else:
                self._bump(node.target)
        elif isinstance(node, cst.Return) and node.value is not None:
            self.returns.append(node.value)
        elif isinstance(node, cst.Subscript):
            self.subscripts.append(node)

    def _write(self, node: cst.CSTNode) -> None:
        """Note the names `node` binds and the expression they are bound from (for the
        name flow: `base, n = name, 0`, `base += name`, `for base in names`, `with f(name)
        as base`, `self.base = name`)."""
        if isinstance(node, cst.Assign):
            bound = set().union(*(_bound(t.target) for t in node.targets))
            self.writes.append((bound, node.value))
        elif isinstance(node, cst.AugAssign | cst.AnnAssign | cst.NamedExpr):
            if node.value is not None:
                self.writes.append((_bound(node.target), node.value))
        elif isinstance(node, cst.For):
            self.writes.append((_bound(node.target), node.iter))
        elif isinstance(node, cst.WithItem) and node.asname is not None:
            self.writes.append((_bound(node.asname.name), node.item))

    def _build(self, node: cst.CSTNode) -> None:
        self.built.add(id(node))
        self.built_nodes.append(node)

    def _bump(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Subscript) and (container := dotted(target.value)):
            self.bumped.add(container)

    def _assign(self, target: cst.BaseExpression, value: cst.CSTNode) -> None:
        name = dotted(target)
        if name is not None:
            self.assigns.append((name, value))

    def _call(self, node: cst.Call, in_loop: bool) -> None:
        self.calls.append(node)
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in LOOKUPS and node.args:
            self.tests.append((node.args[0].value, in_loop, dotted(func.value) or ""))


def _reads_back(target: cst.BaseExpression, value: cst.CSTNode) -> bool:
    """Tell whether `value` reads the map that `target` (`m[x]`) writes."""
    container = dotted(target.value) if isinstance(target, cst.Subscript) else None
    return container is not None and any(
        isinstance(n, cst.Subscript) and dotted(n.value) == container for n in descendants(value)
    )


def _holds(node: cst.CSTNode, ids: set[int]) -> bool:
    return any(id(n) in ids for n in descendants(node))


def _names(node: cst.CSTNode) -> set[str]:
    return {n.value for n in descendants(node) if isinstance(n, cst.Name)}


def is_self_call(call: cst.Call, name: str) -> bool:
    """Tell whether `call` calls the function `name` itself (bare, or on self/cls)."""
    func = call.func
    if isinstance(func, cst.Name):
        return func.value == name
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == name
        and isinstance(func.value, cst.Name)
        and func.value.value in ("self", "cls")
    )


class FunctionScan:
    """Cheap flags for each open function, set during the traversal all rules share.

    Only a function that both looks a value up and builds a name from a counter (or has
    a helper's name) gets its body walked for the full facts.
    """

    def __init__(self) -> None:
        self._open: list[list[bool]] = []

    def enter(self) -> None:
        self._open.append([False, False])

    def see(self, node: cst.CSTNode) -> None:
        """Note what `node` does for the innermost open function."""
        if not self._open:
            return
        flags = self._open[-1]
        if isinstance(node, cst.Comparison | cst.Call) and is_lookup(node):
            flags[0] = True
        if not flags[1] and may_build(node):
            flags[1] = True

    def leave(self, function: cst.FunctionDef, config: Config) -> Verdict | None:
        """Close the innermost function and judge it."""
        looks_up, builds = self._open.pop()
        name = function.name.value
        if not (looks_up and builds) and not is_known_name(name, config):
            return None
        return judge(name, facts_of(function, config, nested=bool(self._open)), config)


def facts_of(function: cst.FunctionDef, config: Config, nested: bool = False) -> Facts:
    """Return the uniquing facts of one function definition (`nested` in another)."""
    name = function.name.value
    walk = _Walk()
    walk.run(function.body)
    facts = Facts(has_test=bool(walk.tests), has_built=bool(walk.built))
    built_vars = _built_variables(walk)
    for tested, in_loop, _ in walk.tests:
        linked = _holds(tested, walk.built) or dotted(tested) in built_vars
        facts.linked_test_in_loop |= linked and in_loop
    # Recursion uniques a name only when the call's answer is what the function returns,
    # directly (`return unique(name + "_1")`) or through a variable (`name = unique(...)`
    # and `return name`): a function that names the parts of a value recursively
    # returns the value.
    values: list[cst.CSTNode] = list(walk.returns)
    returned_names: set[str] = set()
    while True:
        names = {n for value in values for n in _names(value)}
        if names <= returned_names:
            break
        returned_names |= names
        values = [*walk.returns, *(v for bound, v in walk.writes if bound & returned_names)]
    returned = {id(n) for value in values for n in descendants(value)}
    for call in walk.calls:
        facts.calls_supply |= is_supply_method(called_name(call), config)
        if is_self_call(call, name):
            facts.self_call = True
            facts.self_call_built |= id(call) in returned and any(
                _holds(a.value, walk.built) or bool(_names(a.value) & built_vars) for a in call.args
            )
    tested_names = {t for tested, _, _ in walk.tests if (t := dotted(tested)) is not None}
    # A counter kept in the map that was asked, and incremented here.
    keepers = {m for _, _, m in walk.tests if m} & walk.bumped
    counters = {id(s) for s in walk.subscripts if dotted(s.value) in keepers}
    for value in walk.returns:
        mentions = _names(value) | ({d} if (d := dotted(value)) else set())
        holds_built = _holds(value, walk.built)
        self_made = any(
            isinstance(n, cst.Call) and is_self_call(n, name) for n in descendants(value)
        )
        facts.returns_name |= (
            holds_built or self_made or bool(mentions & (built_vars | tested_names))
        )
        facts.stored_return |= (
            holds_built and bool(mentions & tested_names) and _holds(value, counters)
        )
    facts.delegates = _delegates(function.body)
    # The name flow is followed only where it decides something (see cpp_facts.facts_of).
    facts.from_input = (
        facts.shape() is not None and facts.returns_name and _from_input(function, walk, nested)
    )
    return facts


def _from_input(function: cst.FunctionDef, walk: _Walk, nested: bool) -> bool:
    """Tell whether a name the function builds comes from its input: a parameter other
    than `self` or `cls`, a name bound from one (see _Walk._write), or, in a function
    nested in another, a name it does not bind itself (the enclosing one's)."""
    tainted = set(parameter_names(function.params)) - {"self", "cls"}
    if nested:
        bound = set().union(*(targets for targets, _ in walk.writes)) | tainted
        tainted |= {n for node in walk.built_nodes for n in _names(node)} - bound
    changed = bool(tainted)
    while changed:
        changed = False
        for targets, value in walk.writes:
            if not targets <= tainted and not tainted.isdisjoint(_names(value)):
                tainted |= targets
                changed = True
    return any(not tainted.isdisjoint(_names(node)) for node in walk.built_nodes)


def _bound(target: cst.CSTNode) -> set[str]:
    """Return the names an assignment target binds: each name of a tuple or list, and
    the attribute's own name of `self.base` (read back as `self.base`, whose words
    include `base`)."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, cst.Attribute):
        return {target.attr.value}
    if isinstance(target, cst.StarredElement):
        return _bound(target.value)
    if isinstance(target, cst.Tuple | cst.List):
        return set().union(*(_bound(e.value) for e in target.elements))
    return set()


def _built_variables(walk: _Walk) -> set[str]:
    """Return the variables that hold a built name, directly or through a copy."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for target, value in walk.assigns:
            if target in found:
                continue
            copied = isinstance(value, cst.BaseExpression) and dotted(value) in found
            if _is_built_value(value, walk.built) or copied:
                found.add(target)
                changed = True
    return found


def _is_built_value(value: cst.CSTNode, built: set[int]) -> bool:
    """Tell whether `value` is a built name, or one converted (`str(f"...")`)."""
    if id(value) in built:
        return True
    return isinstance(value, cst.Call) and len(value.args) == 1 and id(value.args[0].value) in built


def _delegates(body: cst.BaseSuite) -> bool:
    """Tell whether a body (after its docstring) returns or makes one call, or does nothing."""
    statements = list(body.body) if isinstance(body, cst.IndentedBlock) else [body]
    if statements and is_docstring(statements[0]):
        statements = statements[1:]
    if not statements or all(_does_nothing(s) for s in statements):
        return True
    if len(statements) != 1:
        return False
    line = statements[0]
    if isinstance(line, cst.SimpleStatementLine | cst.SimpleStatementSuite):
        small = line.body
    else:
        return False
    if len(small) != 1:
        return False
    value = small[0].value if isinstance(small[0], cst.Return | cst.Expr) else None
    return isinstance(value, cst.Call)


def _does_nothing(statement: cst.CSTNode) -> bool:
    """Tell whether a statement is `pass`, `...` or a `raise` (an abstract method's body)."""
    if not isinstance(statement, cst.SimpleStatementLine | cst.SimpleStatementSuite):
        return False
    return all(
        isinstance(s, cst.Pass | cst.Raise)
        or (isinstance(s, cst.Expr) and isinstance(s.value, cst.Ellipsis))
        for s in statement.body
    )


def is_docstring(statement: cst.CSTNode) -> bool:
    """Tell whether a statement is a lone string: a docstring where it comes first."""
    return (
        isinstance(statement, cst.SimpleStatementLine)
        and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, cst.SimpleString | cst.ConcatenatedString)
    )


class ScanVisits:
    """The visits both Python GV2xx rules make to feed their FunctionScan (`_scan`)."""

    _scan: FunctionScan

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self._scan.see(node)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        self._scan.see(node)

    def visit_FormattedString(self, node: cst.FormattedString) -> None:
        self._scan.see(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._scan.see(node)
