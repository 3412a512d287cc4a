"""Memory of `lintgv server` as documents are opened and closed, over stdio.

Usage (run by hand; see docs/benchmarks.md):

    python -m benchmarks.lsp_memory [--files 40] [--lines 3000] [--rounds 3] [--json]

It opens one small Python file and reads the server's resident memory (VmRSS from /proc):
the early value. Then, `--rounds` times, it opens `--files` generated Python files of
`--lines` lines each (all different, in TVM's style, each with findings), waits for each
file's diagnostics, reads the memory, closes them all, waits until each file's
diagnostics are cleared, and reads the memory again. The goal the server is held to:
after closing, at most 1.3 times the early value plus 20 MiB, and no climb from round to
round. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.lsp_latency import Connection, generate


def _published(message: dict[str, Any], uri: str, empty: bool) -> bool:
    if message.get("method") != "textDocument/publishDiagnostics":
        return False
    params = message["params"]
    return bool(params["uri"] == uri and (not params["diagnostics"]) == empty)


def _open(connection: Connection, path: Path, text: str) -> None:
    item = {"uri": path.as_uri(), "languageId": "python", "version": 1, "text": text}
    connection.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})


def _wait_all(connection: Connection, paths: list[Path], empty: bool) -> None:
    """Wait until every one of `paths` has diagnostics published (cleared, when `empty`)."""
    waiting = {p.as_uri() for p in paths}
    while waiting:
        _, message = connection.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        uri = message["params"]["uri"]
        if uri in waiting and _published(message, uri, empty):
            waiting.discard(uri)


def measure(files: int, lines: int, rounds: int) -> dict[str, Any]:
    """Open and close `files` files `rounds` times; return the server's memory in MiB."""
    with tempfile.TemporaryDirectory(prefix="lintgv-memory-") as folder:
        root = Path(folder)
        connection = Connection(root)
        connection.start(root)
        small = root / "small.py"
        _open(connection, small, "import tvm\n\ngv = tvm.ir.GlobalVar('main')\n")
        connection.wait(lambda m: _published(m, small.as_uri(), empty=False))
        early = connection.memory()["VmRSS"]
        template = generate("python", lines)
        opened_mib, closed_mib = [], []
        for round_ in range(rounds):
            paths = [root / f"part_{round_}_{k}.py" for k in range(files)]
            for k, path in enumerate(paths):
                # Different names in every file and round: nothing is shared by accident.
                _open(connection, path, template.replace("lower_part_", f"r{round_}_f{k}_"))
            _wait_all(connection, paths, empty=False)
            opened_mib.append(connection.memory()["VmRSS"] / 1024)
            for path in paths:
                params = {"textDocument": {"uri": path.as_uri()}}
                connection.send({"method": "textDocument/didClose", "params": params})
            _wait_all(connection, paths, empty=True)
            closed_mib.append(connection.memory()["VmRSS"] / 1024)
        peak = connection.memory()["VmHWM"] / 1024
        connection.stop()
    early_mib = early / 1024
    return {
        "files": files,
        "lines": lines,
        "early_mib": round(early_mib, 1),
        "opened_mib": [round(m, 1) for m in opened_mib],
        "closed_mib": [round(m, 1) for m in closed_mib],
        "peak_mib": round(peak, 1),
        "goal_mib": round(1.3 * early_mib + 20, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=40, help="files open at once")
    parser.add_argument("--lines", type=int, default=3000, help="lines per file")
    parser.add_argument("--rounds", type=int, default=3, help="open-and-close rounds")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    result = measure(args.files, args.lines, args.rounds)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"early (one small file open): {result['early_mib']} MiB")
    rounds = zip(result["opened_mib"], result["closed_mib"], strict=True)
    for index, (opened, closed) in enumerate(rounds):
        print(
            f"round {index + 1}: {result['files']} files of {result['lines']} lines open "
            f"{opened} MiB, all closed {closed} MiB"
        )
    print(f"peak {result['peak_mib']} MiB; goal after closing <= {result['goal_mib']} MiB")
    print(f"load average at the end: {result['load_average']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
