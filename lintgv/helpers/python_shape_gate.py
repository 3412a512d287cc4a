"""Whether Python code may hold what the shape rules find, read from CPython's ast before
libcst is asked: a function that both looks a name up and builds one (what GV201 and
GV203 judge by structure, see python_shape.FunctionScan), or a loop that may unique a
name inline (GV204, see python_loops.inline_loop).

The shape triggers are loose by design (a `while` with an f-string in its first lines,
a `return` of a call with `+ 1` in it), so most code they match holds no shape: on TVM
v0.16 they had libcst parse 52 files in which no rule found anything, and on mlc-llm
they were all that imported libcst (9 files, none with a finding). CPython parses the
same lines about six times faster, and comes with the interpreter.

The gate is a necessary condition, never narrower than the rules: each test here is the
rule's own, or a looser one where the two trees differ (ast merges `f"{a}" "b"` into one
f-string, decodes escapes, has no Name node for an attribute) or where being exact would
copy more of the rule (whether the name comes from the function's input, whether a
recursion returns its call, the order of a loop's statements). When it says no, the
rules would have found nothing; when it says yes, they run as before. A helper's known
name is a trigger of its own, not a shape's: the engine asks the gate only when the shape
triggers alone matched.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

from lintgv.helpers.python_loops import COUNTING
from lintgv.helpers.python_text import LOOKUPS, MAX_PARTS, NUMBER_TEXT
from lintgv.parsing.python_ast import arguments

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def may_hold_shapes(tree: ast.AST) -> bool:
    """Tell whether the shape rules may find something in `tree`."""
    return _some_function_may_unique(tree) or any(
        _may_be_inline_loop(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.While | ast.For | ast.AsyncFor)
    )


def _some_function_may_unique(tree: ast.AST) -> bool:
    """Tell whether some function may be a unique-name helper by its structure: it both
    looks a value up and builds a name, each node counted for the innermost function
    around it (FunctionScan's cheap flags), and its body may have a uniquing shape and
    return the name (_may_be_helper)."""
    flags: dict[int, list[bool]] = {}
    functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    stack: list[tuple[ast.AST, int | None]] = [(tree, None)]
    while stack:
        node, owner = stack.pop()
        if isinstance(node, _FUNCTIONS):
            owner = id(node)
            flags[owner] = [False, False]
            functions.append(node)
        elif owner is not None:
            held = flags[owner]
            held[0] = held[0] or _is_lookup(node)
            held[1] = held[1] or _may_build(node)
        stack.extend((child, owner) for child in ast.iter_child_nodes(node))
    return any(all(flags[id(f)]) and _may_be_helper(f) for f in functions)


class _Body:
    """What python_shape.facts_of reads of one function body, or more: its own nodes,
    not those of a function, class or lambda in it."""

    def __init__(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.built: set[int] = set()  # id() of nodes that may build a name
        self.tests: list[tuple[ast.AST, bool, str]] = []  # tested, in a loop, container
        self.assigns: list[tuple[str, ast.AST]] = []
        self.returns: list[ast.AST] = []
        self.calls: list[ast.Call] = []
        self.bumped: set[str] = set()  # containers a value is added to
        stack: list[tuple[ast.AST, bool]] = [(s, False) for s in function.body]
        while stack:
            node, in_loop = stack.pop()
            if isinstance(node, (*_FUNCTIONS, ast.ClassDef, ast.Lambda)):
                continue
            self._see(node, in_loop)
            inner = in_loop or isinstance(node, ast.While | ast.For | ast.AsyncFor)
            stack.extend((child, inner) for child in ast.iter_child_nodes(node))

    def _see(self, node: ast.AST, in_loop: bool) -> None:
        if _may_be_built(node):
            self.built.add(id(node))
        if isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.In | ast.NotIn):
            self.tests.append((node.left, in_loop, _dotted(node.comparators[0]) or ""))
        elif isinstance(node, ast.Call):
            self.calls.append(node)
            if _is_lookup_call(node):
                assert isinstance(node.func, ast.Attribute)
                self.tests.append((_first(node), in_loop, _dotted(node.func.value) or ""))
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                self._assign(target, node.value)
                if isinstance(node.value, ast.BinOp):
                    self._bump(target)
        elif isinstance(node, ast.AnnAssign | ast.NamedExpr) and node.value is not None:
            self._assign(node.target, node.value)
        elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
            if _may_build(node):
                self.built.add(id(node))
                self._assign(node.target, node)
            self._bump(node.target)
        elif isinstance(node, ast.Return) and node.value is not None:
            self.returns.append(node.value)

    def _assign(self, target: ast.AST, value: ast.AST) -> None:
        name = _dotted(target)
        if name is not None:
            self.assigns.append((name, value))

    def _bump(self, target: ast.AST) -> None:
        if isinstance(target, ast.Subscript) and (container := _dotted(target.value)):
            self.bumped.add(container)

    def holds_built(self, node: ast.AST) -> bool:
        return any(id(n) in self.built for n in ast.walk(node))

    def built_variables(self) -> set[str]:
        """python_shape._built_variables: the variables that hold a built name,
        directly, converted (`str(f"...")`) or through a copy, followed copy by copy
        (a pass over every assignment per variable found is quadratic in a long chain)."""
        found: set[str] = set()
        copies: dict[str, list[str]] = {}  # a variable -> those assigned a copy of it
        work: list[str] = []
        for target, value in self.assigns:
            converted = (
                isinstance(value, ast.Call)
                and len(value.args) + len(value.keywords) == 1
                and any(id(a) in self.built for a in arguments(value))
            )
            if id(value) in self.built or converted:
                if target not in found:
                    found.add(target)
                    work.append(target)
            elif (source := _dotted(value)) is not None:
                copies.setdefault(source, []).append(target)
        while work:
            for target in copies.get(work.pop(), ()):
                if target not in found:
                    found.add(target)
                    work.append(target)
        return found


def _may_be_helper(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """python_shape.facts_of's `shape() and returns_name`, or looser: whether the name
    comes from the function's input, and whether the recursion's call is what it
    returns, are not asked."""
    body = _Body(function)
    if not body.tests:
        return False  # every shape looks a name up
    variables = body.built_variables()
    linked_in_loop = any(
        in_loop and (body.holds_built(tested) or _dotted(tested) in variables)
        for tested, in_loop, _ in body.tests
    )
    calls_itself = any(_calls(call, function.name) for call in body.calls)
    keepers = {container for _, _, container in body.tests if container} & body.bumped
    stored = bool(keepers) and any(body.holds_built(value) for value in body.returns)
    if not (linked_in_loop or calls_itself or stored):
        return False
    tested = {name for t, _, _ in body.tests if (name := _dotted(t)) is not None}
    return any(
        body.holds_built(value)
        or any(isinstance(n, ast.Call) and _calls(n, function.name) for n in ast.walk(value))
        or not _words(value).isdisjoint(variables | tested)
        for value in body.returns
    )


def _calls(call: ast.Call, name: str) -> bool:
    """python_shape.is_self_call: a call of `name` itself, bare or on self or cls."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == name
    return (
        isinstance(func, ast.Attribute)
        and func.attr == name
        and isinstance(func.value, ast.Name)
        and func.value.id in ("self", "cls")
    )


def _words(node: ast.AST) -> set[str]:
    """Return the names a value mentions as libcst sees them: every name, an
    attribute's own name and a keyword's too (libcst makes each a Name node), and the
    whole dotted name."""
    words = {d} if (d := _dotted(node)) is not None else set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            words.add(n.id)
        elif isinstance(n, ast.Constant) and (n.value is None or isinstance(n.value, bool)):
            words.add(repr(n.value))
        elif isinstance(n, ast.Attribute):
            words.add(n.attr)
        elif isinstance(n, ast.keyword | ast.arg) and n.arg is not None:
            words.add(n.arg)
    return words


def _first(call: ast.Call) -> ast.AST:
    """Return the value of a call's first argument (it has one), as libcst reads it."""
    return arguments(call)[0]


def _dotted(node: ast.AST) -> str | None:
    """Return `a.b.c` for a Name/Attribute chain, else None; as libcst, whose `True`,
    `False` and `None` are names (python_ast.dotted follows CPython: constants)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        head = node.id
    elif isinstance(node, ast.Constant) and (node.value is None or isinstance(node.value, bool)):
        head = repr(node.value)
    else:
        return None
    return ".".join([head, *reversed(parts)])


def _is_lookup(node: ast.AST) -> bool:
    """python_text.is_lookup: `x in m`, `x not in m`, `m.get(x)`."""
    if isinstance(node, ast.Compare):
        return isinstance(node.ops[0], ast.In | ast.NotIn)
    return _is_lookup_call(node)


def _is_lookup_call(node: ast.AST) -> bool:
    func = node.func if isinstance(node, ast.Call) else None
    return (
        isinstance(node, ast.Call)
        and isinstance(func, ast.Attribute)
        and func.attr in LOOKUPS
        and bool(node.args or node.keywords)  # libcst counts keyword arguments too
    )


def _may_build(node: ast.AST) -> bool:
    """python_text.may_build, or looser."""
    if isinstance(node, ast.AugAssign):
        return isinstance(node.op, ast.Add) and (
            _may_be_number_text(node.value) or _may_be_built(node.value)
        )
    return _may_be_built(node)


def _may_be_built(node: ast.AST) -> bool:
    """python_text.is_built, or looser: any `.format` of a literal passes, however many
    fields it has."""
    if isinstance(node, ast.JoinedStr):
        # Without python_text's test for a random suffix: ast merges `f"{a}_{i}"
        # f"{rand}"` into one f-string, where libcst judges each part on its own.
        return sum(isinstance(v, ast.FormattedValue) for v in node.values) >= 2
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        terms = _terms(node)
        if terms is None:
            return True  # libcst reads none so long as built, but a looser test may say yes
        return any(_may_be_number_text(t) or _may_be_built(t) for t in terms) and any(
            not _is_literal(t) and not _is_number_text(t) for t in terms
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        # The text's `%` directives: libcst counts them in the source, where an escape
        # (`\x25`) hides one; the decoded text hides none.
        text = _literal_text(node.left)
        return text is not None and text.count("%") >= 2
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "format":
            return _literal_text(node.func.value) is not None
        if node.func.attr == "join" and (node.args or node.keywords):
            items = _first(node)
            if isinstance(items, ast.List | ast.Tuple) and len(items.elts) >= 2:
                return any(_may_be_number_text(_unstarred(e)) for e in items.elts)
    return False


def _may_be_number_text(node: ast.AST) -> bool:
    """python_text.is_number_text, or looser: str(i), f"_{i}", "_%d" % i, "{}".format(i)."""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "format":
            return _literal_text(func.value) is not None and not _is_random(_called(node))
        return _is_number_text(node)
    if isinstance(node, ast.JoinedStr):
        return any(isinstance(v, ast.FormattedValue) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _literal_text(node.left) is not None
    return False


def _is_number_text(node: ast.AST) -> bool:
    """Tell whether libcst's rules surely take `node` for a number as text: str(i) and
    the like (python_text.is_number_text, where the two trees agree)."""
    if isinstance(node, ast.Call):
        func = node.func
        return (
            isinstance(func, ast.Name) and func.id in NUMBER_TEXT and not _is_random(_called(node))
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _is_literal(node.left)
    return False


def _called(call: ast.Call) -> list[ast.AST]:
    return [call.func, *arguments(call)]


def _is_random(values: Sequence[ast.AST]) -> bool:
    """python_text._is_random: text made from a random number (`str(random.random())`)."""
    for value in values:
        if isinstance(value, ast.Call):
            value = value.func
        if "rand" in (_dotted(value) or "").lower():
            return True
    return False


def _is_literal(node: ast.AST) -> bool:
    """Tell whether libcst surely reads `node` as a string: not an f-string, which ast
    merges with the plain strings around it."""
    return isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)


def _literal_text(node: ast.AST) -> str | None:
    """Return the text of a string or bytes literal; of an f-string, its literal parts
    (libcst reads `f"{a}" "%s_%d"` as a concatenation whose plain part is a string)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
        value = node.value
        return value if isinstance(value, str) else value.decode("latin-1")
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    return None


def _terms(node: ast.AST) -> list[ast.AST] | None:
    """Return the terms of a `+` sum, left to right; None for a long one, as libcst's
    rules (flattening every link of a long chain would cost its length squared)."""
    terms: list[ast.AST] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.BinOp) and isinstance(current.op, ast.Add):
            stack += [current.right, current.left]
            if len(stack) + len(terms) > MAX_PARTS:
                return None
        else:
            terms.append(current)
    return terms


