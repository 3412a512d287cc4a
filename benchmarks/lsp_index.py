"""How long `lintgv server` takes to build its helper index over a tree, against a cold
`lintgv check` of the same tree, over stdio.

Usage (run by hand; see docs/benchmarks.md):

    python -m benchmarks.lsp_index TREE [--runs 3] [--json]

Each run starts a server with TREE as its workspace root (a client that takes
`$/progress`), sends `initialized`, and times from then to the end of the progress
titled "lintgv: indexing the workspace"; the server's CPU time and resident memory are
read from /proc at that moment. Between the runs, `lintgv check --no-cache TREE` is timed
in a subprocess (wall and CPU of the child), so both figures come from the same minutes
of the machine. The goal the server is held to: the index builds in no more than the
cold check's wall time. Standard library only; nothing is written into TREE.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.lsp_latency import Connection

TITLE = "lintgv: indexing the workspace"


def _index_once(tree: Path) -> dict[str, float]:
    connection = Connection(tree)
    started = connection.start(tree, progress=True)
    _, begin = connection.wait(
        lambda m: m.get("method") == "$/progress" and m["params"]["value"].get("title") == TITLE
    )
    token = begin["params"]["token"]
    ended, end = connection.wait(
        lambda m: (
            m.get("method") == "$/progress"
            and m["params"]["token"] == token
            and m["params"]["value"]["kind"] == "end"
        )
    )
    figures = {
        "wall_s": ended - started,
        "cpu_s": connection.cpu_ms() / 1000,
        "rss_mib": connection.memory()["VmRSS"] / 1024,
    }
    print(f"index: {end['params']['value'].get('message')}", file=sys.stderr)
    connection.stop()
    return figures


def _check_once(tree: Path) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-P", "-m", "lintgv", "check", "--no-cache", str(tree)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall_s": wall, "cpu_s": cpu}


def measure(tree: Path, runs: int) -> dict[str, Any]:
    index: list[dict[str, float]] = []
    check: list[dict[str, float]] = []
    for _ in range(runs):
        index.append(_index_once(tree))
        check.append(_check_once(tree))

    def median(rows: list[dict[str, float]], key: str) -> float:
        return round(statistics.median(r[key] for r in rows), 2)

    result: dict[str, Any] = {
        "tree": str(tree),
        "runs": runs,
        "index_wall_s": median(index, "wall_s"),
        "index_cpu_s": median(index, "cpu_s"),
        "index_rss_mib": median(index, "rss_mib"),
        "check_wall_s": median(check, "wall_s"),
        "check_cpu_s": median(check, "cpu_s"),
    }
    result["index_over_check_wall"] = round(result["index_wall_s"] / result["check_wall_s"], 2)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not args.tree.is_dir():
        print(f"lsp_index: {args.tree}: not a directory", file=sys.stderr)
        return 2
    result = measure(args.tree.resolve(), args.runs)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key:24} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
