"""Stage two of `lintgv fix`: changes that span several files (a unique-name copy made a
NameSupply member: header, source and callers), each proved and written as one.

The proof: every file of the change parses with no more syntax errors than before, and
planning again on the changed texts finds no copy of that helper left.
"""

import logging
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import field
from pathlib import Path

from lintgv.codemods.unique_name_copies import Copy
from lintgv.codemods.unique_names import Change, Skipped, plan_changes
from lintgv.config import Config, config_for
from lintgv.errors import ParseError
from lintgv.fixing.files import (
    ChangedOnDisk,
    NotWritable,
    StoredText,
    Tree,
    digest_of,
    interrupts_deferred,
    stored_text,
    write_atomically,
)
from lintgv.fixing.proof import NameProof
from lintgv.fixing.settle import syntax_errors
from lintgv.fixing.thread_edits import excluded_naming
from lintgv.holding import CppParses, Holding
from lintgv.identities import bare_name
from lintgv.model import Applicability, FileError, Language
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.python import parse_module
from lintgv.paths import display_path
from lintgv.reading import read_source
from lintgv.records import frozen, mutable

log = logging.getLogger(__name__)


@frozen
class GroupFix:
    """What became of one multi-file change."""

    helper: str
    title: str
    sites: int
    paths: tuple[Path, ...]
    done: bool  # written, or (for --diff) shown
    reason: str | None = None  # why not, when not done
    # A supply parameter threaded into a function (fixing/threading.py), not a copy
    # replaced; `evidence` then says which callers got a new, empty supply.
    threaded: bool = False
    evidence: str = ""
    # The copy stays as a wrapper of the supply (it returns a `Doc` made of the name).
    wrapped: bool = False


@mutable
class _Known:
    stored: StoredText
    original: str  # text as the run found it on disk
    text: str  # text now (after earlier fixes)
    digest: str  # hash of the bytes on disk now


def _folder_config(path: Path) -> Config:
    return config_for(path.parent)


@mutable
class Workspace:
    """The texts of the C++ files: as stage one left them, else as read from disk; and
    the configs a run found them with (a change follows its files' `tvm-version`)."""

    max_size: int
    known: dict[Path, _Known] = field(default_factory=dict)
    configs: Mapping[Path, Config] = field(default_factory=dict)
    # The config of a file the run did not find: by default its folder's config file's.
    # The language server passes its own, which lays the editor's settings over that.
    config_source: Callable[[Path], Config] = _folder_config
    # Which texts hold a word or match a pattern: every plan of multi-file changes asks,
    # and most texts stay the same from one plan to the next (a text changed is a new
    # object).
    holding: Holding = field(default_factory=Holding)

    def config_of(self, path: Path) -> Config:
        """Return the config of `path`: the run's, else `config_source`'s."""
        return self.configs.get(path) or self.config_source(path)

    def remember(
        self, path: Path, stored: StoredText, original: str, text: str, digest: str
    ) -> None:
        """Record a file stage one has read (and perhaps changed)."""
        self.known[path] = _Known(stored, original, text, digest)

    def read(self, path: Path) -> str | None:
        """Return the current text of `path`, or None when it cannot be read as text."""
        known = self.known.get(path)
        if known is None:
            loaded = read_source(path, self.max_size)
            if isinstance(loaded, FileError):
                return None
            stored = stored_text(loaded.text, loaded.data)
            known = self.known[path] = _Known(
                stored, stored.text, stored.text, digest_of(loaded.data)
            )
        return known.text

    def plan(
        self,
        paths: list[Path],
        names: frozenset[str],
        within: Collection[Path] | None,
        parses: CppParses,
    ) -> tuple[list[Change], list[Skipped]]:
        """Plan the multi-file changes of the copies named `names` among `paths`, on the
        current texts (see plan_changes). `parses` is kept by a caller while it plans:
        not here, where the parses would outlive the plans of copies and add to the peak
        of the supply stage after them."""
        return plan_changes(paths, self.read, names, within, self.config_of, self.holding, parses)

    def original(self, path: Path) -> str:
        known = self.known[path]
        return known.stored.stored(known.original)

    def current(self, path: Path) -> str:
        known = self.known[path]
        return known.stored.stored(known.text)


def prove_change(
    change: Change,
    workspace: Workspace,
    paths: list[Path],
    names: frozenset[str],
    parses: CppParses | None = None,
) -> str | None:
    """Return why `change` fails its proof (see the module docstring), or None; the
    planning it does again reuses the files' `parses`."""
    for path, text in change.texts.items():
        before = workspace.read(path) or ""
        language = Language.PYTHON if path.suffix in (".py", ".pyi") else Language.CPP
        if language == Language.PYTHON:
            try:
                parse_module(text)
            except (ParseError, cst.ParserSyntaxError) as exc:
                return f"{path} would not parse: {exc}"
            continue
        added = syntax_errors(text, language) - syntax_errors(before, language)
        if added > 0:
            return f"{path} would have {added} more syntax error(s)"

    def overlay(path: Path) -> str | None:
        return change.texts.get(path, workspace.read(path))

    changes, skipped = plan_changes(
        paths,
        overlay,
        names,
        within=set(change.texts),
        config_of=workspace.config_of,
        holding=workspace.holding,
        parses=parses,
    )
    if any(c.helper == change.helper for c in changes) or any(
        s.helper == change.helper for s in skipped
    ):
        return f"{change.helper} is still there after the change"
    return None


