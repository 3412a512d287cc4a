"""What the comparison times (a Command) and what it measured (Measured); compare.py
runs them, report.py writes them up."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.findings import Counts


@dataclass
class Command:
    """One thing to time: a tool, its argument vector and how to read its output."""

    scenario: str
    tool: str
    argv: list[str]
    shown: str  # the command as printed: placeholders instead of machine paths
    parse: Callable[[str, str, Path], Counts] | None = None
    cwd: Path | None = None
    runs: int = 5
    before_each: Callable[[int], None] | None = None  # called with -1 before the warm-up
    prime: bool = False  # run once before the warm-up (fills lintgv's cache)
    after_all: Callable[[], None] | None = None
    skipped: str = ""  # why it was not measured


@dataclass
class Measured:
    command: Command
    seconds: list[float] = field(default_factory=list)
    max_rss_kb: list[int] = field(default_factory=list)
    tree_rss_kb: int = 0
    exit_codes: list[int] = field(default_factory=list)
    counts: Counts | None = None
    failure: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds) if self.seconds else float("nan")
