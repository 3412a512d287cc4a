"""One document version, checked with the core engine, and its fixes computed once.

Everything here runs on the server's single lint thread; an Analysis is never changed
after it is made, except for its memoised fixes, which are filled under a lock.
"""

import threading
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Any

from lintgv.discovery import Candidate
from lintgv.engine import check
from lintgv.fixing.files import stored_text
from lintgv.fixing.settle import Settled, settle
from lintgv.lines import LineIndex
from lintgv.model import Edit, FileResult, Finding, Language, ProjectFacts, SourceFile, Span
from lintgv.parsing.python import python_error
from lintgv.records import mutable
from lintgv_server.convert import line_index


@mutable
class Analysis:
    """A document version's findings; its fixes are computed on first use only."""

    uri: str
    version: int | None
    generation: int  # settings and configs in force; a change makes older ones stale
    text: str
    target: Candidate | None  # None: not checked (disabled, or not Python or C++)
    result: FileResult = field(default_factory=lambda: FileResult(Path()))
    helper_names: frozenset[str] = frozenset()
    thin_names: frozenset[str] = frozenset()
    config_error: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _fix_result: FileResult | None = field(default=None, repr=False)
    _settled: dict[bool, Settled] = field(default_factory=dict, repr=False)
    # Multi-file changes touching this document (lintgv_server.multi_file_actions), once planned.
    group_changes: list[Any] | None = field(default=None, repr=False)
    # Supply-threading changes for some GV101 sites of this document, by those sites.
    thread_changes: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict, repr=False)
    # "Ignore CODE on this line" (lintgv_server.ignores): each (code, line) proved, with its
    # edit or None, and what the proofs read of this version, once read.
    ignores: dict[tuple[str, int], Edit | None] = field(default_factory=dict, repr=False)
    ignore_facts: Any = field(default=None, repr=False)

    @property
    def index(self) -> LineIndex:
        """The lines of this version, as the client counts them."""
        return line_index(self.text)

    @property
    def newline(self) -> str:
        """The document's line end, which inserted text must use too."""
        return stored_text(self.text, b"").newline

    def fix_source(self) -> str:
        """Return the text fixes are computed on: the document with `\n` line ends."""
        return stored_text(self.text, b"").text

    def _check_whole(self, text: str) -> FileResult:
        assert self.target is not None
        target = self.target
        return check(
            SourceFile(target.path, target.language, text, target.module_name),
            target.config,
            ProjectFacts(self.helper_names, self.thin_names),
            whole=True,
        )

    @cached_property
    def _diagnosed(self) -> FileResult | None:
        """The check the diagnostics came from when fixes are computed on the same text
        (no CRLF or CR to normalise): its partial parse gives the findings and fixes a whole
        one does (tests/test_one_analysis.py), as `lintgv fix` reuses its first pass.
        None when there is no such check. Worked out once a version (it parses)."""
        target = self.target
        if target is None or self.result.path != target.path or self.fix_source() != self.text:
            return None
        # A syntax error outside the lines the partial parse kept: the whole parse reports
        # it and offers no fix (see lintgv.parsing.python.python_error).
        if self.syntax_error is not None:
            return None
        return self.result

    @cached_property
    def syntax_error(self) -> tuple[int, int, str] | None:
        """Where and why Python's parser rejects this version (None for C++), found once:
        fixes and ignore comments both ask, and it reads the whole document."""
        if self.target is None or self.target.language != Language.PYTHON:
            return None
        return python_error(self.text)

    def fix_findings(self) -> tuple[Finding, ...]:
        """Return the findings with the fixes `lintgv fix` would apply."""
        if self.target is None:
            return ()
        with self._lock:
            if self._fix_result is None:
                diagnosed = self._diagnosed
                self._fix_result = (
                    diagnosed if diagnosed is not None else self._check_whole(self.fix_source())
                )
            return self._fix_result.findings

    def fix_for(self, finding: Finding) -> Finding | None:
        """Return the finding of the fix computation at the same site, with its fix."""
        for candidate in self.fix_findings():
            if candidate.code == finding.code and candidate.span == finding.span:
                return candidate if candidate.fix is not None else None
        return None

    def settled(self, unsafe: bool) -> Settled | None:
        """Return the file with every applicable fix applied and proved, as `lintgv fix` does."""
        if self.target is None:
            return None
        with self._lock:
            if unsafe not in self._settled:
                target = self.target
                self._settled[unsafe] = settle(
                    self.fix_source(),
                    target.language,
                    self._check_whole,
                    unsafe=unsafe,
                    checked=self._diagnosed,
                )
            return self._settled[unsafe]

    def fixed_source(self, unsafe: bool) -> tuple[str, str] | None:
        """Return (before, after) with `\\n` line ends when fixing changes the text."""
        settled = self.settled(unsafe)
        if settled is None or not settled.applied:
            return None
        return self.fix_source(), settled.text

    def findings_at(self, span: Span) -> list[Finding]:
        """Return the findings whose span touches the lines of `span`."""
        return [
            f
            for f in self.result.findings
            if f.span.start_line <= span.end_line and f.span.end_line >= span.start_line
        ]
