"""Stage three of `lintgv fix --unsafe`, for both languages: supply parameters threaded,
one change at a time, into the functions whose GlobalVar sites have nothing in scope to
name them (planned by fixing/threading.py for C++ and fixing/threading_python.py for
Python), and the project whose files those changes may touch.

Apart from the run (fixing/run.py) because it is a stage of its own: it runs only with
--unsafe, after the files are settled and the multi-file changes made, and it looks past
the files given, to every file of their project.
"""

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

from lintgv.codemods.unique_names import HELPER_NAMES
from lintgv.config import Config
from lintgv.discovery import Candidate, Discovery, unreadable
from lintgv.fixing.file_fix import FileFix, after_group
from lintgv.fixing.files import Tree
from lintgv.fixing.groups import GroupFix, Workspace, apply_change, beyond_given
from lintgv.fixing.python_calls import Parses
from lintgv.fixing.thread_edits import Site, excluded_files, is_threading_site
from lintgv.fixing.threading import plan_threading
from lintgv.fixing.threading_python import plan_python_threading
from lintgv.holding import CppParses
from lintgv.model import Language
from lintgv.paths import display_path, is_too_wide, project_root_of
from lintgv.records import frozen

log = logging.getLogger(__name__)
_HEADERS = frozenset({".h", ".hpp", ".hh", ".cuh", ".hxx"})


def thread_supplies(
    fixes: dict[Path, FileFix],
    candidates: Mapping[Path, Candidate],
    project: "Project",
    workspace: Workspace,
    helpers: frozenset[str],
    write: bool,
    tree: Tree | None,
) -> list[GroupFix]:
    """Thread a supply parameter into each C++ function that builds a GlobalVar with
    nothing in scope to name it (stage three; see fixing/threading.py). Its declarations
    and calls are looked for in every C++ file of the `project` (the roots of the files
    given), not only in those given: a change that must touch a file outside them is not
    made. One change at a time, planned again on the texts the one before left: two
    changes to one file must not be planned on the same old text."""
    done: list[GroupFix] = []
    handled: set[str] = set()
    refusals: dict[str, GroupFix] = {}
    parses = Parses()
    cpp_parses = CppParses()
    while True:
        # In the files' order, not the order their fixes came back in from the workers:
        # the same tree gives the same changes and the same summary, run after run.
        sites = sorted(
            Site(fix.path, finding.span.start_line, finding.span.start_col)
            for fix in fixes.values()
            for finding in fix.remaining
            if is_threading_site(finding)
        )
        python = [s for s in sites if candidates[s.path].language == Language.PYTHON]
        try:
            # Python first: its first plan, the costliest in memory, then comes before
            # any C++ parse is kept (C++ changes still come first).
            more, refused_more = plan_python_threading(
                python,
                project.python,
                workspace.read,
                workspace.config_of,
                files=parses,
                skip=handled | refusals.keys(),
                excluded=project.excluded,
            )
            changes, refused = plan_threading(
                [s for s in sites if s not in python],
                project.cpp,
                workspace.read,
                workspace.config_of,
                project.excluded,
                cpp_parses,
            )
        except Exception as exc:  # a planning bug must not lose the changes already made
            log.debug("planning supply threading failed", exc_info=True)
            why = f"supply threading could not be planned: {type(exc).__name__}: {exc}"
            done.append(GroupFix("(supply parameters)", "", 0, (), False, why, threaded=True))
            break
        changes += more
        refused += refused_more
        for refusal in refused:
            group = GroupFix(refusal.helper, "", 0, (refusal.path,), False, refusal.reason)
            refusals[refusal.helper] = replace(group, threaded=True)  # as of the latest text
        pending = [c for c in changes if c.helper not in handled]
        if not pending:
            break
        change = pending[0]
        handled.add(change.helper)
        outside = beyond_given(change, candidates.keys())
        if outside is not None:
            files = tuple(sorted(change.texts))
            done.append(GroupFix(change.helper, "", 0, files, False, outside, threaded=True))
            continue
        headers = [p for p in sorted(change.texts) if p.suffix in _HEADERS]
        if project.unmarked and headers:
            why = (
                f"it is declared in {display_path(headers[0])}, which any file may include, "
                "and nothing marks the project's root (a config file, a version control "
                "folder, a build file): "
                "its callers outside the folder given cannot be seen"
            )
            done.append(GroupFix(change.helper, "", 0, tuple(headers), False, why, threaded=True))
            continue
        given = [p for p in [*project.cpp, *project.python] if p in candidates]
        group = apply_change(change, workspace, given, HELPER_NAMES, write=write, tree=tree)
        done.append(group)
        for path in group.paths if group.done else ():
            fixes[path] = after_group(
                fixes.get(path), path, workspace, candidates[path], helpers, write
            )
    return done + [g for helper, g in refusals.items() if helper not in handled]


