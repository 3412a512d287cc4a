"""Handing the C allocator's free memory back to the system, and keeping it handing
back large blocks.

libcst's parser is native code: it allocates with the C allocator while it parses and
frees what it built once the Python tree is made. glibc keeps freed memory for the
process's next allocations rather than returning it, so a migration whose first plan
parses a few dozen large Python files carried about 150 MiB it no longer used into
every later plan, on top of what those plans hold (TVM v0.16: a peak of 528 MiB, about
420 with the memory given back after each parse, which costs a few milliseconds).
glibc's `malloc_trim` returns it; elsewhere (macOS, musl) nothing is done.

glibc serves a block of 128 KiB or more with memory mapped for it alone, handed back
when it is freed; but each such block freed raises that threshold to its own size, so
that after one large block every later one up to that size comes from the heap, which
keeps it. tree-sitter's compile of a query reads the grammar's whole parse table into
about 7 MiB of scratch memory for a moment: from the first compile on, each process
kept megabytes it had freed. `keep_mapping_large_blocks` sets the threshold, which
glibc then leaves where it is set.
"""

import os
import sys
from collections.abc import Callable
from functools import cache


def _glibc_function(name: str, *argtypes: str) -> Callable[..., int] | None:
    """Return the C library function `name` of this process, taking C arguments of the
    ctypes types `argtypes` and returning an int; None where there is none such (not
    glibc, or a Python built without ctypes, which still checks)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        function = getattr(ctypes.CDLL(None), name)
    except (ImportError, OSError, AttributeError):
        return None
    function.argtypes = [getattr(ctypes, kind) for kind in argtypes]
    function.restype = ctypes.c_int
    return function  # type: ignore[no-any-return]


# glibc's mallopt parameter: the size from which malloc maps a block of its own.
_M_MMAP_THRESHOLD = -3


@cache
def keep_mapping_large_blocks() -> bool:
    """Keep glibc's malloc mapping blocks of 128 KiB and more apart (see above), once
    per process; tell whether it did. A run keeps it before it starts its workers, and
    each worker as it starts (a forked one inherits it), for processes that check files
    by the thousand: a check of TVM v0.16's C++ files peaks at 29.5 MiB instead of 32.2
    (four runs each), in the same time. Not a check of a few files in one process: its
    compiles' scratch, mapped afresh each time, cost a one-file check 6 ms. A threshold
    the user set for glibc (MALLOC_MMAP_THRESHOLD_, GLIBC_TUNABLES) is left as set."""
    tunables = os.environ.get("GLIBC_TUNABLES", "")
    if "MALLOC_MMAP_THRESHOLD_" in os.environ or "malloc.mmap_threshold" in tunables:
        return False
    mallopt = _glibc_function("mallopt", "c_int", "c_int")
    return mallopt is not None and bool(mallopt(_M_MMAP_THRESHOLD, 128 * 1024))


def give_back() -> bool:
    """Return the C allocator's free memory to the system; tell whether it could be."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


@cache
def _malloc_trim() -> Callable[..., int] | None:
    return _glibc_function("malloc_trim", "c_size_t")
