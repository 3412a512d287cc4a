"""How checking and fixing grow with the number of sites in one function, and with nesting.

Usage (run by hand; see docs/benchmarks.md):

    python -m benchmarks.linear_cost [--sizes 1000 2000 4000 8000] [--runs 3]

For each size it generates one C++ function and one Python function holding that many
`GlobalVar` constructions (each added to the module), plus a call nested that many levels
deep around one construction (C++ only past Python's parser limits), into a temporary
folder, and times `lintgv check --no-cache`, `lintgv fix --unsafe --no-cache` and the same
fix with `--diff` (which writes nothing and prints the unified diff) on each as whole
processes (median of `--runs`, the file written afresh before each run). Linear cost shows
as times that double when the size doubles. Standard library only.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINTGV = [sys.executable, "-P", "-m", "lintgv"]


def cpp_sites(count: int) -> str:
    body = "".join(f'  GlobalVar gv{i}("f{i}");\n  mod->Add(gv{i}, f);\n' for i in range(count))
    function = f"IRModule Build(IRModule mod, BaseFunc f) {{\n{body}  return mod;\n}}\n"
    return f"#include <tvm/ir/module.h>\nnamespace tvm {{\n{function}}}  // namespace tvm\n"


def python_sites(count: int) -> str:
    body = "".join(
        f"    gv{i} = tvm.ir.GlobalVar('f{i}')\n    mod[gv{i}] = f\n" for i in range(count)
    )
    return f"import tvm\n\n\ndef build(mod, f):\n{body}    return mod\n"


def cpp_nested(depth: int) -> str:
    call = 'GlobalVar("x")'
    for _ in range(depth):
        call = f"Wrap({call})"
    return f"void F() {{\n  auto x = {call};\n}}\n"


def python_nested(depth: int) -> str:
    call = "tvm.ir.GlobalVar('x')"
    for _ in range(depth):
        call = f"wrap({call})"
    return f"import tvm\n\n\ndef f(mod):\n    x = {call}\n"


def _time(args: list[str], runs: int, path: Path, text: str) -> tuple[float, int]:
    times = []
    code = 0
    for _ in range(runs):
        path.write_text(text)  # a fix rewrites it: every run starts from the same text
        start = time.perf_counter()
        done = subprocess.run([*LINTGV, *args], capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        code = done.returncode
    return statistics.median(times), code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 8000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    cases = {
        "C++ sites": (cpp_sites, ".cc"),
        "Python sites": (python_sites, ".py"),
        "C++ nesting": (cpp_nested, ".cc"),
        "Python nesting": (python_nested, ".py"),
    }
    print(f"{'case':<16} {'size':>6} {'check s':>8} {'fix s':>8} {'diff s':>8}  exit codes")
    with tempfile.TemporaryDirectory(prefix="lintgv-linear-") as folder:
        for name, (make, suffix) in cases.items():
            for size in args.sizes:
                path = Path(folder) / f"case{suffix}"
                text = make(size)
                check, check_code = _time(["check", "--no-cache", str(path)], args.runs, path, text)
                fix_args = ["fix", "--unsafe", "--no-cache", str(path)]
                fix, fix_code = _time(fix_args, args.runs, path, text)
                diff, diff_code = _time([*fix_args, "--diff"], args.runs, path, text)
                print(
                    f"{name:<16} {size:>6} {check:>8.2f} {fix:>8.2f} {diff:>8.2f}  "
                    f"{check_code}, {fix_code}, {diff_code}"
                )
                path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