@frozen
class Project:
    """Every source file of the project of the files given, each spelled as among the
    files given when it is one of them. The project is the folder of the config file
    that governs a path given, or, with none, the path itself (never the working
    folder a run happens to start in)."""

    cpp: list[Path]
    python: dict[Path, str]  # with its dotted module name
    # The files the project's `exclude` and `extend-exclude` leave out (not the default
    # folders, nor what .gitignore ignores), found on first use: a supply threaded past
    # a call in one of them would leave that call broken.
    excluded: Callable[[], list[Path]]
    # A path given whose project nothing marks (no config file, version control folder,
    # build file or package above it): its own folder stands for the project, and
    # callers elsewhere are unseen.
    unmarked: bool = False
    # Folders of the project the walk could not see into (see checking.RunResult), and
    # files it may not read: a call there would be left behind, so no supply is threaded.
    unseen: tuple[Path, ...] = ()


def project_files(
    paths: Sequence[Path],
    candidates: Mapping[Path, Candidate],
    overrides: Mapping[str, object],
    config_file: Path | None,
) -> Project:
    # Compared without `..` (a run of `fix ..` from inside the project).
    given = {_absolute(p): p for p in candidates}
    discovery = Discovery(overrides, config_file)
    roots = set()
    unmarked = False
    for path in paths:
        folder = path if path.is_dir() else path.parent
        config = discovery.config_for(folder)
        root = project_root(folder, config, discovery.fixed is not None)
        unmarked |= root is None
        roots.add(root or _absolute(folder))
    unseen: list[Path] = []
    if roots == {_absolute(p) for p in paths}:  # the run walked the project already
        found = list(candidates.values())
    else:
        found = list(discovery.discover(sorted(roots), [], unseen))
    cpp = [given.get(_absolute(c.path), c.path) for c in found if c.language == Language.CPP]
    python = {
        given.get(_absolute(c.path), c.path): c.module_name
        for c in found
        if c.language == Language.PYTHON
    }

    known = [c.path for c in found]
    # A file given is the project's even where the config excludes it (named on the
    # command line): it is asked too.
    unseen += unreadable(dict.fromkeys([*cpp, *python, *candidates]))
    excluded = cache(lambda: excluded_files(sorted(roots), overrides, config_file, known))
    return Project(cpp, python, excluded, unmarked, tuple(unseen))


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(path))


def project_root(folder: Path, config: Config, given: bool) -> Path | None:
    """Return the root of the project `folder` belongs to: the outermost of what marks
    one above it: the folder of its config file (found above it, or given with --config
    and kept at or above it), what paths.project_root_of finds (version control, a build
    file), the folder above the Python package holding it; None when nothing marks it.
    A home folder or the file system's root marks no project (see paths.project_root_of).
    The outermost, since a nested config or a package inside a repository is part of
    a larger project: callers outside the folder that a threaded parameter would break
    must be seen, so that the change is refused."""
    absolute = folder.resolve()
    marks = [project_root_of(folder), _package_home(folder)]
    if config.source is not None:
        home = config.source.parent
        # A config file in a home folder (every project's defaults) marks none of them.
        wide = is_too_wide(_absolute(home))
        if (not given or absolute == home or home in absolute.parents) and not wide:
            marks.append(home)
    holding = [m for m in marks if m is not None and _holds(m, absolute)]
    return min(holding, key=lambda m: len(m.resolve().parts)) if holding else None


def _holds(root: Path, folder: Path) -> bool:
    resolved = root.resolve()
    return folder == resolved or resolved in folder.parents


def _package_home(folder: Path) -> Path | None:
    """Return the folder that holds the outermost package `folder` is part of (where
    its modules are imported from), or None when `folder` is no package."""
    current = _absolute(folder)
    if not (current / "__init__.py").is_file():
        return None
    while (current.parent / "__init__.py").is_file() and current.parent != current:
        current = current.parent
    home = current.parent
    # A package kept straight in a home folder (or at /) does not make it a project.
    return None if is_too_wide(home) else home
