"""lintgv.records against the standard dataclasses: every class is made twice from the
same body, once by each, and the two must behave alike: construction, defaults, equality,
hashes (the values themselves, so that no set or dict orders differently), ordering, repr,
frozenness, replace, fields, pickling. What records do not support is refused when the
class is made."""

import abc
import dataclasses
import pickle
from collections.abc import Callable
from dataclasses import FrozenInstanceError, InitVar, field
from typing import Any

import pytest

from lintgv import records

Maker = Callable[[type], type]

# Each body is made into a class by a standard decorator and by its record counterpart.
PAIRS: list[tuple[str, Maker, Maker]] = [
    ("frozen", dataclasses.dataclass(frozen=True), records.frozen),
    (
        "frozen-ordered",
        dataclasses.dataclass(frozen=True, order=True),
        records.frozen(order=True),
    ),
    ("mutable", dataclasses.dataclass, records.mutable),
]


def bodies() -> dict[str, Callable[[], type]]:
    """Fresh undecorated classes, one per shape the project's records take."""

    class Empty:
        pass

    class One:
        line: int

    class Point:
        line: int
        column: int
        label: str = "x"

    class Factories:
        name: str
        parts: tuple[str, ...] = ()
        seen: frozenset[str] = field(default_factory=frozenset)
        table: dict[str, int] = field(default_factory=dict)

    class Hidden:
        code: str
        memo: object = field(default=None, compare=False)
        secret: str = field(default="s", repr=False)

    class Nested:
        point: Any
        items: tuple[Any, ...] = ()

    return {
        "Empty": Empty,
        "One": One,
        "Point": Point,
        "Factories": Factories,
        "Hidden": Hidden,
        "Nested": Nested,
    }


ARGS: dict[str, list[tuple[Any, ...]]] = {
    "Empty": [()],
    "One": [(1,), (2,), (-7,)],
    "Point": [(1, 2), (1, 2, "y"), (2, 1), (1, 3, "a")],
    "Factories": [("a",), ("a", ("p", "q")), ("b", (), frozenset({"z"}), {"k": 1})],
    "Hidden": [("GV101",), ("GV101", object()), ("GV102", None, "t")],
    "Nested": [((1, 2),), ((1, 2), ((3,), "four")), ("p",)],
}

CASES = [
    pytest.param(kind, standard, record, name, id=f"{kind}-{name}")
    for kind, standard, record in PAIRS
    for name in bodies()
]


def outcome(method: Callable[..., Any], *args: object) -> object:
    """A call's result, or the type of what it raised (a dict field is unhashable, a tuple
    and a str do not order)."""
    try:
        return method(*args)
    except TypeError as error:
        return type(error)


def both(standard: Maker, record: Maker, name: str) -> tuple[type, type]:
    return standard(bodies()[name]), record(bodies()[name])


@pytest.mark.parametrize(("kind", "standard", "record", "name"), CASES)
def test_a_record_behaves_as_the_standard_dataclass(
    kind: str, standard: Maker, record: Maker, name: str
) -> None:
    s_cls, r_cls = both(standard, record, name)
    assert dataclasses.is_dataclass(r_cls)
    assert [(f.name, f.compare, f.repr) for f in dataclasses.fields(r_cls)] == [
        (f.name, f.compare, f.repr) for f in dataclasses.fields(s_cls)
    ]
    assert r_cls.__match_args__ == s_cls.__match_args__  # type: ignore[attr-defined]
    made = [(s_cls(*a), r_cls(*a)) for a in ARGS[name]]
    for s, r in made:
        assert vars(r) == vars(s)
        assert repr(r) == repr(s)
        fresh = dataclasses.replace(r)
        assert fresh == r and fresh is not r
        if kind == "mutable":
            assert r_cls.__hash__ is None
            with pytest.raises(TypeError):
                hash(r)
        else:
            assert outcome(hash, r) == outcome(hash, s)
            with pytest.raises(FrozenInstanceError):
                r.extra = 1  # type: ignore[attr-defined]
            with pytest.raises(FrozenInstanceError):
                del r.__dict__  # type: ignore[attr-defined]
    for s1, r1 in made:
        for s2, r2 in made:
            assert (r1 == r2) is (s1 == s2)
            assert (r1 != r2) is (s1 != s2)
            if kind == "frozen-ordered":
                for test in ("__lt__", "__le__", "__gt__", "__ge__"):
                    assert outcome(getattr(r1, test), r2) == outcome(getattr(s1, test), s2)
    # A record equals no object of another class, even one with the same fields.
    other_cls = record(bodies()[name])
    first = ARGS[name][0]
    assert r_cls(*first) != other_cls(*first)
    assert r_cls(*first).__eq__(s_cls(*first)) is NotImplemented


@records.frozen
class Pickled:
    """Workers send records back to the parent pickled."""

    name: str
    parts: tuple[int, ...] = ()
    memo: object = field(default=None, compare=False)


@records.mutable
class PickledMutable:
    name: str
    table: dict[str, int] = field(default_factory=dict)


@pytest.mark.parametrize(
    "value", [Pickled("a"), Pickled("b", (1, 2), "memo"), PickledMutable("c", {"k": 1})]
)
def test_a_record_survives_pickling(value: object) -> None:
    back = pickle.loads(pickle.dumps(value))
    assert back == value and vars(back) == vars(value)


