"""Latency and memory of `lintgv server`, driven over stdio with plain JSON-RPC.

Usage (run by hand; see docs/server.md):

    python benchmarks/lsp_latency.py [--tree TREE] [--scan TREE] [--edits 40] [--burst 300]
                                     [--actions] [--json]

For a 5,000-line C++ file and a 3,000-line Python file it opens the file, then sends
`--edits` incremental `didChange`s one after the other, each adding or removing a
`GlobalVar` construction (in C++ at the middle line; in Python before the first top-level
definition from the middle on, so that every version parses), and times each from
sending the change to receiving the
`publishDiagnostics` of that version. The server's debounce is set to 0 through
`initializationOptions`, so the figures exclude it; the server's CPU time per edit is
given too, which a busy machine hardly changes, and its resident memory (VmRSS) once the
file is open and after the edits. The files are generated in TVM's style,
or, with `--tree`, taken from that tree (the shortest source at least that long, else the
longest ones joined, cut at the limit; nothing is written into the tree). With `--burst N`,
a second server with its default debounce (150 ms) gets N edits back to back, and the time
from the last to the final version's diagnostics is given. With `--scan`, a second
server runs `lintgv.checkWorkspace` over that tree and its resident memory (VmRSS, and
the peak VmHWM) is read from /proc afterwards. With `--actions`, a third server gets one
`textDocument/codeAction` over the whole file (every finding's quick fix and "Ignore CODE
on this line") and, right behind it, a `textDocument/hover`: both are timed, the second
to show whether the server still answers while it proves the actions. Standard library
only.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SERVER = [sys.executable, "-P", "-m", "lintgv", "server"]
TIMEOUT = 600.0


class Connection:
    """A `lintgv server` process and a reader thread that queues what it sends."""

    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            SERVER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=cwd,
        )
        self.inbox: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line == b"\r\n":
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = json.loads(stream.read(length))
            self.inbox.put((time.perf_counter(), body))

    def send(self, message: dict[str, Any]) -> float:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stdin.flush()
        return time.perf_counter()

    def wait(self, wanted: Any) -> tuple[float, dict[str, Any]]:
        while True:
            when, message = self.inbox.get(timeout=TIMEOUT)
            if message.get("method") == "workspace/configuration":
                self.send({"id": message["id"], "result": [None] * len(message["params"]["items"])})
            elif "id" in message and "method" in message:
                self.send({"id": message["id"], "result": None})
            if wanted(message):
                return when, message

    def start(self, root: Path, debounce_ms: int = 0, progress: bool = False) -> float:
        """Initialise a session with `root` as its workspace (a client that takes
        `$/progress` when `progress`); return when `initialized` was sent."""
        self.send(
            {
                "id": 1,
                "method": "initialize",
                "params": {
                    "processId": os.getpid(),
                    "rootUri": root.as_uri(),
                    "capabilities": {"window": {"workDoneProgress": progress}},
                    "initializationOptions": {"debounceMs": debounce_ms},
                },
            }
        )
        self.wait(lambda m: m.get("id") == 1)
        return self.send({"method": "initialized", "params": {}})

    def stop(self) -> None:
        self.send({"id": "bye", "method": "shutdown"})
        self.wait(lambda m: m.get("id") == "bye")
        self.send({"method": "exit"})
        self.process.wait(timeout=TIMEOUT)

    def cpu_ms(self) -> float:
        """Return the CPU time the server has used so far (user + system), in ms."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")

    def memory(self) -> dict[str, int]:
        """Return VmRSS and VmHWM of the server, in KiB."""
        found = {}
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                found[name] = int(value.split()[0])
        return found


def _cpp_function(index: int) -> list[str]:
    return [
        f"// Lower the {index}th function of a module to a global of its own.",
        f"IRModule LowerPart{index}(IRModule mod, const BaseFunc& func, const String& name) {{",
        "  Array<GlobalVar> globals = mod->GetGlobalVars();",
        "  for (const GlobalVar& existing : globals) {",
        '    ICHECK(existing->name_hint != name) << "duplicate global " << name;',
        "  }",
        f'  GlobalVar gv(name + "_{index}");'
        if index % 10 == 0
        else "  GlobalVar gv = mod->GetGlobalVar(name);",
        "  mod->Add(gv, func);",
        "  return mod;",
        "}",
        "",
    ]


