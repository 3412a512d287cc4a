"""Stage three of `lintgv fix --unsafe` for Python: a supply threaded into a function.

As for C++ (fixing/threading.py): a GlobalVar built by hand in a function with no
GlobalVarSupply or IRModule in scope gets its supply from its callers. The function gets a
keyword-only parameter `global_var_supply: GlobalVarSupply` (keyword-only, so that no call
that passes its arguments by position binds one of them to it), and every call of it in
the project passes `global_var_supply=` the caller's supply, one made from the caller's
IRModule, or — up to `supply-depth` calls up, where that brings a real supply from
further up — the caller's own new parameter. A method with nothing to pass passes an
attribute its class's `__init__` sets (fixing/python_members.py); any other caller with
nothing to pass passes a new, empty `GlobalVarSupply()`; both are listed in the change's
evidence. A caller's several calls, or
one in a loop, share one `global_var_supply = GlobalVarSupply(mod)` declared before them.

Calls are resolved through the file's imports: `build(...)` in the function's own module,
`from pkg.passes import build` or `import pkg.passes as p; p.build(...)` elsewhere. A
method is called through `self`, `cls` or its class. The change is not made (and the
summary says why) when the function is used other than by a call (passed as a value,
decorated, named in a string, imported under another name or through a star, reached
through a module that may re-export it), its name is bound again or hidden, a method of
its name is called on another receiver or defined elsewhere, a file naming it cannot be
parsed or read, a changed file would not compile, no caller has a supply or module to
pass, or nothing checked calls it.

Here, the planning: the functions the sites are in, and each one's change made whole
(its texts edited, compiled, the site named with the parameter). The walk up the
callers is fixing/python_threader.py's, the stub's declaration fixing/python_stubs.py's,
the edits' positions fixing/python_edits.py's.
"""

import warnings
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path

from lintgv.codemods.includes import SUPPLY_MODULE, import_edit
from lintgv.codemods.unique_names import Change, without_supply
from lintgv.config import Config
from lintgv.edits import apply_edits
from lintgv.fixing.python_calls import Parses, PyFile, Target, load, target_at
from lintgv.fixing.python_threader import PythonThreader
from lintgv.fixing.thread_edits import UNNAMED_SITE, Refusal, Site, named_with_parameter
from lintgv.model import Applicability, Language, SourceFile


def plan_python_threading(
    sites: Iterable[Site],
    modules: Mapping[Path, str],
    read: Callable[[Path], str | None],
    config_for: Callable[[Path], Config],
    *,
    files: Parses | None = None,
    skip: Collection[str] = (),
    excluded: Callable[[], Sequence[Path]] = tuple,
) -> tuple[list[Change], list[Refusal]]:
    """Return one change per Python function that holds some of `sites`, and the
    functions that cannot be changed with why; functions whose change (by helper name)
    is in `skip` are not planned again. `modules` are the project's Python files (with
    their dotted module names), where calls are looked for; texts come from `read`."""
    files = files if files is not None else Parses()
    targets: dict[tuple[Path, int], Target] = {}
    for site in sites:
        config = config_for(site.path)
        if config.release.has_unique_name_supply:
            continue  # no GlobalVarSupply in this release
        file = load(files, site.path, modules, read)
        if not isinstance(file, PyFile):
            continue  # its GV101 findings came from this text: not expected, but safe
        target = target_at(file, site.line)
        if target is not None:
            targets.setdefault((site.path, id(target.function)), target)
    changes: list[Change] = []
    refused: list[Refusal] = []
    for target in targets.values():
        helper = f"{target.qualified} (supply parameter)"
        if helper in skip:
            continue
        config = config_for(target.file.path)
        outcome = _change(target, modules, read, config, files, excluded)
        if isinstance(outcome, Change):
            outcome = without_supply(outcome, config_for) or outcome
        if isinstance(outcome, str):
            refused.append(Refusal(helper, target.file.path, outcome))
        elif outcome is not None:
            changes.append(outcome)
    return changes, refused


def _compile_problem(path: Path, text: str) -> str | None:
    """Return why CPython would not compile `text` (compiled, never run), or None. More
    than a parse: a repeated keyword argument, say, parses but does not compile."""
    try:
        with warnings.catch_warnings():  # the tree's own warnings are not the run's
            warnings.simplefilter("ignore")
            compile(text, str(path), "exec", dont_inherit=True)
    except SyntaxError as exc:
        return f"{path.name}:{exc.lineno}: {exc.msg}"
    except (ValueError, RecursionError, MemoryError) as exc:
        return f"{path.name}: {exc}"
    return None


def _change(
    target: Target,
    modules: Mapping[Path, str],
    read: Callable[[Path], str | None],
    config: Config,
    files: Parses,
    excluded: Callable[[], Sequence[Path]],
) -> Change | str | None:
    """Return the change threading a supply into `target`; a text saying why it cannot
    be made; or None when there is nothing to do."""
    threader = PythonThreader(modules, read, files, excluded)
    refusal = threader.thread(target, config.supply_depth, frozenset())
    if refusal is not None:
        return refusal
    if not threader.grounded:
        # Every caller would pass a new, empty supply: signatures change for nothing.
        return f"no caller of {target.name} has a GlobalVarSupply or IRModule to pass"
    texts: dict[Path, str] = {}
    for path, edits in threader.edits.items():
        file = files[path]
        wanted = [*edits]
        if any("GlobalVarSupply" in e.text for e in edits):  # an annotation or a new supply
            header = import_edit(file.module, file.span_of, SUPPLY_MODULE, "GlobalVarSupply")
            wanted += [header] if header is not None else []
        texts[path] = apply_edits(file.text, wanted)
        problem = _compile_problem(path, texts[path])
        if problem is not None:
            return f"the change would not compile: {problem}"
    path = target.file.path
    source = SourceFile(path, Language.PYTHON, texts[path], target.file.module_name)
    site_text = named_with_parameter(source, config)
    if site_text is None:
        return UNNAMED_SITE
    texts[target.file.path] = site_text
    evidence = threader.evidence()
    title = f"Pass a GlobalVarSupply into {target.qualified} ({threader.calls} call(s) updated)"
    helper = f"{target.qualified} (supply parameter)"
    return Change(helper, texts, Applicability.UNSAFE, threader.calls, title, evidence)
