"""Handing the C allocator's free memory back to the system.

libcst's parser is native code: it allocates with the C allocator while it parses and
frees what it built once the Python tree is made. glibc keeps freed memory for the
process's next allocations rather than returning it, so a migration whose first plan
parses a few dozen large Python files carried about 150 MiB it no longer used into
every later plan, on top of what those plans hold (TVM v0.16: a peak of 528 MiB, about
420 with the memory given back after each parse, which costs a few milliseconds).
glibc's `malloc_trim` returns it; elsewhere (macOS, musl) nothing is done.
"""

import ctypes
import sys
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim = ctypes.CDLL(None).malloc_trim  # the process's own C library's
    except (OSError, AttributeError):
        return None  # not glibc
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def give_back() -> bool:
    """Return the C allocator's free memory to the system; tell whether it could be."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
