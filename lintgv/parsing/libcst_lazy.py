"""libcst, imported when one of its names is first used: `from lintgv.parsing import
libcst_lazy as cst`, then `cst.Name` as with libcst itself (libcst_lazy.pyi gives the
type checker libcst's names).

Importing libcst builds its 200 node classes, a twentieth of a second even through
`libcst_import.load`; a run that parses no Python (C++ alone, files without a trigger
word, answers from the cache) never needs it. The first use copies the names of
libcst's errors and nodes into this module (libcst_import.parsing_names: all that a
parse and the rules use, not libcst's metadata, helpers or visitors) and drops the
module's `__getattr__`, so every later lookup is a plain module attribute, as fast as
`libcst.Name`: CPython does not specialise attribute lookups on a module that has a
`__getattr__`, and they took three times as long.
"""


def __getattr__(name: str) -> object:
    if name.startswith("__"):  # not libcst's: a probe such as inspect's must not import it
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from lintgv.parsing.libcst_import import load, parsing_names

    libcst = load()
    names = globals()
    names.update({key: getattr(libcst, key) for key in parsing_names()})
    names.pop("__getattr__", None)  # another thread may have dropped it already
    if name not in names:
        raise AttributeError(f"module 'libcst' has no attribute {name!r}")
    return names[name]
