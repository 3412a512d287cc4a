"""give_back hands the C allocator's free memory back to the system: memory a native
library freed in the middle of the heap (where glibc keeps it) leaves the process's
resident set. Run in a child process of its own, so that nothing else allocates."""

import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(
    """
    import ctypes
    from lintgv.allocator import give_back

    def resident():
        with open("/proc/self/status") as status:
            line = next(l for l in status if l.startswith("VmRSS"))
        return int(line.split()[1]) // 1024

    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    # 64 KiB blocks come from the heap (larger ones are mapped apart and returned at
    # once); the last is kept, so the heap cannot shrink from its top on its own.
    blocks = [libc.malloc(64 * 1024) for _ in range(2000)]
    for block in blocks:
        ctypes.memset(block, 1, 64 * 1024)
    for block in blocks[:-1]:
        libc.free(block)
    before = resident()
    given = give_back()
    print(given, before, resident())
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_memory_freed_in_the_heap_goes_back_to_the_system() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, check=True, timeout=60
    )
    given, before, after = done.stdout.split()
    assert given == "True"
    assert int(before) - int(after) > 64, (before, after)  # of the 125 MiB freed
