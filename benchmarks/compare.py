"""Time lintgv against ast-grep, semgrep and Fixit on one source tree, side by side.

Usage (run by hand; see docs/benchmarks.md):

    python benchmarks/compare.py [TREE] [--runs 5] [--bin-dir VENV/bin] [--markdown OUT.md]

Every command runs once untimed (to warm the page cache, prime lintgv's cache, count
findings and sample the memory of the whole process tree), then `--runs` times under
`/usr/bin/time -v`, in rounds that run each command once, so that all tools share the
same background load; the tables give the median, the fastest and slowest run, the
largest "Maximum resident set size" /usr/bin/time saw, and lintgv's time over
ast-grep's for each round. The tree is copied to a temporary folder first (`--no-copy`
to skip), so the "one file edited" run never touches the original. Standard library
only; the other tools are found on PATH or in `--bin-dir`.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make `benchmarks` importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import findings as found
from benchmarks.measured import Command, Measured
from benchmarks.report import render_markdown

HERE = Path(__file__).resolve().parent
RULES = HERE / "rules"
REPO = HERE.parent
DEFAULT_TREE = REPO / "examples"
# lintgv's default max-file-size; semgrep is told the same so both read the same files.
MAX_FILE_BYTES = 2 * 1024 * 1024


def machine() -> dict[str, str]:
    """Return what the numbers depend on: cores, memory, CPU, system and load."""
    info = {
        "cores": str(os.cpu_count()),
        "cpu": _cpu_model(),
        "memory": _memory(),
        "system": f"{platform.system()} {platform.release()} ({platform.machine()})",
        "python": platform.python_version(),
        "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
    return info


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def version_of(argv: Sequence[str], cwd: Path | None = None) -> str:
    """Return the first line a `--version` command prints, or why it could not run."""
    try:
        done = subprocess.run(
            list(argv), capture_output=True, text=True, timeout=300, cwd=cwd, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unavailable ({exc})"
    text = (done.stdout or done.stderr).strip().splitlines()
    return text[0] if text else f"unavailable (exit {done.returncode})"


def find_tool(name: str, bin_dir: Path | None) -> str | None:
    """Return the path of executable `name`, looking in `bin_dir` first."""
    if bin_dir is not None and (bin_dir / name).is_file():
        return str(bin_dir / name)
    return shutil.which(name)


def lintgv_argv() -> list[str]:
    """Return how to run the lintgv installed beside this Python."""
    script = Path(sys.executable).parent / "lintgv"
    return [str(script)] if script.is_file() else [sys.executable, "-P", "-m", "lintgv"]


# --- running -------------------------------------------------------------------------


def _tree_rss_kb(root: int) -> int:
    """Return the summed resident memory of `root` and all its descendants, in KiB."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            status = Path(f"/proc/{entry}/statm").read_text().split()
        except OSError:
            continue
        fields_after_name = stat.rsplit(")", 1)[1].split()
        parents[int(entry)] = int(fields_after_name[1])
        rss[int(entry)] = int(status[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    total, stack, seen = 0, [root], set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += rss.get(pid, 0)
        stack.extend(child for child, parent in parents.items() if parent == pid)
    return total


def _run_sampled(command: Command, timeout: float) -> tuple[subprocess.CompletedProcess[str], int]:
    """Run once, sampling the process tree's memory every 0.1 s; return the peak too."""
    process = subprocess.Popen(
        command.argv,
        cwd=command.cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    peak = [0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(0.1):
            peak[0] = max(peak[0], _tree_rss_kb(process.pid))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        stderr += f"\n(benchmark: killed after {timeout:.0f} s)"
    finally:
        stop.set()
        sampler.join()
    done = subprocess.CompletedProcess(command.argv, process.returncode, stdout, stderr)
    return done, peak[0]


_RSS = re.compile(r"Maximum resident set size \(kbytes\): (\d+)")


def _run_timed(command: Command, timeout: float) -> tuple[float, int, int]:
    """Run once under /usr/bin/time -v; return wall seconds, max RSS in KiB, exit code."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        argv = ["/usr/bin/time", "-v", "-o", report.name, *command.argv]
        start = time.perf_counter()
        done = subprocess.run(
            argv,
            cwd=command.cwd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
            check=False,
        )
        seconds = time.perf_counter() - start
        match = _RSS.search(Path(report.name).read_text())
    return seconds, int(match.group(1)) if match else 0, done.returncode


def prepare(command: Command, tree: Path, timeout: float, log: Callable[[str], None]) -> Measured:
    """Warm up once: count the findings and sample the memory of the process tree."""
    result = Measured(command)
    if command.skipped:
        return result
    log(f"  {command.tool} {command.scenario}: {command.shown}")
    try:
        if command.prime:
            subprocess.run(
                command.argv, cwd=command.cwd, capture_output=True, timeout=timeout, check=False
            )
        if command.before_each is not None:
            command.before_each(-1)
        start = time.perf_counter()
        done, result.tree_rss_kb = _run_sampled(command, timeout)
        elapsed = time.perf_counter() - start
    except subprocess.TimeoutExpired:
        result.failure = f"a run took over {timeout:.0f} s"
        return result
    if command.parse is not None:
        result.counts = command.parse(done.stdout, done.stderr, tree)
    if done.returncode not in (0, 1, 2, 3):
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        result.failure = f"exit {done.returncode}: " + " | ".join(tail)
    elif command.runs == 0:
        # No timed runs asked for: the warm-up is the one measurement (memory sampled).
        result.seconds.append(elapsed)
        result.max_rss_kb.append(result.tree_rss_kb)
        result.exit_codes.append(done.returncode)
        log(f"    {command.tool} {command.scenario}, warm-up timed: {elapsed:.2f} s")
    return result


def time_once(result: Measured, run: int, timeout: float, log: Callable[[str], None]) -> None:
    """Time run number `run` of a prepared command, unless it failed or has had its runs."""
    command = result.command
    if command.skipped or result.failure or run >= command.runs:
        return
    if command.before_each is not None:
        command.before_each(run)
    try:
        seconds, rss, code = _run_timed(command, timeout)
    except subprocess.TimeoutExpired:
        result.failure = f"a run took over {timeout:.0f} s"
        return
    result.seconds.append(seconds)
    result.max_rss_kb.append(rss)
    result.exit_codes.append(code)
    where = f"{command.tool} {command.scenario}, run {run + 1}"
    log(f"    {where}: {seconds:.2f} s, {rss / 1024:.0f} MB")


def measure_all(
    commands: Sequence[Command], tree: Path, timeout: float, log: Callable[[str], None]
) -> list[Measured]:
    """Warm every command up, then time them in rounds, one run of each per round.

    Interleaving puts every tool under the same background load: a busy neighbour
    slows all tools of a round alike, so ratios of runs of one round stay fair.
    """
    results = [prepare(c, tree, timeout, log) for c in commands]
    try:
        for run in range(max((c.runs for c in commands), default=0)):
            log(f"  round {run + 1}")
            for result in results:
                time_once(result, run, timeout, log)
    finally:
        for command in commands:
            if command.after_all is not None:
                command.after_all()
    return results


# --- the commands --------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    tree: Path
    cache: Path
    runs: int
    slow_runs: int
    bin_dir: Path | None
    edit_target: Path | None


def lintgv_commands(setup: Setup) -> list[Command]:
    """Return the lintgv scenarios: check cold and warm, and fix --diff."""
    lintgv = lintgv_argv()
    tree = str(setup.tree)
    cache = ["--cache-dir", str(setup.cache)]
    commands = [
        Command(
            "check, cold (--no-cache)",
            "lintgv",
            [*lintgv, "check", "--no-cache", tree],
            "lintgv check --no-cache TREE",
            found.parse_lintgv_text,
            runs=setup.runs,
        ),
        Command(
            "check, warm (nothing changed)",
            "lintgv",
            [*lintgv, "check", *cache, tree],
            "lintgv check --cache-dir CACHE TREE",
            found.parse_lintgv_text,
            runs=setup.runs,
            prime=True,
        ),
    ]
    target = setup.edit_target
    if target is not None:
        original = target.read_bytes()

        def touch(run: int) -> None:
            now = time.time_ns() + (run + 1) * 1_000_000
            os.utime(target, ns=(now, now))

        def edit(run: int) -> None:
            target.write_bytes(original + f"\n# benchmark edit {run}\n".encode())

        def restore() -> None:
            target.write_bytes(original)

        shown = target.relative_to(setup.tree).as_posix()
        commands += [
            Command(
                "check, warm (one file touched)",
                "lintgv",
                [*lintgv, "check", *cache, tree],
                f"touch TREE/{shown}; lintgv check --cache-dir CACHE TREE",
                found.parse_lintgv_text,
                runs=setup.runs,
                before_each=touch,
            ),
            Command(
                "check, warm (one file edited)",
                "lintgv",
                [*lintgv, "check", *cache, tree],
                f"echo '# edit' >> TREE/{shown}; lintgv check --cache-dir CACHE TREE",
                found.parse_lintgv_text,
                runs=setup.runs,
                before_each=edit,
                after_all=restore,
            ),
        ]
    has_fix = subprocess.run(
        [*lintgv, "fix", "--help"], capture_output=True, timeout=120, check=False
    )
    why = "" if has_fix.returncode == 0 else "not measured: this lintgv has no `fix` command"
    for extra, label in (([], "safe fixes"), (["--unsafe"], "unsafe fixes too")):
        commands.append(
            Command(
                f"fix --diff, cold ({label})",
                "lintgv",
                [*lintgv, "fix", "--diff", *extra, "--no-cache", tree],
                " ".join(["lintgv fix --diff", *extra, "--no-cache TREE"]),
                found.parse_lintgv_fix,
                runs=setup.slow_runs,
                skipped=why,
            )
        )
    return commands


def other_commands(setup: Setup) -> list[Command]:
    """Return the ast-grep, semgrep and Fixit scans with the rules in benchmarks/rules."""
    tree = str(setup.tree)
    commands = []
    ast_grep = find_tool("ast-grep", setup.bin_dir)
    commands.append(
        Command(
            "scan",
            "ast-grep",
            [
                ast_grep or "ast-grep",
                "scan",
                "-c",
                str(RULES / "ast-grep" / "sgconfig.yml"),
                "--json=stream",
                "--inspect",
                "summary",
                tree,
            ],
            "ast-grep scan -c benchmarks/rules/ast-grep/sgconfig.yml --json=stream "
            "--inspect summary TREE",
            found.parse_ast_grep,
            runs=setup.runs,
            skipped="" if ast_grep else "not measured: ast-grep not found",
        )
    )
    semgrep = find_tool("semgrep", setup.bin_dir)
    commands.append(
        Command(
            "scan",
            "semgrep",
            [
                semgrep or "semgrep",
                "scan",
                "--config",
                str(RULES / "semgrep"),
                "--metrics=off",
                "--disable-version-check",
                # Semgrep's built-in ignore list skips tests/ folders; lintgv checks them.
                "--x-ignore-semgrepignore-files",
                f"--max-target-bytes={MAX_FILE_BYTES}",
                "--json",
                "--quiet",
                tree,
            ],
            "semgrep scan --config benchmarks/rules/semgrep --metrics=off "
            "--disable-version-check --x-ignore-semgrepignore-files "
            f"--max-target-bytes={MAX_FILE_BYTES} --json --quiet TREE",
            found.parse_semgrep,
            runs=setup.slow_runs,
            skipped="" if semgrep else "not measured: semgrep not found",
        )
    )
    fixit = find_tool("fixit", setup.bin_dir)
    commands.append(
        Command(
            "lint (Python only)",
            "fixit",
            [fixit or "fixit", "--rules", ".gv_rules", "lint", tree],
            "cd benchmarks/rules/fixit && fixit --rules .gv_rules lint TREE",
            found.parse_fixit,
            cwd=RULES / "fixit",
            runs=setup.slow_runs,
            skipped="" if fixit else "not measured: fixit not found",
        )
    )
    return commands


def lintgv_families() -> frozenset[str]:
    """Return the rule families (GV1, GV3, ...) this lintgv has, from `lintgv rules`."""
    done = subprocess.run(
        [*lintgv_argv(), "rules"], capture_output=True, text=True, timeout=120, check=False
    )
    return frozenset(line[:3] for line in done.stdout.splitlines() if line.startswith("GV"))


def tool_versions(setup: Setup) -> dict[str, str]:
    """Return the version line of every tool in the comparison."""
    versions = {
        "lintgv": version_of([*lintgv_argv(), "--version"]),
        "python (lintgv)": version_of([sys.executable, "--version"]),
        "/usr/bin/time": version_of(["/usr/bin/time", "--version"]),
    }
    for name in ("ast-grep", "semgrep", "fixit"):
        path = find_tool(name, setup.bin_dir)
        versions[name] = version_of([path, "--version"]) if path else "not found"
    return versions


def _copy_tree(source: Path, into: Path) -> Path:
    target = into / source.name
    shutil.copytree(source, target, symlinks=True, ignore=shutil.ignore_patterns(".lintgv_cache"))
    return target


def _edit_target(tree: Path) -> Path | None:
    """Return a Python file to touch and edit between warm runs: a big one, for realism."""
    candidates = [p for p in tree.rglob("*.py") if p.is_file() and not p.is_symlink()]
    if not candidates:
        return None
    return max(candidates, key=lambda p: (p.stat().st_size, p.as_posix()))


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", nargs="?", type=Path, default=DEFAULT_TREE)
    parser.add_argument("--runs", type=int, default=5, help="timed runs of fast commands")
    parser.add_argument(
        "--slow-runs",
        type=int,
        default=3,
        help="timed runs of semgrep, Fixit and fix (0: time the warm-up run alone)",
    )
    parser.add_argument(
        "--bin-dir", type=Path, help="where ast-grep, semgrep and fixit are (else PATH)"
    )
    parser.add_argument(
        "--tools",
        default="lintgv,ast-grep,semgrep,fixit",
        help="comma-separated tools to run (default: all)",
    )
    parser.add_argument("--no-copy", action="store_true", help="run on TREE itself")
    parser.add_argument("--no-fix", action="store_true", help="leave out `lintgv fix --diff`")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per run")
    parser.add_argument("--markdown", type=Path, help="also write the tables here")
    parser.add_argument("--label", help="name of the tree in the tables (default: its name)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the comparison and print (and optionally write) the tables."""
    args = parse_args(argv)
    source = args.tree.resolve()
    if not source.is_dir():
        print(f"compare.py: {args.tree} is not a folder", file=sys.stderr)
        return 2
    wanted = {t.strip() for t in args.tools.split(",") if t.strip()}
    # lintgv is timed as pip installs it, its bytecode compiled: where the environment
    # forbids writing bytecode (PYTHONDONTWRITEBYTECODE), every run of an editable install
    # compiles lintgv's modules again (about 0.1 s), which no user's installation pays.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="lintgv-bench-") as scratch:
        work = Path(scratch)
        tree = source if args.no_copy else _copy_tree(source, work)
        setup = Setup(
            tree=tree,
            cache=work / "cache",
            runs=args.runs,
            slow_runs=args.slow_runs,
            bin_dir=args.bin_dir.resolve() if args.bin_dir else None,
            edit_target=None if args.no_copy else _edit_target(tree),
        )
        info = machine()
        versions = tool_versions(setup)
        commands = [c for c in lintgv_commands(setup) + other_commands(setup) if c.tool in wanted]
        if args.no_fix:
            commands = [c for c in commands if not c.scenario.startswith("fix")]
        log(f"benchmark of {source} ({len(commands)} commands)")
        results = measure_all(commands, tree, args.timeout, log)
        info["load average at end"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    label = args.label or source.name
    text = render_markdown(label, info, versions, results, lintgv_families())
    print(text)
    if args.markdown is not None:
        args.markdown.write_text(text)
        log(f"wrote {args.markdown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
