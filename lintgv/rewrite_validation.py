"""Rewrite validation: find the unique-name copies GV201 reports, run each beside
`NameSupply.fresh_name` on the fixed sequence (lintgv.runtime.copies.sequence), and say
where the names differ. `lintgv validate-copies` and `lintgv fix --prove-names` use it:
nothing else runs code of the analysed tree, and they run it only in the sandbox.

This module finds and prepares the copies (it parses C++ with tree-sitter); running them
is lintgv.runtime.copies' job. Findings: GV511 the names differ, GV512 the copy could not
be executed.
"""

import functools
import re
from collections.abc import Sequence
from pathlib import Path

import tree_sitter

from lintgv.codemods.unique_name_copies import (
    Copy,
    FreeCopy,
    Project,
    Unit,
    fields,
    functions,
    method_name,
)
from lintgv.model import FileError, Finding, Message
from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cpp_nodes import function_declarator
from lintgv.reading import read_source
from lintgv.records import frozen
from lintgv.rules.gv511_copy_names_differ import CopyNamesDiffer
from lintgv.rules.gv512_copy_not_executable import CopyNotExecutable
from lintgv.runtime.copies.cpp_harness import CppCopy, run_cpp_copy
from lintgv.runtime.copies.outcome import CopyRun
from lintgv.runtime.copies.python_harness import run_python_copy
from lintgv.runtime.copies.sequence import SEQUENCE, supply_names

_STRINGS = re.compile(r"\b(?:std::)?(?:string|String)\b")
_USED = re.compile(r"\b([A-Za-z_]\w*)\b(?!\s*::)")
_MACRO = re.compile(r"^[A-Z][A-Z0-9_]*$")
_CONTAINER = re.compile(r"\b(?:unordered_map|map|Map|unordered_set|set)\s*<")


@frozen
class CopyReport:
    runs: tuple[CopyRun, ...]
    findings: tuple[Finding, ...]
    errors: tuple[FileError, ...]
    not_run: int = 0  # copies in a folder whose release has no supply to compare with


def cpp_copy(project: Project, path: Path, line: int) -> CppCopy:
    """Return the copy whose definition starts at `line` of `path`, ready for the harness."""
    unit = project.unit(path)
    if unit is None:
        return CppCopy(f"line {line}", path, line, "", "", blocked="the file does not parse")
    function = _function_at(unit.parsed.root, line)
    if function is None:
        why = "no function definition starts there (a lambda's captures come from its function)"
        return CppCopy(f"line {line}", path, line, "", "", blocked=why)
    name, owner = method_name(unit.parsed, function)
    classes = project.classes(owner) if owner else []
    if len(classes) > 1:  # several classes of that name: the one beside the copy
        classes = [c for c in classes if c[0].path == path]
    cls = classes[0] if len(classes) == 1 else None
    copy = prepared(unit.parsed, function, name, owner, cls, path)
    if owner and cls is None and copy.blocked is None:
        why = f"class `{owner}` is not defined exactly once in the checked files"
        return CppCopy(copy.helper, path, copy.line, name, "", blocked=why)
    return copy


def copy_of_change(copy: Copy | FreeCopy) -> CppCopy:
    """Return the harness form of a copy `lintgv fix` is about to replace."""
    unit = copy.unit
    if isinstance(copy, FreeCopy):  # its map comes from the harness, as from a caller
        return prepared(unit.parsed, copy.definition, copy.name, None, None, unit.path)
    cls = (copy.class_unit, copy.class_node)
    return prepared(unit.parsed, copy.definition, copy.name, copy.cls, cls, unit.path)


def prepared(
    parsed: ParsedCpp,
    function: tree_sitter.Node,
    name: str,
    owner: str | None,
    cls: tuple[Unit, tree_sitter.Node] | None,
    path: Path,
) -> CppCopy:
    """Return the harness form of `function`: its text unqualified, the members it uses
    and the maps it takes from its caller."""
    helper = f"{owner}::{name}" if owner else name
    line = function.start_point[0] + 1
    qualified = re.compile(rf"(?:\w+\s*::\s*)+{re.escape(name)}\s*\(")
    text = qualified.sub(f"{name}(", parsed.text(function), count=1)
    arguments, members, blocked = _parameters(parsed, function)
    body = function.child_by_field_name("body")
    # Names used as themselves, not as a qualifier (`std::`).
    used = set(_USED.findall(parsed.text(body))) if body is not None else set()
    if cls is not None:
        members += _members(cls, used)
    support = _free_functions(parsed, used - {name})
    return CppCopy(
        helper, path, line, name, text, tuple(members), tuple(arguments), blocked, support
    )


def _free_functions(parsed: ParsedCpp, used: set[str]) -> str:
    """Return the file's free functions the copy calls (such as a dot-to-underscore helper)."""
    found = []
    for function in functions(parsed.root):
        name, owner = method_name(parsed, function)
        if owner is None and name in used:
            found.append(parsed.text(function))
    return "\n\n".join(found)


def _parameters(
    parsed: ParsedCpp, function: tree_sitter.Node
) -> tuple[list[str], list[tuple[str, str]], str | None]:
    declarator = function_declarator(function)
    listed = declarator.child_by_field_name("parameters") if declarator is not None else None
    params = [
        p for p in (listed.named_children if listed else []) if p.type.endswith("declaration")
    ]
    if not params or not _STRINGS.search(parsed.text(params[0])):
        return [], [], "its first parameter is not a string name"
    arguments: list[str] = []
    members: list[tuple[str, str]] = []
    for index, param in enumerate(params[1:], start=1):
        text = " ".join(parsed.text(param).split())
        if param.type == "optional_parameter_declaration":
            continue
        kind = param.child_by_field_name("type")
        inner = param.child_by_field_name("declarator")
        if kind is None or inner is None or not _CONTAINER.search(parsed.text(kind)):
            return [], [], f"it takes `{text}` besides the name"
        member = f"lintgv_arg{index}"
        members.append((member, parsed.text(kind)))
        arguments.append(f"&h->{member}" if inner.type == "pointer_declarator" else f"h->{member}")
    return arguments, members, None


