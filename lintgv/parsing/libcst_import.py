"""libcst's import, without the compiling that dataclasses would throw away or repeat.

Importing libcst builds its 200 node classes with `@dataclass`, and dataclasses compiles
each class's methods from generated source text: about 980 compiles on CPython 3.11,
half of the whole import. Most of them are never needed:
- `CSTNode.__init_subclass__` gives every node class libcst's own `__repr__` and
  `__eq__` before `@dataclass` runs. dataclasses never replaces a method the class
  defines, but it compiles its own first and then drops it: two methods in five.
- A frozen class gets a `__setattr__` and a `__delattr__` that refuse a change to a
  field. Nothing changes a libcst node in place (its `__init__` sets its fields through
  `object.__setattr__`), so they are hardly ever called. Another two in five.
- Node classes with the same fields get the same text, compiled again for each class.

So while `load` imports libcst, dataclasses (where it still compiles one method at a
time: CPython 3.11 and 3.12) skips a `__repr__` or `__eq__` that the class it is
processing already defines, compiles a frozen class's `__setattr__` and `__delattr__`
when first called, and compiles each distinct text once: 180 compiles instead of 980,
and the import takes 0.056 s instead of 0.086 (CPython 3.11).
tests/test_private_apis.py holds this to a plain import: each method of each of
libcst's dataclasses has the same code, flags, annotations and values to close over, and
each class the same signature and docstring. A deferred method has the compiled one's
name, signature, module and answers; only its code and an extra frame in a traceback
tell it apart. A dataclass made by another thread meanwhile is made as it is. Where
dataclasses is built otherwise, libcst is imported as it is.
"""

# No `from __future__ import annotations` here: `compile` and `exec` called from this
# module would hand its flags to the methods they make, and dataclasses' own have none.
import dataclasses
import sys
import threading
from types import CodeType, ModuleType
from typing import Any

_LOCK = threading.Lock()


def _dropped(*args: object, **kwargs: object) -> None:
    """Stands in for a method dataclasses drops; it fails loudly if ever kept."""
    raise AssertionError("dataclasses kept a method that its class already defined")


def _deferred(create_fn: Any, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Return the `__setattr__` or `__delattr__` that `create_fn(method, *args, **kwargs)`
    makes, compiled when first called."""
    made: list[Any] = []

    def compiled() -> Any:
        if not made:  # two threads may both compile it: either result will do
            made.append(create_fn(method, *args, **kwargs))
        return made[0]

    # The parameters of dataclasses' own, so that a call by keyword binds as it would.
    def __setattr__(self: object, name: str, value: object) -> None:
        compiled()(self, name, value)

    def __delattr__(self: object, name: str) -> None:
        compiled()(self, name)

    deferred = __setattr__ if method == "__setattr__" else __delattr__
    deferred.__annotations__ = {}
    deferred.__module__ = (kwargs.get("globals") or {}).get("__name__")  # type: ignore[assignment]
    return deferred


def load() -> ModuleType:
    """Import libcst (once per process) and return it."""
    with _LOCK:
        if "libcst" in sys.modules or not hasattr(dataclasses, "_create_fn"):
            import libcst  # another thread's import of it may still be running: wait

            return libcst
        # Only this thread's classes are made differently: another thread's dataclass,
        # made meanwhile, goes through dataclasses as it is.
        loading = threading.get_ident()
        processing: list[type] = []  # the classes `@dataclass` is making, innermost last
        compiled: dict[str, CodeType] = {}
        process_class = dataclasses._process_class  # type: ignore[attr-defined]
        create_fn = dataclasses._create_fn

        def process(cls: type, *args: Any) -> type:
            if threading.get_ident() != loading:
                return process_class(cls, *args)  # type: ignore[no-any-return]
            processing.append(cls)
            try:
                return process_class(cls, *args)  # type: ignore[no-any-return]
            finally:
                processing.pop()

        def create(name: str, *args: Any, **kwargs: Any) -> object:
            if threading.get_ident() != loading:
                return create_fn(name, *args, **kwargs)
            if name in ("__repr__", "__eq__") and name in processing[-1].__dict__:
                return _dropped
            if name in ("__setattr__", "__delattr__"):
                return _deferred(create_fn, name, args, kwargs)
            return create_fn(name, *args, **kwargs)

        def exec_once(source: str | CodeType, *args: Any) -> None:
            if isinstance(source, str):
                mine = threading.get_ident() == loading
                code = compiled.get(source) if mine else None
                if code is None:
                    code = compile(source, "<string>", "exec", dont_inherit=True)
                    if mine:
                        compiled[source] = code
                source = code
            exec(source, *args)

        dataclasses._process_class = process  # type: ignore[attr-defined]
        dataclasses._create_fn = create
        dataclasses.exec = exec_once  # type: ignore[attr-defined]
        try:
            import libcst
        finally:
            dataclasses._process_class = process_class  # type: ignore[attr-defined]
            dataclasses._create_fn = create_fn
            del dataclasses.exec  # type: ignore[attr-defined]
        return libcst
