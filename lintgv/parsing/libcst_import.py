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
the import's time and 2 MiB of each process that parses Python. So `load` imports the
package through a loader of its own, which imports only the modules of its errors and
nodes and the native parser, and binds on the package the names its `__init__` binds
from those modules, read from the `__init__`'s own imports: what the native parser
looks up on the package, and what `libcst_lazy` gives lintgv. Any other name is
imported from its module when first looked up on the package, and `complete` runs the
`__init__` itself (the Python unique-name codemod reads libcst's metadata). Without the
`__init__`'s source, or with a module it names missing, libcst is imported whole, as it
is. An import that fails midway (an interrupt, a full table of open files) leaves no
module of libcst behind.
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
from importlib.machinery import ModuleSpec, SourceFileLoader
from types import CodeType, ModuleType
from typing import Any, cast

_LOCK = threading.Lock()

# What a parse and the rules need of libcst besides its node modules (any module under
# libcst._nodes, in whatever modules a release splits them).
_ERRORS_AND_SENTINELS = frozenset(
    {
        "libcst._exceptions",
        "libcst._flatten_sentinel",
        "libcst._maybe_sentinel",
        "libcst._removal_sentinel",
    }
)


class _Completing(threading.local):
    """Whether this thread is running libcst's `__init__` (see complete)."""

    now = False


_COMPLETING = _Completing()


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
    """The names of libcst that lintgv may use: those `load` binds for a parse (see
    above), or all of libcst's where it has no source to read them from."""
    libcst = load()
    bound = vars(libcst)  # by the package's `__init__` too, where it was imported whole
    names = frozenset(
        alias
        for module, pairs in _imports_of_init()
        if _for_parsing(module)
        for _, alias in pairs
        if alias in bound
    )
    return names or frozenset(libcst.__all__)


def complete() -> ModuleType:
    """Return libcst's package with everything its `__init__` binds, running that
    `__init__` now if `load` left it out."""
    libcst = load()
    if vars(libcst).get("__getattr__") is not _on_first_lookup:
        return libcst  # imported whole, or completed already
    # No lock: a thread holding a lock while the `__init__` imports would wait for any
    # thread importing one of libcst's modules (which holds that module's lock) that
    # then looks a name up here. Two threads may both run the `__init__`; the import
    # system gives both the same modules, and both bind the same names.
    _COMPLETING.now = True
    try:
        loader = cast(SourceFileLoader, cast(ModuleSpec, libcst.__spec__).loader)
        SourceFileLoader.exec_module(loader, libcst)  # the package's own `__init__`
    finally:
        _COMPLETING.now = False
    if vars(libcst).get("__getattr__") is _on_first_lookup:
        vars(libcst).pop("__getattr__", None)
    return libcst


def _on_first_lookup(name: str) -> object:
    """The `__getattr__` of libcst's package until `complete` has run. A name the
    package lacks is imported from the module its `__init__` takes it from, and bound;
    any other name (`__all__`) brings in the rest of the package. The `__init__` itself
    is not run for a name: another of libcst's modules, imported on its own (`import
    libcst.helpers`), looks names up while it is half made, and the `__init__` would
    import that very module again."""
    if _COMPLETING.now:  # the `__init__` is running in this thread: as in any import
        raise AttributeError(f"partially initialized module 'libcst' has no attribute {name!r}")
    source = _sources_of_names().get(name)
    if source is None:
        return getattr(complete(), name)
    value = getattr(importlib.import_module(source[0]), source[1])
    setattr(sys.modules["libcst"], name, value)
    return value


@cache
def _sources_of_names() -> dict[str, tuple[str, str]]:
    """For each name libcst's `__init__` imports, the module and the name it takes."""
    return {
        alias: (module, attribute)
        for module, pairs in _imports_of_init()
        for attribute, alias in pairs
    }


def _for_parsing(module: str) -> bool:
    """Tell whether `load` imports `module` of libcst (see _ERRORS_AND_SENTINELS)."""
    return module in _ERRORS_AND_SENTINELS or module.startswith("libcst._nodes.")


@cache
def _installed() -> ModuleSpec | None:
    """Return the spec of the libcst package as installed (looked up once: before `load`
    has imported it, so not `load`'s own)."""
    return importlib.util.find_spec("libcst")


@cache
def _imports_of_init() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Return what libcst's `__init__` imports, in its order: each `from M import a as b`
    as (M, ((a, b), ...)), read from its source without running it (none without one)."""
    spec = _installed()
    loader = spec.loader if spec is not None else None
    source = loader.get_source("libcst") if isinstance(loader, SourceFileLoader) else None
    return tuple(
        (statement.module, tuple((a.name, a.asname or a.name) for a in statement.names))
        for statement in ast.parse(source or "").body
        if isinstance(statement, ast.ImportFrom) and statement.module
    )


class _PackageLoader(SourceFileLoader):
    """Loads libcst's package with only what a parse needs (see above)."""

    def exec_module(self, module: ModuleType) -> None:
        for name, pairs in _imports_of_init():
            if _for_parsing(name):
                imported = importlib.import_module(name)
                for attribute, alias in pairs:
                    setattr(module, alias, getattr(imported, attribute))
        importlib.import_module("libcst.native")
        importlib.import_module("libcst._position")  # positions.py's: not imported later
        module.__getattr__ = _on_first_lookup  # type: ignore[method-assign]


class _Finder:
    """Finds libcst's package with _PackageLoader, while `load` imports it."""

    def __init__(self, spec: ModuleSpec) -> None:
        self.spec = spec

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        return self.spec if name == "libcst" else None


def _import_parsing() -> ModuleType:
    """Import libcst's package with only what a parse needs, through the import system
    (another thread's `import libcst` waits for it), or whole if it is laid out
    otherwise (see above)."""
    spec = _installed()
    if (
        spec is None
        or spec.origin is None
        or not spec.submodule_search_locations
        or not any(_for_parsing(module) for module, _ in _imports_of_init())
    ):
        import libcst

        return libcst
    ours = importlib.util.spec_from_file_location(
        "libcst",
        spec.origin,
        loader=_PackageLoader("libcst", spec.origin),
        submodule_search_locations=spec.submodule_search_locations,
    )
    assert ours is not None  # a loader was given
    finder = _Finder(ours)
    sys.meta_path.insert(0, finder)
    try:
        package = importlib.import_module("libcst")
    except BaseException as exc:
        sys.meta_path.remove(finder)  # first: another thread's import could still use it
        _forget()
        if not isinstance(exc, ImportError | AttributeError):
            raise  # interrupted (not laid out otherwise): tried afresh next time
    else:
        sys.meta_path.remove(finder)
        return package
    import libcst  # laid out otherwise: whole

    return libcst


def _forget() -> None:
    """Drop every module of libcst from sys.modules."""
    for name in [n for n in sys.modules if n.partition(".")[0] == "libcst"]:
        del sys.modules[name]