def _members(cls: tuple[Unit, tree_sitter.Node], used: set[str]) -> list[tuple[str, str]]:
    unit, node = cls
    parsed = unit.parsed
    found = []
    for field in fields(parsed, node):
        kind = field.child_by_field_name("type")
        declarator = field.child_by_field_name("declarator")
        if kind is None or declarator is None or declarator.type != "field_identifier":
            continue
        if _MACRO.match(parsed.text(kind)):
            continue  # `TVM_DLL std::...` read as a field named `std`
        member = parsed.text(declarator)
        if member in used:
            found.append((member, parsed.text(kind)))
    return found


def _function_at(root: tree_sitter.Node, line: int) -> tree_sitter.Node | None:
    best = None
    stack = [root]
    while stack:
        node = stack.pop()
        if node.start_point[0] + 1 > line or node.end_point[0] + 1 < line:
            continue
        if node.type == "function_definition" and node.start_point[0] + 1 == line:
            best = node
        stack.extend(node.named_children)
    return best


@functools.lru_cache(maxsize=256)  # `lintgv fix` plans the same copies round after round
def run_copy(
    copy: CppCopy, *, tvm_version: str, cxx: str = "c++", unsandboxed: bool = False
) -> CopyRun:
    """Run one C++ copy on the sequence beside the NameSupply of `tvm_version`, in the
    sandbox (lintgv.runtime.copies.sandbox)."""
    return run_cpp_copy(copy, supply_names(tvm_version), cxx=cxx, unsandboxed=unsandboxed)


def validate_tree(
    paths: Sequence[Path],
    *,
    config_file: Path | None = None,
    tvm_version: str | None = None,
    cxx: str = "c++",
    unsandboxed: bool = False,
) -> CopyReport:
    """Run every copy GV201 finds under `paths` in the sandbox; return the runs, findings
    and errors (`unsandboxed`: see lintgv.runtime.copies.sandbox.run_sandboxed)."""
    from lintgv.checking import run
    from lintgv.registry import codes_where

    copies = codes_where(lambda meta: meta.reports_copies)
    overrides: dict[str, object] = {"select": sorted(copies)}
    if tvm_version:
        overrides["tvm-version"] = tvm_version
    if tvm_version:
        # A release given for every copy that has no supply refuses the run, in a sentence.
        supply_names(tvm_version)
    result = run(paths, overrides, config_file=config_file, use_cache=False)
    # Each copy is compared with the supply of the release its own folder targets (one
    # before 0.10 has none: its copies are not run, whatever the order of `paths`).
    releases = {c.path: c.config.release for c in result.candidates}
    cpp_paths = [r.path for r in result.results if r.path.suffix not in (".py", ".pyi")]
    project = Project(cpp_paths, _reader)
    runs = []
    not_run = 0
    errors = list(result.all_errors)
    for finding in (f for r in result.results for f in r.findings if f.code in copies):
        line = finding.span.start_line
        release = releases[finding.path]
        if not tvm_version and not release.has_name_supply:
            why = f"copy not run: {release.no_supply} to compare its names with"
            errors.append(FileError(finding.path, why, line))
            not_run += 1
            continue
        expected = supply_names(tvm_version or release.text)
        if finding.path.suffix in (".py", ".pyi"):
            text = _reader(finding.path) or ""
            runs.append(
                run_python_copy(finding.path, text, line, expected, unsandboxed=unsandboxed)
            )
        else:
            copy = cpp_copy(project, finding.path, line)
            runs.append(run_cpp_copy(copy, expected, cxx=cxx, unsandboxed=unsandboxed))
    findings = tuple(_finding(r) for r in runs if not r.ran or r.differences)
    return CopyReport(tuple(runs), findings, tuple(errors), not_run)


def _reader(path: Path) -> str | None:
    loaded = read_source(path, 4 * 1024 * 1024)
    return None if isinstance(loaded, FileError) else loaded.text


def _finding(run: CopyRun) -> Finding:
    if run.ran:
        return CopyNamesDiffer.finding_at(
            run.path,
            run.line,
            Message(f"`{run.helper}` {run.summary()}", CopyNamesDiffer.META.message.remedy),
        )
    return CopyNotExecutable.finding_at(
        run.path,
        run.line,
        Message(f"`{run.helper}` {run.summary()}", CopyNotExecutable.META.message.remedy),
    )


def render_text(report: CopyReport) -> str:
    """Return one line per copy: where, whether it ran, and how its names differ."""
    lines = [f"Sequence ({len(SEQUENCE)} names): " + ", ".join(repr(n) for n in SEQUENCE)]
    for run in report.runs:
        lines.append(f"{run.path}:{run.line}: {run.helper}: {run.summary(limit=20)}")
    lines += [f"{e.path}: error: {e.message}" for e in report.errors]
    copies = len(report.runs) + report.not_run
    not_run = f", {report.not_run} not run" if report.not_run else ""
    lines.append(
        f"{copies} cop{'y' if copies == 1 else 'ies'}; "
        f"{sum(r.ran for r in report.runs)} ran, "
        f"{sum(1 for r in report.runs if r.ran and not r.differences)} match NameSupply"
        f"{not_run}."
    )
    return "\n".join(lines)
