"""What the server keeps of each open document between its versions, so that the next
version is checked faster (engine.Reuse): the last C++ parse, to parse the next
incrementally, with its regions' memo and where its triggers matched, and libcst's
parses of the last Python version's top-level statements. Kept while the document is
open and dropped when it closes, so memory follows what is open. Used by the lint
thread only."""

from dataclasses import dataclass, field

from lintgv.parsing.cpp import ParsedCpp, RegionMemo, parse_cpp
from lintgv.parsing.python import ModuleParts
from lintgv.prefilter import Hints


@dataclass
class DocumentMemory:
    """One open document's memory (see the module docstring)."""

    hints: Hints = field(default_factory=Hints)
    python_parts: ModuleParts = field(default_factory=ModuleParts)
    parsed_cpp: ParsedCpp | None = None  # None until a version parses
    memo: RegionMemo = field(default_factory=RegionMemo)

    def parse_cpp(self, text: str) -> ParsedCpp:
        """Parse this version of the document, incrementally from the last one."""
        # Until this parse succeeds, the document has no parse to start from.
        previous, self.parsed_cpp = self.parsed_cpp, None
        self.memo.next_version()
        self.parsed_cpp = parse_cpp(text, previous, self.memo)
        return self.parsed_cpp
