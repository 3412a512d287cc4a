"""Run a rule's own examples through the engine: they are its tests and its docs."""

from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from lintgv.config import Config, apply_settings
from lintgv.edits import apply_edits, apply_fixes
from lintgv.engine import check
from lintgv.model import Applicability, FileResult, Language, SourceFile
from lintgv.registry import all_rules
from lintgv.rules._base import CommentRule, Invalid, Rule, Valid

EXAMPLE_ROOT = Path("/example-project")


def example_path(rule: type[Rule], path: str) -> Path:
    """Return the path an example pretends to live at."""
    if path:
        return EXAMPLE_ROOT / path
    return EXAMPLE_ROOT / ("example.cc" if rule.LANGUAGE == Language.CPP else "example.py")


def module_name_of(relative: PurePosixPath) -> str:
    """Return the dotted module of a path inside a `python/` source folder, else its stem."""
    parts = list(relative.with_suffix("").parts)
    if "python" in parts:
        parts = parts[parts.index("python") + 1 :]
    return ".".join(parts[-1:] if len(parts) == 1 else parts)


def run_example(rule: type[Rule], example: Valid | Invalid) -> FileResult:
    """Check one example of `rule` with only that rule's code selected."""
    return check_snippet(rule, example.code, example.path, example.config)


def check_snippet(
    rule: type[Rule], code: str, path: str = "", config: Mapping[str, object] | None = None
) -> FileResult:
    """Check `code` as `rule`'s examples are checked: at `path` in the example project,
    with `config`, and only that rule's code selected."""
    settings = apply_settings(Config(root=EXAMPLE_ROOT), dict(config or {}), None)
    # Comment rules judge other rules' findings, so those rules must run too.
    codes = ["GV"] if rule.LANGUAGE is None else [rule.META.code]
    comments = [r.META.code for r in all_rules() if issubclass(r, CommentRule)]
    settings = apply_settings(settings, {"select": codes, "extend-select": comments}, None)
    where = example_path(rule, path)
    language = Language.CPP if where.suffix in settings.cpp_extensions else Language.PYTHON
    module = module_name_of(PurePosixPath(where.relative_to(EXAMPLE_ROOT).as_posix()))
    return check(SourceFile(where, language, code, module), settings)


def fixed_text(rule: type[Rule], example: Invalid) -> str:
    """Return the example's text with every fix of its findings applied until stable; for
    a rule whose fixes are display only, the text its suggestions show."""
    text = example.code
    if rule.META.fix == Applicability.DISPLAY:
        result = run_example(rule, example)
        shown = [f.fix for f in result.findings if f.code == rule.META.code and f.fix]
        return apply_edits(text, [e for fix in shown for e in fix.edits])
    for _ in range(10):
        result = check_snippet(rule, text, example.path, example.config)
        applied = apply_fixes(text, result.findings, unsafe=True)
        if applied.text == text:
            break
        text = applied.text
    return text
