"""Record classes: standard dataclasses, made in a fraction of the time.

Python 3.11 and 3.12's `dataclasses.dataclass` compiles every method it adds with an
`exec` of its own: six for a frozen class, about 70 microseconds each. A check imports
about sixty record classes, so they cost about 30 ms of a one-file run's 150 ms. `frozen`
and `mutable` make the same classes with one compile each, for `__init__`; equality,
hashing, ordering, `repr` and frozenness are functions shared by every class, over the
fields that take part.

What stays standard: the class is a dataclass (`dataclasses.fields`, `replace`,
`is_dataclass` and `__match_args__` work), its fields are declared with
`dataclasses.field`, `__eq__` and `__hash__` give the values the standard ones give, and
type checkers read the decorators through `dataclass_transform`. What a record does not
support, it refuses when the class is made: `__post_init__`, `InitVar`, keyword-only and
`init=False` fields, a frozen record's own `__setattr__`, a base dataclass frozen where the
record is not or the other way round. Differences that remain: an undocumented record has
no docstring (the standard one holds the signature); `__dataclass_params__` says what the
standard decorator was asked for (no methods), so derive records from records, not with
`dataclasses.dataclass` (ruff's banned-api keeps it out of lintgv and the server); any
subclass of a frozen record is frozen too.

The reference runtime (lintgv/runtime) keeps standard dataclasses: it is stdlib-only by
design.
"""

from __future__ import annotations

import abc
import dataclasses
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
    # Taken before any method is added: whether the class body defines them.
    own = set(cls.__dict__)
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
    _add(cls, own, "__init__", _init(cls, every, frozen))
    _add(cls, own, "__repr__", _repr([f.name for f in every if f.repr]))
    _add(cls, own, "__eq__", _compare(compared, operator.eq))
    if order:
        for name in ("__lt__", "__le__", "__gt__", "__ge__"):
            if name in own:
                raise TypeError(f"{cls.__name__} defines {name}, which order=True would add")
            setattr(cls, name, _compare(compared, getattr(operator, name.strip("_"))))
    # As the standard decorator does: a class body that defines __eq__ gets __hash__ = None
    # implicitly, which is not a choice of its own; `__hash__ = None` alone is one.
    explicit_hash = "__hash__" in own and not (cls.__dict__["__hash__"] is None and "__eq__" in own)
    if not explicit_hash:
        cls.__hash__ = _hash(hashed) if frozen else None  # type: ignore[assignment]
    if frozen:
        for name, method in (("__setattr__", _frozen_setattr), ("__delattr__", _frozen_delattr)):
            if name in own:
                raise TypeError(f"{cls.__name__} defines {name}, which a frozen record replaces")
            setattr(cls, name, method)
    setattr(cls, _FROZEN, frozen)
    # Methods added above may implement abstract ones (the standard decorator does this too).
    abc.update_abstractmethods(cls)
    return cls


def _refuse_unsupported(cls: type, frozen: bool) -> None:
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: records do not call __post_init__")
    kind = "frozen" if frozen else "mutable"
    for base in cls.__mro__[1:]:
        if _FROZEN in base.__dict__:
            base_frozen = base.__dict__[_FROZEN]
        elif "__dataclass_params__" in base.__dict__:
            base_frozen = base.__dict__["__dataclass_params__"].frozen
        else:
            continue
        if base_frozen != frozen:
            raise TypeError(f"{cls.__name__}: a {kind} record cannot derive from {base.__name__}")


# The standard decorator's own mark for an InitVar pseudo-field (it reads string
# annotations too); private, but the same from Python 3.7 to 3.14.
_INITVAR = getattr(dataclasses, "_FIELD_INITVAR", None)


def _refuse_unsupported_fields(cls: type, every: tuple[dataclasses.Field[Any], ...]) -> None:
    defaulted = None
    for f in every:
        if not f.init or f.kw_only is True:
            raise TypeError(f"{cls.__name__}.{f.name}: records take every field in __init__")
        if f.name == "self" or f.name.startswith("__record_"):
            raise TypeError(f"{cls.__name__}: a field may not be called {f.name}")
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
            defaulted = f.name
        elif defaulted is not None:
            raise TypeError(
                f"{cls.__name__}: field {f.name!r} without a default follows {defaulted!r}"
            )
    pseudo = cls.__dict__["__dataclass_fields__"].values()
    initvars = [f.name for f in pseudo if f._field_type is _INITVAR]
    if initvars:
        raise TypeError(f"{cls.__name__}.{initvars[0]}: records do not take InitVar fields")


def _add(cls: type, own: set[str], name: str, value: object) -> None:
    if name not in own:
        setattr(cls, name, value)


class _Missing:
    """No argument given for a field with a default factory (a private marker: a caller
    may pass dataclasses.MISSING as a value)."""


_MISSING = _Missing()


def _init(cls: type, every: tuple[dataclasses.Field[Any], ...], frozen: bool) -> object:
    """Compile `__init__`, the one method that is worth its compile: it runs per object.
    The names it uses besides the fields' start with `__record_`, which no field may."""
    names: dict[str, object] = {
        "__record_missing__": _MISSING,
        "__record_set__": object.__setattr__,
    }
    params = []
    body = []
    for f in every:
        value = f.name
        if f.default is not dataclasses.MISSING:
            names[f"__record_default_{f.name}__"] = f.default
            params.append(f"{f.name}=__record_default_{f.name}__")
        elif f.default_factory is not dataclasses.MISSING:
            names[f"__record_factory_{f.name}__"] = f.default_factory
            params.append(f"{f.name}=__record_missing__")
            value = f"__record_factory_{f.name}__() if {f.name} is __record_missing__ else {f.name}"
        else:
            params.append(f.name)
        if frozen:
            body.append(f"__record_set__(self, {f.name!r}, {value})")
        else:
            body.append(f"self.{f.name} = {value}")
    source = "def __init__(self, {}):\n    {}\n".format(
        ", ".join(params), "\n    ".join(body or ["pass"])
    )
    exec(source, names)  # the source is built above from field names only
    init: Any = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = {f.name: f.type for f in every} | {"return": None}
    return init


def _values(names: list[str]) -> Callable[[object], tuple[Any, ...]]:
    """The tuple of the named fields, as the standard methods build it."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _compare(
    values: Callable[[object], tuple[Any, ...]],
    test: Callable[[tuple[Any, ...], tuple[Any, ...]], bool],
) -> object:
    """`__eq__` or an ordering: `test` of the two records' field tuples, for records of
    one class."""

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
