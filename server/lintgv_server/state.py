"""The server's state: settings per workspace folder, configs, open documents' analyses,
and the one thread that runs the engine. Handlers live in app.py; this module owns what
they share, and every change to it happens on the event loop's thread."""

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument, Workspace

from lintgv import __version__
from lintgv.config import Config
from lintgv.discovery import Candidate, Discovery
from lintgv.engine import check
from lintgv.errors import ConfigError
from lintgv.fixing.files import Tree
from lintgv.helper_index import HelperIndex
from lintgv.lines import lines_with_breaks
from lintgv.model import Language, ProjectFacts, SourceFile
from lintgv_server.analysis import Analysis
from lintgv_server.convert import fs_path, line_index, to_offset
from lintgv_server.memory import ChangeLog, DocumentMemory
from lintgv_server.protocol import LintgvProtocol, converter
from lintgv_server.scan_cache import ScanCache
from lintgv_server.settings import ClientSettings, layered, parse_settings

log = logging.getLogger(__name__)

T = TypeVar("T")

CONFIGURATION_SECTION = "lintgv"


class LintgvDocument(TextDocument):
    """pygls' document, with lines split at `\n`, `\r\n` and `\r` only, as lintgv and the
    LSP count them (`str.splitlines` also splits at form feeds and other separators), and
    changed in place of the edited range rather than rebuilt line by line. It keeps the
    client's last changes as text offsets (`changes`), so that the next C++ parse is told
    what changed rather than comparing texts."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.changes = ChangeLog()

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(lines_with_breaks(self.source))

    def _apply_full_change(self, change: types.TextDocumentContentChangeEvent) -> None:
        super()._apply_full_change(change)
        self.changes.lost()

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        index = line_index(self.source)
        start = to_offset(index, self._position_codec, change.range.start)
        end = max(start, to_offset(index, self._position_codec, change.range.end))
        self._source = self.source[:start] + change.text + self.source[end:]
        self.changes.add((start, end, change.text))


class LintgvWorkspace(Workspace):
    def update_text_document(
        self,
        text_doc: types.VersionedTextDocumentIdentifier,
        change: types.TextDocumentContentChangeEvent,
    ) -> None:
        # A change to a document the client never opened is dropped (pygls raises a
        # KeyError); documents.did_change tells the client so.
        if unquote(text_doc.uri) in self.text_documents:
            super().update_text_document(text_doc, change)

    def _create_text_document(
        self,
        doc_uri: str,
        source: str | None = None,
        version: int | None = None,
        language_id: str | None = None,
    ) -> TextDocument:
        return LintgvDocument(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self._position_codec,
        )


def use_lintgv_documents(server: LanguageServer) -> None:
    """Replace the workspace pygls made at `initialize` by one that splits lines as lintgv."""
    old = server.protocol.workspace
    server.protocol._workspace = LintgvWorkspace(
        old.root_uri, old._sync_kind, list(old.folders.values()), old.position_encoding
    )


class LintgvServer(LanguageServer):
    """A pygls server holding lintgv's state."""

    def __init__(self, settings: ClientSettings | None = None) -> None:
        super().__init__(
            "lintgv",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=LintgvProtocol,
            converter_factory=converter,
        )
        self.settings = settings or ClientSettings()
        # Per workspace folder (a folder URI's path), from workspace/configuration.
        self.folder_settings: dict[str, ClientSettings] = {}
        self.discovery = Discovery({})
        # Each config file's config as a folder's files see it, built once: equal configs
        # that are one object also cross to the scan's workers once per batch.
        self.layered: dict[tuple[int, Path | None, int], tuple[Config, ClientSettings, Config]] = {}
        # Each config narrowed to one rule that finds unique-name helpers (None: it
        # enables none), for the helper index (scan.index_workspace).
        self.helper_configs: dict[int, tuple[Config, Config | None]] = {}
        self.generation = 0
        self.analyses: dict[str, Analysis] = {}
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.published: dict[str, int | None] = {}  # uri → version last pushed
        self.helper_index = HelperIndex()  # filled in the background (scan.index_workspace)
        self.scanned_uris: set[str] = set()  # closed files the last scan reported on
        self.scan_cache = ScanCache()
        # Each open Python document's top-level statements, reused by its next version.
        self.memories: dict[str, DocumentMemory] = {}  # per open document (memory.py)
        self.reported: set[tuple[str, int | None, str]] = set()  # logged crashes
        # The engine runs on one thread: analyses never race, and the event loop stays free.
        self.lint_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lintgv")

    # --- settings and configs -------------------------------------------------------

    def folders(self) -> list[Path]:
        """Return the workspace folders (or the root) as paths, longest first."""
        workspace = self.protocol._workspace
        if workspace is None:
            return []
        uris = [f.uri for f in workspace.folders.values()] or [workspace.root_uri or ""]
        paths = [Path(p) for p in (fs_path(u) for u in uris if u) if p]
        return sorted(paths, key=lambda p: len(p.parts), reverse=True)

    def folder_of(self, path: Path) -> Path | None:
        """Return the workspace folder holding `path`."""
        return next((f for f in self.folders() if path.is_relative_to(f)), None)

    def write_tree(self) -> Tree:
        """Return where the server may plan edits of files other than the document a
        request is about: `lintgv fix`'s rule with the workspace folders as its tree
        (real path under a folder, no link leading out of it, not hard-linked)."""
        return Tree(tuple(os.path.realpath(f) for f in self.folders()))

    def settings_for(self, path: Path) -> ClientSettings:
        """Return the client settings that govern `path` (its folder's, else the global)."""
        folder = self.folder_of(path)
        if folder is not None and str(folder) in self.folder_settings:
            return self.folder_settings[str(folder)]
        return self.settings

    @property
    def helper_names(self) -> frozenset[str]:
        """The unique-name helpers defined anywhere in the workspace, as far as known."""
        return self.helper_index.names

    @property
    def thin_names(self) -> frozenset[str]:
        """The functions with a helper's name defined as thin wrappers, as far as known."""
        return self.helper_index.thin

    @property
    def project_facts(self) -> ProjectFacts:
        """What a check takes from other files: helpers and thin wrappers."""
        return ProjectFacts(self.helper_names, self.thin_names)

    def invalidate(self) -> None:
        """Forget every config and analysis: settings or config files changed."""
        self.discovery = Discovery({})
        self.layered.clear()
        self.helper_configs.clear()
        self.generation += 1

    def config_for(self, path: Path) -> Config:
        """Return the config of the file at `path`: its config file, then client settings.

        Raises ConfigError for a bad config file or setting."""
        config = self.discovery.config_for(path.parent)
        folder = self.folder_of(path)
        settings = self.settings_for(path)
        key = (id(config), folder, id(settings))
        known = self.layered.get(key)
        if known is not None and known[0] is config and known[1] is settings:
            return known[2]
        found = config
        if config.source is None and folder is not None:
            # No config file: globs are relative to the workspace folder, not our cwd.
            found = replace(config, root=folder)
        found = layered(found, settings)
        self.layered[key] = (config, settings, found)
        return found

    def target_for(self, path: Path) -> Candidate | None:
        """Return how to check the file at `path`, or None when lintgv does not check it."""
        config = self.config_for(path)
        language = self.discovery.language_of(path.name, config)
        if language is None or not self.settings_for(path).enable:
            return None
        module = self.discovery.module_name(str(path)) if language == Language.PYTHON else ""
        return Candidate(path, language, config, module)

    def apply_client_settings(self, raw: object, initial: bool = False) -> None:
        """Take new global settings; report bad values and keep the earlier ones.

        The diagnostic mode is chosen once, at initialisation: capabilities depend on it."""
        parsed = parse_settings(raw, self.settings)
        mode = parsed.settings.diagnostic_mode if initial else self.settings.diagnostic_mode
        self.settings = replace(parsed.settings, diagnostic_mode=mode)
        for problem in parsed.problems:
            self.show_problem(problem)
        self.invalidate()

    async def fetch_folder_settings(self) -> None:
        """Ask the client for each folder's settings (workspace/configuration), if it can."""
        capabilities = self.client_capabilities.workspace
        if capabilities is None or not capabilities.configuration:
            return
        folders = self.folders()
        items = [
            types.ConfigurationItem(scope_uri=f.as_uri(), section=CONFIGURATION_SECTION)
            for f in folders
        ]
        try:
            answers = await self.workspace_configuration_async(
                types.ConfigurationParams(items=items)
            )
        except Exception:  # a client that cannot answer keeps the global settings
            log.debug("workspace/configuration failed", exc_info=True)
            return
        for folder, answer in zip(folders, answers or [], strict=False):
            if answer is None:
                continue
            parsed = parse_settings(answer, self.settings)
            self.folder_settings[str(folder)] = parsed.settings
            for problem in parsed.problems:
                self.show_problem(problem)
        self.invalidate()

    # --- analysis -------------------------------------------------------------------

    async def run_on_lint_thread(self, work: Callable[[], T]) -> T:
        """Run `work` on the engine's thread and return its result."""
        return await asyncio.get_running_loop().run_in_executor(self.lint_thread, work)

    def analyse_now(
        self, uri: str, version: int | None, text: str, changes: ChangeLog | None = None
    ) -> Analysis:
        """Check one document version (on the lint thread); `changes` are the client's
        changes up to it, when the text is the open document's."""
        generation = self.generation
        path_text = fs_path(uri)
        path = Path(path_text) if path_text else Path(uri)
        try:
            target = self.target_for(path)
        except ConfigError as exc:
            return Analysis(uri, version, generation, text, None, config_error=str(exc))
        if target is None:
            return Analysis(uri, version, generation, text, None)
        memory = self._memory_of(uri)
        if memory is not None:
            memory.upcoming = changes
        result = check(
            SourceFile(path, target.language, text, target.module_name),
            target.config,
            self.project_facts,
            reuse=memory,
        )
        return Analysis(
            uri, version, generation, text, target, result, self.helper_names, self.thin_names
        )

    def _memory_of(self, uri: str) -> DocumentMemory | None:
        """Return what is kept of an open document's versions (None for a closed one)."""
        if self.current_document(uri) is None:
            return None
        return self.memories.setdefault(uri, DocumentMemory())

    async def analyse(self, document: TextDocument) -> Analysis:
        """Return the analysis of the document's current version, made once per version."""
        known = self.analyses.get(document.uri)
        if (
            known is not None
            and known.version == document.version
            and known.generation == self.generation
            and ProjectFacts(known.helper_names, known.thin_names) == self.project_facts
            and known.text == document.source
        ):
            return known
        version, text = document.version, document.source
        changes = document.changes.copy() if isinstance(document, LintgvDocument) else None
        analysis = await self.run_on_lint_thread(
            lambda: self.analyse_now(document.uri, version, text, changes)
        )
        if self.current_document(document.uri) is not None:
            self.analyses[document.uri] = analysis
        return analysis

    def open_uris(self) -> set[str]:
        """Return the URIs of the open documents, as the client spelled them."""
        workspace = self.protocol._workspace
        return {d.uri for d in workspace.text_documents.values()} if workspace else set()

    def current_document(self, uri: str) -> TextDocument | None:
        """Return the open document at `uri`, or None. pygls keeps documents by their
        URI with escapes decoded: `file:///a%20b.py` is open as `file:///a b.py`."""
        workspace = self.protocol._workspace
        if workspace is None:
            return None
        document: TextDocument | None = workspace.text_documents.get(unquote(uri))
        return document

    # --- messages -------------------------------------------------------------------

    def log_message(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        """Write a line to the client's log for this server (window/logMessage)."""
        log.info("%s", message)
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def show_problem(self, message: str) -> None:
        """Tell the person about a problem they can fix (a bad setting)."""
        self.log_message(message, types.MessageType.Warning)
        self.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Warning, message=f"lintgv: {message}")
        )

    def log_crashes(self, analysis: Analysis) -> None:
        """Log each crashed rule of `analysis` once per document version."""
        for error in analysis.result.errors:
            if not error.crash:
                continue
            key = (analysis.uri, analysis.version, error.code or "")
            if key not in self.reported:
                self.reported.add(key)
                self.log_message(
                    f"rule {error.code} crashed on {analysis.uri} "
                    f"(version {analysis.version}): {error.message}; "
                    "the other rules' findings are still shown",
                    types.MessageType.Error,
                )

    def forget(self, uri: str) -> None:
        """Drop what is known about a closed document."""
        handle = self.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        self.analyses.pop(uri, None)
        self.published.pop(uri, None)
        self.memories.pop(uri, None)
        self.reported = {k for k in self.reported if k[0] != uri}


def is_alive(pid: int) -> bool:
    """Tell whether the process `pid` still exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, under another user
    return True
