"""What running one copy showed."""

from dataclasses import dataclass
from pathlib import Path

from lintgv.runtime.copies.sequence import SEQUENCE


def _shown(name: str) -> str:
    return name if name else '""'


_ERROR = "<error: "


def error_name(message: str) -> str:
    """Return how a call that raised (Python) or threw (C++) shows among the names."""
    return f"{_ERROR}{message}>"


@dataclass(frozen=True)
class Difference:
    index: int  # position in the sequence
    given: str  # the name asked for
    copy: str  # what the copy returned (or its error, in angle brackets)
    supply: str  # what NameSupply.fresh_name returned

    def __str__(self) -> str:
        return f"{_shown(self.copy)} → {_shown(self.supply)}"


@dataclass(frozen=True)
class CopyRun:
    """One copy's names for the sequence, or why it could not run."""

    helper: str
    path: Path
    line: int
    language: str
    expected: tuple[str, ...]
    names: tuple[str, ...] | None = None  # None: it could not execute
    reason: str | None = None  # why it could not execute

    @classmethod
    def of_names(
        cls,
        helper: str,
        path: Path,
        line: int,
        language: str,
        expected: tuple[str, ...],
        names: tuple[str, ...],
    ) -> "CopyRun":
        """Return the run that gave `names`. A copy whose every call failed never named
        anything: the harness could not give it what it needs (an import the sandbox
        drops, a global defined elsewhere), which says nothing of its names."""
        if names and all(name.startswith(_ERROR) for name in names):
            reason = f"every call failed: {names[0].removeprefix(_ERROR).removesuffix('>')}"
            return cls(helper, path, line, language, expected, reason=reason)
        return cls(helper, path, line, language, expected, names)

    @property
    def ran(self) -> bool:
        return self.names is not None

    @property
    def differences(self) -> tuple[Difference, ...]:
        if self.names is None:
            return ()
        return tuple(
            Difference(i, SEQUENCE[i], got, want)
            for i, (got, want) in enumerate(zip(self.names, self.expected, strict=True))
            if got != want
        )

    @property
    def repeats_names(self) -> bool:
        """Tell whether the copy handed out a name twice (its callers must record names)."""
        names = [n for n in self.names or () if not n.startswith("<")]
        return len(set(names)) < len(names)

    def summary(self, limit: int = 3) -> str:
        """Return a one-line account: same names, the first differences, or why not run."""
        if self.names is None:
            return f"could not execute: {self.reason}"
        found = self.differences
        if not found:
            return f"same names as NameSupply.fresh_name on all {len(SEQUENCE)} names"
        shown = ", ".join(str(d) for d in found[:limit])
        more = f" (+{len(found) - limit} more)" if len(found) > limit else ""
        note = (
            "; it hands out a name twice (its callers record names)" if self.repeats_names else ""
        )
        count = f"{len(found)} of {len(SEQUENCE)}"
        return f"names differ from NameSupply.fresh_name at {count}: {shown}{more}{note}"
