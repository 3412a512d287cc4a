"""The cost of the unified diff `lintgv fix --diff` prints, against difflib's.

Usage (run by hand; see docs/benchmarks.md):

    python -m benchmarks.diff_cost [--sizes 1000 2000 4000 8000] [--runs 3]

For each size it writes the function of that many `GlobalVar` sites that
`benchmarks.linear_cost` writes (Python and C++), fixes it with `lintgv fix --unsafe
--no-cache`, and times in this process, in CPU seconds (least of `--runs`), difflib's
`unified_diff` and lintgv's on the file before and after the fix, and tells whether the
two diffs are the same. The fixed lines alternate with kept ones, difflib's worst shape.
"""

from __future__ import annotations

import argparse
import difflib
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from benchmarks.linear_cost import LINTGV, cpp_sites, python_sites
from lintgv.fixing.diff import diff_lines, unified_diff


def _difflib_diff(before: str, after: str) -> str:
    lines = difflib.unified_diff(diff_lines(before), diff_lines(after), "a/f", "b/f")
    return "".join(
        line if line.endswith("\n") else f"{line}\n\\ No newline at end of file\n" for line in lines
    )


def _least_cpu(render: Callable[[], str], runs: int) -> tuple[float, str]:
    times, text = [], ""
    for _ in range(runs):
        start = time.process_time()
        text = render()
        times.append(time.process_time() - start)
    return min(times), text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 8000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    cases = {"Python sites": (python_sites, ".py"), "C++ sites": (cpp_sites, ".cc")}
    print(f"{'case':<14} {'size':>6} {'lines':>6} {'difflib s':>10} {'lintgv s':>9}  same")
    with tempfile.TemporaryDirectory(prefix="lintgv-diff-") as folder:
        for name, (make, suffix) in cases.items():
            for size in args.sizes:
                path = Path(folder) / f"case{suffix}"
                before = make(size)
                path.write_text(before)
                subprocess.run(
                    [*LINTGV, "fix", "--unsafe", "--no-cache", str(path)],
                    capture_output=True,
                    check=False,
                )
                after = path.read_text()
                old, old_text = _least_cpu(partial(_difflib_diff, before, after), args.runs)
                new, new_text = _least_cpu(partial(unified_diff, before, after, "f"), args.runs)
                lines = len(diff_lines(before))
                same = "yes" if old_text == new_text else "no"
                print(f"{name:<14} {size:>6} {lines:>6} {old:>10.3f} {new:>9.3f}  {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
