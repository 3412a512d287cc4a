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


MAPPED = textwrap.dedent(
    r"""
    import ctypes, sys

    class MallocInfo(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost"
        ).split()]

    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = MallocInfo
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    if sys.argv[1] == "kept":
        from lintgv.allocator import keep_mapping_large_blocks
        assert keep_mapping_large_blocks()
    elif sys.argv[1] == "workers":  # the parent of a run with workers, once it is done
        import contextlib, io, runpy, tempfile
        from pathlib import Path
        folder = Path(tempfile.mkdtemp())
        for k in range(60):
            (folder / f"f{k}.cc").write_text('void f() { GlobalVar gv("main"); }\n')
        sys.argv = ["lintgv", "check", "--no-cache", "-j", "2", str(folder)]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            runpy.run_module("lintgv", run_name="__main__")
    # A 4 MiB block, mapped and freed, raises glibc's own threshold to 4 MiB...
    libc.free(libc.malloc(4 << 20))
    mapped = libc.mallinfo2().hblks
    block = libc.malloc(1 << 20)
    # ...so that a block of 1 MiB then comes from the heap, unless the threshold is kept.
    print(libc.mallinfo2().hblks - mapped)
    libc.free(block)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
@pytest.mark.parametrize(("how", "mapped"), [("as it is", "0"), ("kept", "1"), ("workers", "1")])
def test_large_blocks_stay_mapped_apart_once_kept(how: str, mapped: str) -> None:
    # "workers": a run's parent keeps it before it starts its workers, which inherit it.
    done = subprocess.run(
        [sys.executable, "-c", MAPPED, how], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == mapped, done.stderr
