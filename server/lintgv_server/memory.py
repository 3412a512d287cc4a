"""What the server keeps of each open document between its versions, so that the next
version is checked faster (engine.Reuse): the last C++ parse, to parse the next
incrementally from the client's own changes, with its regions' memo and where its
triggers matched, and libcst's parses of the last Python version's top-level
statements. Kept while the document is open and dropped when it closes, so memory
follows what is open. Used by the lint thread only, except the change log, which the
document fills on the event loop and hands over as a copy."""

from dataclasses import field

from lintgv.parsing.cpp import ParsedCpp, parse_cpp
from lintgv.parsing.cpp_incremental import TextChange
from lintgv.parsing.cpp_regions import RegionMemo
from lintgv.parsing.python_parts import ModuleParts
from lintgv.prefilter import Hints
from lintgv.records import mutable

# Changes kept per document: more between two checks and the texts are compared instead.
_KEPT = 64


@mutable
class ChangeLog:
    """The changes a client made to a document: `count` since it opened, the last of them
    in `recent` (as text offsets), the first of which is change number `first`."""

    count: int = 0
    first: int = 0
    recent: list[TextChange] = field(default_factory=list)

    def add(self, change: TextChange) -> None:
        self.count += 1
        self.recent.append(change)
        if len(self.recent) > _KEPT:
            del self.recent[0]
            self.first += 1

    def lost(self) -> None:
        """Note a change that replaced the whole text: what came before cannot be replayed."""
        self.count += 1
        self.recent.clear()
        self.first = self.count

    def since(self, count: int) -> list[TextChange] | None:
        """Return the changes made after the first `count`, or None if some are not kept."""
        if count < self.first or count > self.count:
            return None
        return self.recent[count - self.first :]

    def copy(self) -> "ChangeLog":
        return ChangeLog(self.count, self.first, list(self.recent))


@mutable
class DocumentMemory:
    """One open document's memory (see the module docstring)."""

    hints: Hints = field(default_factory=Hints)
    python_parts: ModuleParts = field(default_factory=ModuleParts)
    parsed_cpp: ParsedCpp | None = None  # None until a version parses
    memo: RegionMemo = field(default_factory=RegionMemo)
    # The client's changes up to the version about to be checked, and how many of them
    # the last parse had seen (None: unknown, the texts are compared).
    upcoming: ChangeLog | None = None
    parsed_count: int | None = None

    def parse_cpp(self, text: str) -> ParsedCpp:
        """Parse this version of the document, incrementally from the last one."""
        # Until this parse succeeds, the document has no parse to start from.
        previous, self.parsed_cpp = self.parsed_cpp, None
        log, self.upcoming = self.upcoming, None
        changes = None
        if log is not None and self.parsed_count is not None:
            changes = log.since(self.parsed_count)
        self.parsed_count = None
        self.memo.next_version()
        self.parsed_cpp = parse_cpp(text, previous, self.memo, changes)
        self.parsed_count = log.count if log is not None else None
        return self.parsed_cpp
