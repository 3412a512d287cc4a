"""give_back hands the C allocator's free memory back to the system: memory a native
library freed in the middle of the heap (where glibc keeps it) leaves the process's
resident set. Run in a child process of its own, so that nothing else allocates."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import lintgv

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


PROBE = textwrap.dedent(
    """
    import ctypes


    class MallocInfo(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost"
        ).split()]


    def mapped():
        \"\"\"Return 1 if glibc serves a 1 MiB block mapped apart after a 4 MiB one was
        freed (which raises its own threshold to 4 MiB), 0 if from the heap.\"\"\"
        libc = ctypes.CDLL(None)
        libc.mallinfo2.restype = MallocInfo
        libc.malloc.restype = ctypes.c_void_p
        libc.free.argtypes = [ctypes.c_void_p]
        libc.free(libc.malloc(4 << 20))
        before = libc.mallinfo2().hblks
        block = libc.malloc(1 << 20)
        found = libc.mallinfo2().hblks - before
        libc.free(block)
        return found
    """
)

MAPPED = textwrap.dedent(
    """
    import multiprocessing, sys
    from probe import mapped
    from lintgv.allocator import keep_mapping_large_blocks

    how = sys.argv[1]
    if how in ("as it is", "kept"):
        kept = keep_mapping_large_blocks() if how == "kept" else None
        print(kept, [mapped()])
    else:  # the workers of a run, started as `how` says
        multiprocessing.set_start_method(how)
        from lintgv.checking import _Pool
        pool = _Pool(2)
        pool.start()
        found = sorted({pool._executor.submit(mapped).result() for _ in range(8)})
        pool.close()
        print(None, found)
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
@pytest.mark.parametrize(
    ("how", "user", "expected"),
    [
        ("as it is", False, "None [0]"),
        ("kept", False, "True [1]"),
        ("kept", True, "False [0]"),  # the user's own threshold (4 MiB) is left as set
        ("fork", False, "None [1]"),
        ("spawn", False, "None [1]"),
    ],
)
def test_large_blocks_stay_mapped_apart_once_kept(
    tmp_path: Path, how: str, user: bool, expected: str
) -> None:
    (tmp_path / "probe.py").write_text(PROBE, encoding="utf-8")
    env = dict(os.environ)
    env.pop("MALLOC_MMAP_THRESHOLD_", None)
    if user:
        env["MALLOC_MMAP_THRESHOLD_"] = str(4 << 20)
    # The workers a run starts never import from their current folder: both on the path.
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(Path(lintgv.__file__).parents[1])])
    done = subprocess.run(
        [sys.executable, "-c", MAPPED, how],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    assert done.stdout.strip() == expected, done.stderr


def test_a_python_without_ctypes_checks_with_workers(tmp_path: Path) -> None:
    # ctypes is optional in a CPython build: without it nothing is kept or given back,
    # and the workers of a run still check.
    shim = tmp_path / "shim" / "ctypes"
    shim.mkdir(parents=True)
    (shim / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named '_ctypes'\")\n")
    tree = tmp_path / "tree"
    tree.mkdir()
    for index in range(60):
        (tree / f"f{index}.cc").write_text('void f() { GlobalVar gv("main"); }\n')
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(shim.parent), str(Path(lintgv.__file__).parents[1])])
    done = subprocess.run(
        [sys.executable, "-P", "-m", "lintgv", "check", "--no-cache", "-j", "2", str(tree)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.count("GV101") == 60


def test_a_query_compile_first_hands_back_what_the_heap_holds_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A compile's scratch memory then does not come on top of megabytes freed before.
    from lintgv import allocator
    from lintgv.parsing import cpp

    calls: list[str] = []
    monkeypatch.setattr(allocator, "give_back", lambda: calls.append("give_back") or True)
    query = cpp.compile_query("(number_literal) @n ; a query no rule compiles")
    assert calls == ["give_back"]
    assert cpp.compile_query("(number_literal) @n ; a query no rule compiles") is query
    assert calls == ["give_back"]  # compiled once
