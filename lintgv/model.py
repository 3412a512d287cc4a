"""Frozen values that flow between lintgv's stages."""

from dataclasses import field, replace
from enum import StrEnum
from pathlib import Path

from lintgv.records import frozen


class _Value(StrEnum):
    """A member pickles as a call of its class with its value. Some Python releases
    (3.11.2, Debian 12's) pickle members through `builtins.getattr`, which the cache's
    unpickler refuses, and every warm run then started afresh."""

    def __reduce_ex__(self, protocol: object) -> tuple[type, tuple[str]]:
        return type(self), (self.value,)


class Language(_Value):
    PYTHON = "python"
    CPP = "cpp"


class Severity(_Value):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Applicability(_Value):
    """How much a fix can be trusted; `lintgv fix` applies SAFE ones unless told more."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY = "display"
    NONE = "none"


class Blocker(_Value):
    """What keeps a rule's own fix from a site when a later stage can clear it (the
    finding's reason says it in words)."""

    # Nothing in scope can name the GlobalVar, in a release with GlobalVarSupply: `fix
    # --unsafe` threads one into the function from its callers (fixing/thread_edits.py).
    NOTHING_IN_SCOPE = "nothing-in-scope"


# What joins a message to why its rule offers no fix.
NO_FIX = "; no automatic fix: "


@frozen
class Message:
    """What a rule says of a site, in parts: the problem, then the remedy, joined by a
    semicolon (house style), and, when the rule says so, why it offers no fix."""

    problem: str
    remedy: str
    no_fix: str = ""

    def __str__(self) -> str:
        said = f"{self.problem}; {self.remedy}"
        return f"{said}{NO_FIX}{self.no_fix}" if self.no_fix else said


@frozen(order=True)
class Span:
    """A range of text: 1-based lines, 0-based columns counted in code points."""

    start_line: int
    start_col: int
    end_line: int
    end_col: int

    def moved(self, lines: int) -> "Span":
        """Return the span `lines` lines further down (up, when negative)."""
        return Span(self.start_line + lines, self.start_col, self.end_line + lines, self.end_col)


@frozen
class Edit:
    """Replace `old_text`, which `span` holds, with `text` (an empty span inserts, and its
    `old_text` is ""). The applier refuses an edit whose span no longer holds `old_text`.

    `path` is None for an edit of the finding's own file; a change across files (a
    unique-name copy replaced in its header, source and callers) names each other file.
    """

    span: Span
    text: str
    old_text: str
    path: Path | None = None

    def moved(self, lines: int) -> "Edit":
        return Edit(self.span.moved(lines), self.text, self.old_text, self.path)


@frozen
class Fix:
    title: str
    applicability: Applicability
    edits: tuple[Edit, ...]

    def moved(self, lines: int) -> "Fix":
        return Fix(self.title, self.applicability, tuple(e.moved(lines) for e in self.edits))


@frozen
class SourceFile:
    path: Path
    language: Language
    text: str
    # Its dotted name in the project's import space (`tvm.relay.lift`): relative imports
    # resolve through it. Empty when the file is not under a package root.
    module_name: str = ""


@frozen
class ProjectFacts:
    """What a file's check takes from the other files of its project: the unique-name
    helpers they define and the functions of a helper's name they define as thin
    wrappers of a supply (lintgv.helper_index builds them, for `check` and the editor)."""

    helpers: frozenset[str] = frozenset()
    thin: frozenset[str] = frozenset()


@frozen
class Finding:
    code: str
    rule: str
    path: Path
    span: Span
    message: str
    severity: Severity
    fix: Fix | None = None
    # First line of the enclosing statement, where a suppression comment may also sit.
    statement_line: int = 0
    # Why the rule has no fix to apply here, when it knows (the message says it too).
    reason: str | None = None
    # What the finding is about, for other stages to act on without reading the message:
    # a unique-name helper as its file names it (`CodeGenC::GetUniqueName`,
    # `Printer.name_for`) for GV201 and GV202, the name called for GV203.
    subject: str = ""
    # What keeps the rule's own fix from the site, when a later stage can clear it.
    blocker: Blocker | None = None
    # What to do by hand: the remedy its message was made from (Message.remedy).
    remedy: str = ""

    def moved(self, lines: int) -> "Finding":
        """Return the finding, its fix and statement `lines` lines further down."""
        return replace(
            self,
            span=self.span.moved(lines),
            fix=self.fix.moved(lines) if self.fix is not None else None,
            statement_line=self.statement_line + lines if self.statement_line else 0,
        )


@frozen
class FileError:
    """A file, or one rule on it, that could not be checked."""

    path: Path
    message: str
    line: int | None = None
    column: int | None = None
    code: str | None = None
    # A file `fix` may not write (outside the tree, hard-linked, not a regular file): its
    # findings stand, with this error's message as the reason.
    refused: bool = False
    # A rule's own bug, not the file's: the language server logs it rather than show it
    # on the document.
    crash: bool = False


@frozen
class FileResult:
    path: Path
    findings: tuple[Finding, ...] = ()
    errors: tuple[FileError, ...] = ()
    # Names of ad-hoc unique-name helpers defined in this file that the rules do not
    # already know by name; their call sites elsewhere are found in a second pass.
    defined_helpers: frozenset[str] = field(default_factory=frozenset)
    # Functions with a helper's name (`Printer::GetUniqueName`) whose every definition in
    # this file is a thin wrapper around a supply: their declarations elsewhere are not
    # a copy's (GV202).
    thin_helpers: frozenset[str] = field(default_factory=frozenset)
