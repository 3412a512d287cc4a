"""Building blocks of the unique-name rewrites: the edits of one change by file, the
nodes to look at, and the map operations every kind of copy rewrites the same way."""

from collections.abc import Iterable
from pathlib import Path

import tree_sitter

from lintgv.codemods.unique_name_copies import Unit
from lintgv.model import Edit
from lintgv.parsing.cpp import ParsedCpp


class Edits:
    """The edits of one change, file by file."""

    def __init__(self) -> None:
        self.by_path: dict[Path, list[Edit]] = {}

    def add(self, unit: Unit, edit: Edit) -> None:
        self.by_path.setdefault(unit.path, []).append(edit)


def nodes_of(root: tree_sitter.Node, *types: str) -> Iterable[tree_sitter.Node]:
    """Yield the nodes of `types` under `root`, in source order."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in types:
            yield node
        stack.extend(reversed(node.children))


def where(unit: Unit, node: tree_sitter.Node) -> str:
    """Return `path:line` of `node`, for messages."""
    return f"{unit.path}:{node.start_point[0] + 1}"


def map_call_edit(
    parsed: ParsedCpp, target: tree_sitter.Node, supply: str, kind: str
) -> Edit | None:
    """Return the edit making `map.count(x)` ask `supply` (`supply->ContainsName(x)`) and
    `map.clear()` start a new one, where `target` is the map; None for any other use.
    `supply` is the supply's expression as it reads at the call (`info->name_supply_`)."""
    parent = target.parent
    method = parent.child_by_field_name("field") if parent is not None else None
    call = parent.parent if parent is not None else None
    if (
        parent is None
        or parent.type != "field_expression"
        or parent.child_by_field_name("argument") != target
        or method is None
        or call is None
        or call.type != "call_expression"
    ):
        return None
    arguments = call.child_by_field_name("arguments")
    inner = parsed.text(arguments)[1:-1] if arguments is not None else ""
    if parsed.text(method) == "count" and inner.strip():
        return parsed.replace(call, f"{supply}->ContainsName({inner})")
    if parsed.text(method) == "clear" and not inner.strip():
        return parsed.replace(call, f'{supply} = {kind}("")')
    return None