def _python_function(index: int) -> list[str]:
    site = (
        "    gv = tvm.ir.GlobalVar(name)"
        if index % 10 == 0
        else "    gv = mod.get_global_var(name)"
    )
    return [
        f"def lower_part_{index}(mod, func, name):",
        f'    """Add `func` to `mod` as the {index}th lowered part."""',
        "    for existing in mod.get_global_vars():",
        "        assert existing.name_hint != name, name",
        site,
        "    mod[gv] = func",
        "    return mod",
        "",
        "",
    ]


def generate(language: str, lines: int) -> str:
    """Return a TVM-style source of exactly `lines` lines."""
    if language == "cpp":
        head = ["#include <tvm/ir/module.h>", "", "namespace tvm {", "namespace relay {", ""]
        tail = ["}  // namespace relay", "}  // namespace tvm"]
        make = _cpp_function
    else:
        head = [
            '"""Lowered parts of a module (generated for a benchmark)."""',
            "",
            "import tvm",
            "",
            "",
        ]
        tail = ["ALL_PARTS = []"]
        make = _python_function
    body: list[str] = []
    index = 0
    while len(head) + len(body) + len(tail) < lines:
        body.extend(make(index))
        index += 1
    body = body[: lines - len(head) - len(tail)]
    return "\n".join(head + body + tail) + "\n"


def from_tree(tree: Path, suffix: str, lines: int) -> str:
    """Return about `lines` lines of `tree`: the shortest source with `suffix` that has at
    least that many, else the longest ones joined; cut at the limit (for Python, at the
    last top-level line before it, so that it still parses)."""
    sources = sorted(
        (
            p.read_text(encoding="utf-8", errors="replace").splitlines()
            for p in tree.rglob(f"*{suffix}")
            if p.is_file()
        ),
        key=len,
    )
    long_enough = [s for s in sources if len(s) >= lines]
    chosen: list[str] = long_enough[0] if long_enough else []
    while len(chosen) < lines and sources:
        chosen = chosen + sources.pop()
    cut = min(lines, len(chosen))
    while suffix == ".py" and 0 < cut < len(chosen) and chosen[cut][:1] in (" ", "\t", ")", "]"):
        cut -= 1
    return "\n".join(chosen[:cut]) + "\n"


def _insertion_line(text: str, language: str) -> int:
    """Return the line, from the middle on, before which the benchmark's edit goes: for
    Python a top-level `def` or `class` (not one under a decorator), so that both
    versions of the file parse; C++ takes a statement anywhere."""
    lines = text.splitlines()
    middle = len(lines) // 2
    if language != "python":
        return middle
    for index in range(middle, len(lines)):
        if lines[index].startswith(("def ", "class ")) and not lines[index - 1].startswith("@"):
            return index
    raise SystemExit("no top-level definition after the middle of the Python file to edit at")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure_latency(text: str, suffix: str, edits: int) -> dict[str, Any]:
    """Open `text` as a file and time `edits` didChange → publishDiagnostics round trips."""
    with tempfile.TemporaryDirectory(prefix="lintgv-bench-") as folder:
        root = Path(folder)
        connection = Connection(root)
        connection.start(root)
        uri, opened, first, edit = _open(connection, root / f"bench{suffix}", text)
        rss_opened = connection.memory()["VmRSS"]
        timings = []
        cpu_before = connection.cpu_ms()
        for version in range(2, edits + 2):
            sent = edit(version)
            received, _ = connection.wait(lambda m, v=version: _published(m, uri, v))
            timings.append((received - sent) * 1000)
        cpu = (connection.cpu_ms() - cpu_before) / edits
        rss_edited = connection.memory()["VmRSS"]
        connection.stop()
    return {
        "lines": len(text.splitlines()),
        "open_ms": round((first - opened) * 1000, 1),
        "edits": edits,
        "p50_ms": round(statistics.median(timings), 1),
        "p95_ms": round(_percentile(timings, 0.95), 1),
        "max_ms": round(max(timings), 1),
        # The server's own CPU time per edit: unlike wall time, other load hardly moves it.
        "cpu_ms_per_edit": round(cpu, 1),
        # Each version is parsed anew: memory that grows with the edits is held too long.
        "rss_opened_mib": round(rss_opened / 1024, 1),
        "rss_edited_mib": round(rss_edited / 1024, 1),
    }


