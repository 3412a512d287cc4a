"""How Python code asks whether a value is taken, and builds a name from a counter.

Lookups: `x in used`, `names.get(x)`, `names.count(x)`. Counter-appends: `x + str(i)`,
`f"{x}_{i}"`, `"%s_%d" % (x, i)`, `"{}_{}".format(x, i)`, `"_".join([x, str(i)])`,
`x += str(i)`; not a constant numbered (`"arg_" + str(i)`) nor a random suffix.
"""

from __future__ import annotations

import re

from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.names import dotted

LOOKUPS = frozenset({"count", "get", "contains", "__contains__", "has_key"})
NUMBER_TEXT = frozenset({"str", "repr", "format"})
_PERCENT = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdir]")
MAX_PARTS = 8


def _string_value(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        return node.value
    if isinstance(node, cst.ConcatenatedString):
        left, right = _string_value(node.left), _string_value(node.right)
        return (left or "") + (right or "")
    return None


def is_number_text(node: cst.BaseExpression) -> bool:
    """Tell whether `node` turns a counter into text: str(i), f"_{i}", "_%d" % i, ...
    (not a random number: that makes a key unlikely to clash, not a name unique)."""
    if _is_random(node):
        return False
    if isinstance(node, cst.Call):
        if isinstance(node.func, cst.Name) and node.func.value in NUMBER_TEXT:
            return True
        return _is_format_call(node, 1)
    if isinstance(node, cst.FormattedString):
        return any(isinstance(p, cst.FormattedStringExpression) for p in node.parts)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        return _string_value(node.left) is not None
    return False


def _is_format_call(call: cst.Call, fields: int) -> bool:
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "format":
        return False
    text = _string_value(func.value)
    return text is not None and (text.count("{") >= fields or len(call.args) >= fields)


def _is_random(node: cst.BaseExpression) -> bool:
    """Tell whether text is made from a random number (`str(random.random())`)."""
    if isinstance(node, cst.FormattedString):
        values = [p.expression for p in node.parts if isinstance(p, cst.FormattedStringExpression)]
    elif isinstance(node, cst.Call):
        values = [node.func, *(a.value for a in node.args)]
    else:
        return False
    for value in values:
        if isinstance(value, cst.Call):
            value = value.func
        if "rand" in (dotted(value) or "").lower():
            return True
    return False


def _operands(node: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """Return the terms of a sum, or None for a long one (a name and a counter take few;
    flattening every link of a long chain would cost its length squared)."""
    parts: list[cst.BaseExpression] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.BinaryOperation) and isinstance(current.operator, cst.Add):
            stack += [current.right, current.left]
            if len(stack) + len(parts) > MAX_PARTS:
                return None
        else:
            parts.append(current)
    return parts


def is_built(node: cst.BaseExpression) -> bool:
    """Tell whether `node` makes a name with a counter appended (`"arg_" + str(i)` numbers
    a constant, so it is not one)."""
    if isinstance(node, cst.FormattedString):
        fields = [p for p in node.parts if isinstance(p, cst.FormattedStringExpression)]
        return len(fields) >= 2 and not _is_random(node)
    if isinstance(node, cst.BinaryOperation):
        if isinstance(node.operator, cst.Add):
            parts = _operands(node)
            if parts is None:
                return False
            return any(is_number_text(p) or is_built(p) for p in parts) and any(
                _string_value(p) is None and not is_number_text(p) for p in parts
            )
        if isinstance(node.operator, cst.Modulo):
            text = _string_value(node.left)
            return text is not None and len(_PERCENT.findall(text)) >= 2
    if isinstance(node, cst.Call):
        if _is_format_call(node, 2):
            return True
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "join" and node.args:
            items = node.args[0].value
            if isinstance(items, cst.List | cst.Tuple) and len(items.elements) >= 2:
                return any(is_number_text(e.value) for e in items.elements)
    return False


def is_lookup(node: cst.Comparison | cst.Call) -> bool:
    """Tell whether `node` asks a map or set about a value (`x in m`, `m.get(x)`)."""
    if isinstance(node, cst.Comparison):
        return isinstance(node.comparisons[0].operator, cst.In | cst.NotIn)
    func = node.func
    return isinstance(func, cst.Attribute) and func.attr.value in LOOKUPS and bool(node.args)


def may_build(node: cst.CSTNode) -> bool:
    """Tell whether `node` builds a name from a counter (a cheap first look for a function)."""
    if isinstance(node, cst.AugAssign):
        return isinstance(node.operator, cst.AddAssign) and (
            is_number_text(node.value) or is_built(node.value)
        )
    return isinstance(node, cst.BaseExpression) and is_built(node)
