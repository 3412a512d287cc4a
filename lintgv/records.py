"""Record classes: standard dataclasses, made in a fraction of the time.

Python 3.11 and 3.12's `dataclasses.dataclass` compiles every method it adds with an `exec`
of its own: six for a frozen class, about 70 microseconds each. A check imports about sixty record
classes, so they cost about 30 ms of a one-file run's 150 ms. `frozen` and `mutable` make
the same classes with one compile each, for `__init__`; equality, hashing, ordering, `repr`
and frozenness are functions shared by every class, over the fields that take part.

What stays standard: the class is a dataclass (`dataclasses.fields`, `replace`, `is_dataclass`
and `__match_args__` work), its fields are declared with `dataclasses.field`, `__eq__` and
`__hash__` give the values the standard ones give, and type checkers read the decorators
through `dataclass_transform`. What a record does not support, it refuses when the class is
made: `__post_init__`, `InitVar`, keyword-only and `init=False` fields.

The reference runtime (lintgv/runtime) keeps standard dataclasses: it is stdlib-only by design.
"""

from __future__ import annotations

import dataclasses
import inspect
import operator
import reprlib
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")

# Marks the classes this module made, and whether they are frozen, so that a subclass
# cannot quietly change what its base promises (the standard decorator refuses that too).
_FROZEN = "__record_frozen__"


@overload
def frozen(cls: type[_T], /) -> type[_T]: ...
@overload
def frozen(*, order: bool = False) -> Callable[[type[_T]], type[_T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen(
    cls: type[_T] | None = None, /, *, order: bool = False
) -> type[_T] | Callable[[type[_T]], type[_T]]:
    """`@dataclass(frozen=True)`, or with `order=True` `@dataclass(frozen=True, order=True)`."""
    if cls is None:
        return lambda c: _make(c, frozen=True, order=order)
    return _make(cls, frozen=True, order=order)


@dataclass_transform(field_specifiers=(dataclasses.field,))
def mutable(cls: type[_T], /) -> type[_T]:
    """`@dataclass`: assignable fields, equal by value, not hashable."""
    return _make(cls, frozen=False, order=False)


def _make(cls: type[_T], *, frozen: bool, order: bool) -> type[_T]:
    _refuse_unsupported(cls, frozen)
    # Fields, defaults, `fields()` and `replace()` come from the standard decorator; with
    # these switches it compiles nothing. It would also write the signature into an
    # undocumented class's docstring, with inspect.signature; the placeholder keeps it from
    # that, and the class keeps no docstring, as a plain class does.
    doc = cls.__dict__.get("__doc__")
    if doc is None:
        cls.__doc__ = "-"
    dataclasses.dataclass(cls, init=False, repr=False, eq=False)
    cls.__doc__ = doc
    every = dataclasses.fields(cls)  # type: ignore[arg-type]
    _refuse_unsupported_fields(cls, every)
    compared = _values([f.name for f in every if f.compare])
    hashed = _values([f.name for f in every if (f.compare if f.hash is None else f.hash)])
    own = cls.__dict__
    _add(cls, "__init__", _init(cls, every, frozen))
    _add(cls, "__repr__", _repr([f.name for f in every if f.repr]))
    _add(cls, "__eq__", _equal(compared))
    if order:
        for name in ("__lt__", "__le__", "__gt__", "__ge__"):
            if name in own:
                raise TypeError(f"{cls.__name__} defines {name}, which order=True would add")
            setattr(cls, name, _compare(compared, getattr(operator, name.strip("_"))))
    # As the standard decorator does: a class body that defines __eq__ gets __hash__ = None
    # implicitly, which is not a choice of its own.
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    if not explicit_hash:
        cls.__hash__ = _hash(hashed) if frozen else None  # type: ignore[assignment]
    if frozen:
        _add(cls, "__setattr__", _frozen_setattr)
        _add(cls, "__delattr__", _frozen_delattr)
    setattr(cls, _FROZEN, frozen)
    return cls


def _refuse_unsupported(cls: type, frozen: bool) -> None:
    if "__post_init__" in cls.__dict__:
        raise TypeError(f"{cls.__name__}: records do not call __post_init__")
    for base in cls.__mro__[1:]:
        if base.__dict__.get(_FROZEN, frozen) != frozen:
            kind = "frozen" if frozen else "mutable"
            raise TypeError(f"{cls.__name__}: a {kind} record cannot derive from {base.__name__}")


def _refuse_unsupported_fields(cls: type, every: tuple[dataclasses.Field[Any], ...]) -> None:
    for f in every:
        if not f.init or f.kw_only is True:
            raise TypeError(f"{cls.__name__}.{f.name}: records take every field in __init__")
        if f.name == "self":
            raise TypeError(f"{cls.__name__}: a field may not be called self")
    # Annotations may be strings (PEP 563); the standard decorator reads them by name too.
    initvars = [
        name for name, hint in inspect.get_annotations(cls).items() if "InitVar" in str(hint)
    ]
    if initvars:
        raise TypeError(f"{cls.__name__}.{initvars[0]}: records do not take InitVar fields")


def _add(cls: type, name: str, value: object) -> None:
    if name not in cls.__dict__:
        setattr(cls, name, value)


def _init(cls: type, every: tuple[dataclasses.Field[Any], ...], frozen: bool) -> object:
    """Compile `__init__`, the one method that is worth its compile: it runs per object."""
    names: dict[str, object] = {"_missing": dataclasses.MISSING, "_set": object.__setattr__}
    params = []
    body = []
    for f in every:
        value = f.name
        if f.default is not dataclasses.MISSING:
            names[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            names[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_missing")
            value = f"_factory_{f.name}() if {f.name} is _missing else {f.name}"
        else:
            params.append(f.name)
        body.append(f"_set(self, {f.name!r}, {value})" if frozen else f"self.{f.name} = {value}")
    source = "def __init__(self, {}):\n    {}\n".format(
        ", ".join(params), "\n    ".join(body or ["pass"])
    )
    exec(source, names)  # the source is built above from field names only
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    return init


def _values(names: list[str]) -> Callable[[object], tuple[Any, ...]]:
    """The tuple of the named fields, as the standard methods build it."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _equal(values: Callable[[object], tuple[Any, ...]]) -> object:
    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _compare(
    values: Callable[[object], tuple[Any, ...]],
    test: Callable[[tuple[Any, ...], tuple[Any, ...]], bool],
) -> object:
    def method(self: object, other: object) -> object:
        if other.__class__ is self.__class__:
            return test(values(self), values(other))
        return NotImplemented

    return method


def _hash(values: Callable[[object], tuple[Any, ...]]) -> object:
    def __hash__(self: object) -> int:
        return hash(values(self))

    return __hash__


def _repr(names: list[str]) -> object:
    @reprlib.recursive_repr()
    def __repr__(self: object) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _frozen_setattr(self: object, name: str, value: object) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: object, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