def _commit(change: Change, workspace: Workspace, write: bool, tree: Tree | None) -> str | None:
    """Write every file of the change (or only remember it, for --diff); return why not.
    With a `tree`, a change touching a file `fix` may not write is not made at all."""
    refusals = [(p, tree.refusal(p)) for p in change.texts] if tree is not None else []
    for path, refusal in refusals:
        if refusal is not None:
            return f"{path} {refusal}; nothing written"
    if write:
        assert tree is not None, "writes go only to a known tree"
        for path in change.texts:
            known = workspace.known[path]
            try:
                if digest_of(path.read_bytes()) != known.digest:
                    return f"{path} changed on disk since it was read; nothing written"
            except OSError as exc:
                return f"{path} cannot be read again: {exc}"
        with interrupts_deferred():  # the files of one change are written together
            written: list[tuple[Path, bytes, str]] = []
            for path, text in change.texts.items():
                known = workspace.known[path]
                data = known.stored.encode(text)
                try:
                    write_atomically(path, data, known.digest, tree)
                except (ChangedOnDisk, NotWritable, OSError) as exc:
                    _roll_back(written, tree)
                    return f"{path} could not be written ({exc}); nothing kept"
                written.append((path, known.stored.encode(known.text), digest_of(data)))
        for path, text in change.texts.items():
            known = workspace.known[path]
            known.digest = digest_of(known.stored.encode(text))
            known.text = text
        return None
    for path, text in change.texts.items():
        workspace.known[path].text = text
    return None


def _roll_back(written: list[tuple[Path, bytes, str]], tree: Tree) -> None:
    """Put back the files of a change that could not be written whole."""
    for path, old, digest in reversed(written):
        try:
            write_atomically(path, old, digest, tree)
        except (ChangedOnDisk, NotWritable, OSError):
            continue  # reported by the caller as a change not kept


def fix_groups(
    paths: Iterable[Path],
    workspace: Workspace,
    names: frozenset[str],
    *,
    within: Collection[Path] | None = None,
    unsafe: bool,
    write: bool,
    max_rounds: int,
    prove: NameProof | None = None,
    tree: Tree | None = None,
    given: Collection[Path] | None = None,
    excluded: Callable[[], Sequence[Path]] = tuple,
) -> tuple[list[GroupFix], list[Skipped]]:
    """Apply every multi-file change that passes its proof; return what happened and the
    copies left alone, with the reason. Copies are looked for in the files `within`
    (default: all of `paths`), their declarations and calls in all. A change that must
    touch a file not among the files `given` (when given), or whose copy an `excluded`
    file names (a call there could not be updated), is not made. With `prove`, each
    C++ copy is run (in the sandbox) to tell whether its change is safe; without, no
    code of the tree runs."""
    ordered = sorted(paths, key=lambda p: p.as_posix())
    parses = CppParses()
    outcomes: list[GroupFix] = []
    handled: set[str] = set()
    skipped: list[Skipped] = []
    for _ in range(max_rounds):
        try:
            changes, skipped = workspace.plan(ordered, names, within, parses)
        except Exception as exc:  # a planning bug must not lose the fixes already made
            log.debug("planning multi-file changes failed", exc_info=True)
            why = f"multi-file changes could not be planned: {type(exc).__name__}: {exc}"
            outcomes.append(GroupFix("(all unique-name copies)", "", 0, (), False, why))
            return outcomes, []
        pending = [c for c in changes if c.helper not in handled]
        if not pending:
            break
        touched: set[Path] = set()
        for change in pending:
            if touched & set(change.texts):
                continue  # planned on texts another change just rewrote: next round
            handled.add(change.helper)
            files = tuple(sorted(change.texts, key=lambda p: p.as_posix()))
            reason: str | None = None
            applicability, evidence = (
                prove.judge(change) if prove else (change.applicability, change.evidence)
            )
            if applicability == Applicability.UNSAFE and not unsafe:
                reason = f"unsafe fix ({evidence}); apply with --unsafe"
            reason = reason or beyond_given(change, given)
            reason = reason or excluded_naming(excluded, workspace.read, bare_name(change.helper))
            reason = reason or prove_change(change, workspace, ordered, names, parses)
            reason = reason or _commit(change, workspace, write, tree)
            wrapped = isinstance(change.copy, Copy) and bool(change.copy.wrapper)
            outcomes.append(
                GroupFix(
                    change.helper,
                    change.title,
                    change.sites,
                    files,
                    reason is None,
                    reason,
                    wrapped=wrapped,
                )
            )
            if reason is None:
                touched.update(change.texts)
    left = [s for s in skipped if s.helper not in handled]
    return outcomes, left


def beyond_given(change: Change, given: Collection[Path] | None) -> str | None:
    """Return why `change` is not made when it must touch a file not among those given."""
    outside = sorted(p for p in change.texts if given is not None and p not in given)
    if outside:
        return f"{display_path(outside[0])} must change too, and is not among the files given"
    return None


def apply_change(
    change: Change,
    workspace: Workspace,
    paths: list[Path],
    names: frozenset[str],
    *,
    write: bool,
    tree: Tree | None,
) -> GroupFix:
    """Prove and apply (or, for --diff, remember) one multi-file change planned elsewhere
    (a supply threaded into a function: fixing/threading.py)."""
    files = tuple(sorted(change.texts, key=lambda p: p.as_posix()))
    for path in files:
        workspace.read(path)  # known before it is changed, for the diff and the write
    reason = prove_change(change, workspace, sorted(paths, key=lambda p: p.as_posix()), names)
    reason = reason or _commit(change, workspace, write, tree)
    return GroupFix(
        change.helper,
        change.title,
        change.sites,
        files,
        reason is None,
        reason,
        threaded=True,
        evidence=change.evidence,
    )
