"""The rules' walk calls the same methods on the same nodes, in the same order, as
libcst's visit_batched."""

from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper

from lintgv.parsing.python import parse_python
from lintgv.parsing.walk import children, descendants, parents, trivia, walk

SOURCE = """
import tvm
from tvm.ir import GlobalVar as GV
@decorate(1)
class A(B, metaclass=M):
    x: int = 1
    async def f(self, a, /, b=2, *c, d, **e) -> "T":
        async with s as t, u:
            [y async for y in z if y]
        try:
            return GV(f"{a!r:>{b}}") if a else lambda q: (q, *c)
        except* E:
            pass
    def g(self):
        match self:
            case {"k": [1, *rest]} | Point(x=0):
                del rest[0], a.b
            case _:
                global q
                yield from h()
"""


class _Recorder(cst.BatchableCSTVisitor):
    """Records every visit_ and leave_ call it gets, for the node types in SOURCE."""

    def __init__(self, kinds: list[str]) -> None:
        super().__init__()
        self.calls: list[tuple[str, int]] = []
        self.kinds = kinds

    def get_visitors(self) -> dict[str, Callable[[cst.CSTNode], None]]:
        def recorder(name: str) -> Callable[[cst.CSTNode], None]:
            return lambda node: self.calls.append((name, id(node)))

        return {
            f"{when}_{kind}": recorder(f"{when}_{kind}")
            for kind in self.kinds
            for when in ("visit", "leave")
        }


def _kinds(module: cst.Module) -> list[str]:
    found: set[str] = set()
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        found.add(type(node).__name__)
        stack.extend(children(node))
    return sorted(found)


def test_the_walk_makes_the_calls_visit_batched_makes() -> None:
    module = cst.parse_module(SOURCE)
    ours, theirs = _Recorder(_kinds(module)), _Recorder(_kinds(module))
    walk(module, [ours.get_visitors()])
    MetadataWrapper(module, unsafe_skip_copy=True).visit_batched([theirs])
    assert len(ours.calls) > 200
    assert ours.calls == theirs.calls


@pytest.mark.parametrize(
    "path", sorted((Path(__file__).parents[1] / "lintgv" / "rules").glob("*.py")), ids=str
)
def test_children_come_in_libcsts_visiting_order(path: Path) -> None:
    module = cst.parse_module(path.read_text(encoding="utf-8"))

    class Order(cst.CSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[int] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            self.seen.append(id(node))
            return True

    expected = Order()
    module.visit(expected)
    ours: list[int] = []
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        ours.append(id(node))
        stack.extend(reversed(children(node)))
    assert ours == expected.seen


def test_deep_nesting_needs_no_recursion() -> None:
    module = cst.parse_module("x = " + "-" * 5000 + "1\n")
    seen: list[cst.CSTNode] = []
    walk(module, [{"visit_UnaryOperation": seen.append}])
    assert len(seen) == 5000


def test_an_attribute_visitor_is_refused() -> None:
    with pytest.raises(ValueError, match="visit_Call_func"):
        walk(cst.parse_module("f()\n"), [{"visit_Call_func": print}])


def test_a_walk_that_skips_trivia_makes_the_same_calls_on_the_rest() -> None:
    module = cst.parse_module(SOURCE)
    kinds = [k for k in _kinds(module) if getattr(cst, k) not in trivia()]
    ours, theirs = _Recorder(kinds), _Recorder(kinds)
    walk(module, [ours.get_visitors()])
    MetadataWrapper(module, unsafe_skip_copy=True).visit_batched([theirs])
    assert ours.calls == theirs.calls


def test_every_node_has_its_parent_after_a_walk_that_skipped_trivia() -> None:
    parsed = parse_python(SOURCE)
    parsed.walk([_Recorder(["Call"]).get_visitors()])
    expected = parents(parsed.module)
    skipped = [n for n in descendants(parsed.module) if type(n) in trivia()]
    assert skipped, "SOURCE has trivia"
    # A rule may ask about a comma (an edit that removes an argument with it).
    for node in [*skipped, *descendants(parsed.module)]:
        assert parsed.parent_of(node) is expected.get(id(node))
