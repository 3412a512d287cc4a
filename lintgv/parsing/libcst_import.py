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

Nor does a check need all of libcst's package. Its `__init__` imports its metadata
providers (and subprocess, json and urllib with them), its helpers, its batched visitors
and its pure-Python parser's tokenizer, none of which a parse or a rule uses: a third of
the import's time and 2 MiB of each process that parses Python. So `load` makes the
package itself, imports only the modules of its errors and nodes and the native parser,
and binds on the package the names its `__init__` binds from those modules (read from
the `__init__`'s own imports, so a release that moves a name moves it here too): what
the native parser looks up on the package, and what `libcst_lazy` gives lintgv. The rest
of the package is imported on the first lookup of a name it lacks (`complete` does it on
purpose: the Python unique-name codemod reads libcst's metadata). If the package is laid
out otherwise (its `__init__` binds none of these names, a module moved), libcst is
imported whole, as it is.
"""

# No `from __future__ import annotations` here: `compile` and `exec` called from this
# module would hand its flags to the methods they make, and dataclasses' own have none.
import ast
import dataclasses
import importlib
import importlib.util
import sys
import threading
from functools import cache
from types import CodeType, ModuleType
from typing import Any

# Reentrant: a name looked up on the package while its `__init__` runs (see complete)
# comes back to it in the same thread: that must end in an error, not hang.
_LOCK = threading.RLock()

# What a parse and the rules need of libcst, in an order that imports: the node modules
# of libcst 1.5 on take CSTLogicError from the package itself, so the errors come first.
_PARSING_MODULES = (
    "libcst._exceptions",
    "libcst._flatten_sentinel",
    "libcst._maybe_sentinel",
    "libcst._removal_sentinel",
    "libcst._nodes.base",
    "libcst._nodes.whitespace",
    "libcst._nodes.op",
    "libcst._nodes.expression",
    "libcst._nodes.statement",
    "libcst._nodes.module",
)


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
    """Import libcst's errors, nodes and native parser (once per process) and return its
    package (see above)."""
    with _LOCK:
        if "libcst" in sys.modules:
            import libcst  # another thread's import of it may still be running: wait

            return libcst
        if not hasattr(dataclasses, "_create_fn"):
            return _import_parsing()
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
            return _import_parsing()
        finally:
            dataclasses._process_class = process_class  # type: ignore[attr-defined]
            dataclasses._create_fn = create_fn
            del dataclasses.exec  # type: ignore[attr-defined]


def parsing_names() -> frozenset[str]:
    """The names `load` binds on libcst's package (see above): those lintgv may use."""
    return frozenset(alias for bound in _bound_names().values() for _, alias in bound)


def complete() -> ModuleType:
    """Return libcst's package with everything its `__init__` binds, importing the rest
    of it now if `load` left it out."""
    libcst = load()
    with _LOCK:
        hook = vars(libcst).get("__getattr__")
        if getattr(hook, "__module__", None) != __name__:
            return libcst  # imported whole, or completed already
        spec = libcst.__spec__
        assert spec is not None and spec.loader is not None
        # The hook stays while the `__init__` runs: another thread that looks a name up
        # meanwhile waits for the lock above, then finds it.
        spec.loader.exec_module(libcst)
        del libcst.__getattr__
    return libcst


@cache
def _bound_names() -> dict[str, list[tuple[str, str]]]:
    """Return, for each of _PARSING_MODULES, the (name, alias) pairs that libcst's
    `__init__` imports from it, read from its source without running it."""
    spec = importlib.util.find_spec("libcst")
    source = spec.loader.get_source("libcst") if spec and spec.loader else None  # type: ignore[attr-defined]
    bound: dict[str, list[tuple[str, str]]] = {}
    for statement in ast.parse(source or "").body:
        if isinstance(statement, ast.ImportFrom) and statement.module in _PARSING_MODULES:
            bound.setdefault(statement.module, []).extend(
                (alias.name, alias.asname or alias.name) for alias in statement.names
            )
    return bound


def _import_parsing() -> ModuleType:
    """Import libcst's errors, nodes and native parser under a package of their own
    making (see above), or libcst whole if it is laid out otherwise."""
    bound = _bound_names()
    spec = importlib.util.find_spec("libcst")
    if not bound.get("libcst._exceptions") or spec is None:
        import libcst

        return libcst
    package = importlib.util.module_from_spec(spec)
    sys.modules["libcst"] = package
    try:
        for name in _PARSING_MODULES:
            module = importlib.import_module(name)
            for attribute, alias in bound.get(name, ()):
                setattr(package, alias, getattr(module, attribute))
        importlib.import_module("libcst.native")
    except (ImportError, AttributeError):
        for name in [n for n in sys.modules if n.partition(".")[0] == "libcst"]:
            del sys.modules[name]
        import libcst

        return libcst

    def __getattr__(name: str) -> object:
        return getattr(complete(), name)

    package.__getattr__ = __getattr__  # type: ignore[method-assign]
    return package