def _unstarred(node: ast.AST) -> ast.AST:
    return node.value if isinstance(node, ast.Starred) else node


def _may_be_inline_loop(node: ast.While | ast.For | ast.AsyncFor) -> bool:
    """python_loops.inline_loop, or looser: a `while` that asks whether a name is taken
    and rebuilds it, or an endless or counting loop that builds a name and leaves from
    an `if` that asks whether it is free."""
    if isinstance(node, ast.While):
        questions = list(_asked(node.test))
        if questions:
            gifts = _Gifts(node.body)
            if any(_may_rebuild(gifts, asked) for asked in questions):
                return True
        test = node.test
        if not (isinstance(test, ast.Constant) and test.value in (True, 1)):
            return False
    elif not (isinstance(node.iter, ast.Call) and _dotted(node.iter.func) in COUNTING):
        return False
    built = {
        name
        for statement in node.body
        if isinstance(statement, ast.Assign) and _may_be_built(statement.value)
        for target in statement.targets
        if (name := _dotted(target)) is not None
    }
    return any(
        isinstance(statement, ast.If)
        and any(_dotted(asked) in built for asked in _asked(statement.test))
        and any(isinstance(n, ast.Break | ast.Return) for b in statement.body for n in ast.walk(b))
        for statement in node.body
    )