def measure_burst(text: str, suffix: str, edits: int) -> dict[str, Any]:
    """Send `edits` didChanges back to back, with the server's default debounce, and time
    from the last one to the diagnostics of the final version; count the versions whose
    diagnostics were published on the way (superseded work is skipped)."""
    with tempfile.TemporaryDirectory(prefix="lintgv-burst-") as folder:
        root = Path(folder)
        connection = Connection(root)
        connection.start(root, debounce_ms=150)
        uri, _, _, edit = _open(connection, root / f"bench{suffix}", text)
        last = edits + 1
        sent = 0.0
        for version in range(2, last + 1):
            sent = edit(version)
        published: list[int] = []

        def final(message: dict[str, Any]) -> bool:
            if message.get("method") == "textDocument/publishDiagnostics":
                published.append(message["params"].get("version"))
            return _published(message, uri, last)

        received, _ = connection.wait(final)
        connection.stop()
    return {
        "edits": edits,
        "final_after_last_ms": round((received - sent) * 1000, 1),
        "versions_published_on_the_way": len(published) - 1,
    }


def measure_actions(text: str, suffix: str) -> dict[str, Any]:
    """Ask for the code actions of the whole file, then at once for a hover; time both."""
    with tempfile.TemporaryDirectory(prefix="lintgv-actions-") as folder:
        root = Path(folder)
        connection = Connection(root)
        connection.start(root)
        uri, _, _, _ = _open(connection, root / f"bench{suffix}", text)
        lines = len(text.splitlines())
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}}
        document = {"uri": uri}
        context = {"diagnostics": [], "only": ["quickfix"]}
        params = {"textDocument": document, "range": whole, "context": context}
        asked = connection.send(
            {"id": "actions", "method": "textDocument/codeAction", "params": params}
        )
        hover = {"textDocument": document, "position": {"line": 0, "character": 0}}
        hovered = connection.send({"id": "hover", "method": "textDocument/hover", "params": hover})
        answers: dict[str, tuple[float, dict[str, Any]]] = {}

        def both(message: dict[str, Any]) -> bool:
            if message.get("id") in ("actions", "hover"):
                answers[message["id"]] = (time.perf_counter(), message)
            return len(answers) == 2

        connection.wait(both)
        connection.stop()
    actions = answers["actions"][1].get("result") or []
    return {
        "lines": lines,
        "actions_ms": round((answers["actions"][0] - asked) * 1000, 1),
        "actions": len(actions),
        "ignore_actions": sum(1 for a in actions if a["title"].startswith("Ignore ")),
        "hover_ms": round((answers["hover"][0] - hovered) * 1000, 1),
    }


def _open(
    connection: Connection, path: Path, text: str
) -> tuple[str, float, float, Callable[[int], float]]:
    """Write `text` to `path` and open it; return its URI, when it was opened, when its
    first diagnostics came, and a function that sends the change making a given version
    (even versions add a GlobalVar construction at the edit line, odd ones take it away)
    and returns when it was sent."""
    path.write_text(text)
    uri = path.as_uri()
    language = "python" if path.suffix == ".py" else "cpp"
    item = {"uri": uri, "languageId": language, "version": 1, "text": text}
    opened = connection.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
    first, _ = connection.wait(lambda m: _published(m, uri, 1))
    middle = _insertion_line(text, language)
    line = (
        '  GlobalVar extra("bench");\n'
        if language == "cpp"
        else 'extra = tvm.ir.GlobalVar("bench")\n'
    )

    def edit(version: int) -> float:
        adding = version % 2 == 0
        start = {"line": middle, "character": 0}
        end = start if adding else {"line": middle + 1, "character": 0}
        change = {"range": {"start": start, "end": end}, "text": line if adding else ""}
        params = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
        return connection.send({"method": "textDocument/didChange", "params": params})

    return uri, opened, first, edit