def test_an_undocumented_record_keeps_no_docstring() -> None:
    cls = records.frozen(bodies()["Point"])
    assert cls.__doc__ is None
    assert Pickled.__doc__ == "Workers send records back to the parent pickled."


def test_factories_make_a_fresh_value_per_object() -> None:
    cls = records.mutable(bodies()["Factories"])
    first, second = cls("a"), cls("a")
    first.table["k"] = 1
    assert second.table == {}


def test_a_missing_argument_is_a_type_error() -> None:
    cls = records.frozen(bodies()["Point"])
    with pytest.raises(TypeError, match="column"):
        cls(1)


def test_a_mutable_record_assigns() -> None:
    cls = records.mutable(bodies()["Point"])
    point = cls(1, 2)
    point.label = "moved"
    assert point == cls(1, 2, "moved")


def test_methods_a_class_defines_are_kept() -> None:
    @records.frozen
    class Own:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Own) and other.name.lower() == self.name.lower()

    assert repr(Own("A")) == "<A>"
    assert Own("A") == Own("a")
    # As the standard decorator does: defining __eq__ does not make a frozen record unhashable.
    assert hash(Own("A")) == hash(("A",))


def test_a_recursive_repr_ends() -> None:
    @records.mutable
    class Node:
        children: list[Any]

    node = Node([])
    node.children.append(node)
    assert repr(node) == "test_a_recursive_repr_ends.<locals>.Node(children=[...])"


def refused_post_init() -> type:
    class Checked:
        name: str

        def __post_init__(self) -> None:
            pass

    return Checked


def refused_init_var() -> type:
    class Carried:
        name: str
        hint: InitVar[int]

    return Carried


def refused_keyword() -> type:
    class Keyword:
        name: str = field(kw_only=True)

    return Keyword


def refused_not_in_init() -> type:
    class Derived:
        name: str = field(init=False, default="x")

    return Derived


def refused_self() -> type:
    return type("Selfish", (), {"__annotations__": {"self": int}})


def refused_own_name() -> type:
    return type("Shadow", (), {"__annotations__": {"__record_set__": int}})


def refused_inherited_post_init() -> type:
    class Checks:
        def __post_init__(self) -> None:
            pass

    class Checked(Checks):
        name: str

    return Checked


def refused_aliased_init_var() -> type:
    # A string annotation the standard decorator resolves through the module's names.
    return type("Aliased", (), {"__annotations__": {"name": "str", "hint": "IV[int]"}, "hint": 0})


def refused_default_order() -> type:
    class Misordered:
        name: str = "x"
        line: int

    return Misordered


def refused_own_setattr() -> type:
    class Guarded:
        name: str

        def __setattr__(self, name: str, value: object) -> None:
            pass

    return Guarded


def refused_mutable_base() -> type:
    @dataclasses.dataclass
    class Base:
        name: str

    class Child(Base):
        line: int = 0

    return Child


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (refused_post_init, "do not call __post_init__"),
        (refused_init_var, "do not take InitVar"),
        (refused_keyword, "take every field in __init__"),
        (refused_not_in_init, "take every field in __init__"),
        (refused_self, "may not be called self"),
        (refused_own_name, "may not be called __record_set__"),
        (refused_inherited_post_init, "do not call __post_init__"),
        (refused_aliased_init_var, "do not take InitVar"),
        (refused_default_order, "field 'line' without a default follows 'name'"),
        (refused_own_setattr, "defines __setattr__"),
        (refused_mutable_base, "frozen record cannot derive from Base"),
    ],
)
def test_what_records_do_not_support_is_refused(body: Callable[[], type], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        records.frozen(body())


IV = InitVar  # what refused_aliased_init_var's annotation names


def test_a_literal_naming_init_var_is_a_field() -> None:
    cls = records.frozen(type("Named", (), {"__annotations__": {"kind": 'Literal["InitVar"]'}}))
    assert cls("InitVar").kind == "InitVar"


def test_explicit_hash_none_keeps_a_frozen_record_unhashable() -> None:
    @records.frozen
    class Unhashable:
        name: str
        __hash__ = None  # type: ignore[assignment]

    with pytest.raises(TypeError, match="unhashable"):
        hash(Unhashable("a"))


def test_a_factory_field_takes_any_value_passed() -> None:
    cls = records.mutable(bodies()["Factories"])
    assert cls("a", (), frozenset(), dataclasses.MISSING).table is dataclasses.MISSING


def test_a_method_a_record_adds_settles_an_abstract_one() -> None:
    class Shown(abc.ABC):
        @abc.abstractmethod
        def __repr__(self) -> str: ...

    @records.frozen
    class Point(Shown):
        line: int

    assert repr(Point(1)).endswith("Point(line=1)")


def test_a_record_keeps_its_base_frozen_or_mutable() -> None:
    @records.frozen
    class Base:
        name: str

    class Child(Base):
        extra: int

    with pytest.raises(TypeError, match="mutable record cannot derive from Base"):
        records.mutable(Child)

    @records.frozen
    class Frozen(Base):
        extra: int = 0

    assert Frozen("a", 1) == Frozen("a", 1)
    assert [f.name for f in dataclasses.fields(Frozen)] == ["name", "extra"]


def test_order_refuses_a_comparison_the_class_defines() -> None:
    class Ordered:
        name: str

        def __lt__(self, other: object) -> bool:
            return True

    with pytest.raises(TypeError, match="defines __lt__"):
        records.frozen(order=True)(Ordered)