def _asked(test: ast.AST) -> Iterator[ast.AST]:
    """Yield what each question in `test` asks about (`v` of `v in c`, `c.get(v)`),
    whether it asks if the name is taken or if it is free (python_loops._taken_checks,
    which tells the two apart)."""
    stack = [test]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.BoolOp):
            stack.extend(reversed(node.values))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            stack.append(node.operand)
        elif isinstance(node, ast.Compare) and len(node.ops) == 1:
            if isinstance(node.ops[0], ast.In | ast.NotIn) and _dotted(node.comparators[0]):
                yield node.left
        elif _is_lookup_call(node):
            assert isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            if _dotted(node.func.value):
                yield _first(node)


def _may_rebuild(gifts: _Gifts, asked: ast.AST) -> bool:
    """Tell whether a loop asking about `asked` may make it a new name: it is built in
    the question itself, or the body gives the variable (or a term of the sum) asked
    about a value (python_loops._rebuilt and _suffixed, looser)."""
    if _may_be_built(asked):
        return True
    variable = _dotted(asked)
    if variable is not None:
        return variable in gifts.given
    terms = _terms(asked)
    if terms is None:
        return True
    return len(terms) >= 2 and any(_dotted(term) in gifts.assigned for term in terms)


class _Gifts:
    """What a loop's body gives its variables, read in one walk (a question asking about
    many names must not walk the body again for each)."""

    def __init__(self, body: list[ast.stmt]) -> None:
        # A built name, a function's answer, or text appended (python_loops._rebuilt).
        self.given: set[str] = set()
        # Those, and anything assigned (python_loops._numbers: a suffix rebuilt from a
        # counter the body bumps).
        self.assigned: set[str] = set()
        for node in (n for statement in body for n in ast.walk(statement)):
            if isinstance(node, ast.Assign):
                value = node.value
                gives = _may_be_built(value) or isinstance(value, ast.Call)
                for target in node.targets:
                    if (name := _dotted(target)) is not None:
                        self.assigned.add(name)
                        if gives:
                            self.given.add(name)
            elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
                value = node.value
                name = _dotted(node.target)
                if name is not None and (
                    _may_be_number_text(value)
                    or _may_be_built(value)
                    or _literal_text(value) is not None
                ):
                    self.given.add(name)
                    self.assigned.add(name)