def _published(message: dict[str, Any], uri: str, version: int) -> bool:
    if message.get("method") != "textDocument/publishDiagnostics":
        return False
    return bool(message["params"]["uri"] == uri and message["params"].get("version") == version)


def measure_scan(tree: Path) -> dict[str, Any]:
    """Run lintgv.checkWorkspace over `tree`; return its time, result and the server's memory."""
    connection = Connection(tree)
    connection.start(tree)
    before = connection.memory()
    sent = connection.send(
        {
            "id": "scan",
            "method": "workspace/executeCommand",
            "params": {"command": "lintgv.checkWorkspace"},
        }
    )
    done, answer = connection.wait(lambda m: m.get("id") == "scan")
    after = connection.memory()
    connection.stop()
    return {
        "tree": str(tree),
        "seconds": round(done - sent, 1),
        "result": answer.get("result"),
        "rss_before_mib": round(before["VmRSS"] / 1024, 1),
        "rss_after_mib": round(after["VmRSS"] / 1024, 1),
        "peak_mib": round(after["VmHWM"] / 1024, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, help="take the test files from this source tree")
    parser.add_argument(
        "--scan", type=Path, help="measure memory after a workspace scan of this tree"
    )
    parser.add_argument("--edits", type=int, default=40, help="didChange round trips per file")
    parser.add_argument(
        "--burst", type=int, default=0, help="also send this many edits back to back"
    )
    parser.add_argument(
        "--actions", action="store_true", help="also time the code actions of a whole file"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    for name, suffix, lines in (("cpp", ".cc", 5000), ("python", ".py", 3000)):
        language = "cpp" if suffix == ".cc" else "python"
        text = from_tree(args.tree, suffix, lines) if args.tree else generate(language, lines)
        results[name] = measure_latency(text, suffix, args.edits)
        if args.burst:
            results[f"{name}_burst"] = measure_burst(text, suffix, args.burst)
        if args.actions:
            results[f"{name}_actions"] = measure_actions(text, suffix)
    if args.scan:
        results["scan"] = measure_scan(args.scan)
    # The figures depend on how busy the machine was: record it beside them.
    results["load_average"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for name in ("cpp", "python"):
        r = results[name]
        print(
            f"{name:<7} {r['lines']:>6} lines  open {r['open_ms']:>7} ms  "
            f"didChange→publish p50 {r['p50_ms']:>6} ms  p95 {r['p95_ms']:>6} ms  "
            f"max {r['max_ms']:>6} ms  server CPU {r['cpu_ms_per_edit']:>6} ms/edit  "
            f"({r['edits']} edits)  server RSS {r['rss_opened_mib']} MiB open, "
            f"{r['rss_edited_mib']} MiB after the edits"
        )
        if f"{name}_burst" in results:
            b = results[f"{name}_burst"]
            print(
                f"{name:<7} burst of {b['edits']} edits: final diagnostics "
                f"{b['final_after_last_ms']} ms after the last (debounce 150 ms included), "
                f"{b['versions_published_on_the_way']} versions published on the way"
            )
        if f"{name}_actions" in results:
            a = results[f"{name}_actions"]
            print(
                f"{name:<7} code actions of the whole file: {a['actions_ms']} ms for "
                f"{a['actions']} actions ({a['ignore_actions']} ignore); a hover sent behind "
                f"them answered in {a['hover_ms']} ms"
            )
    if "scan" in results:
        s = results["scan"]
        print(
            f"scan    {s['tree']}: {s['seconds']} s, {s['result']}; server RSS "
            f"{s['rss_before_mib']} MiB before, {s['rss_after_mib']} MiB after, "
            f"peak {s['peak_mib']} MiB"
        )
    print(f"load average at the end: {results['load_average']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
