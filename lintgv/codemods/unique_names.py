"""GV2xx in C++: a class's private copy of GetUniqueName becomes one NameSupply member.

For a method `C::GetUniqueName(name)` that keeps a `std::unordered_map<std::string, int>`
member as its name → counter table, one change, across every file involved:

* the calls from `C` and the classes derived from it (or through a `C*`/`C&`) become
  `name_supply_->FreshName(x)`, or `ReserveName(x)` where the result is thrown away;
* `map.count(x)` becomes `name_supply_->ContainsName(x)` and `map.clear()` becomes
  `name_supply_ = NameSupply("")`;
* the map member makes way for `NameSupply name_supply_ = NameSupply("");`, placed where
  the map was, or where the method was declared when derived classes call it and could
  not reach a private map; the method's declaration (in a header) and definition (in a
  .cc) go, with their doc comments;
* `#include <tvm/ir/name_supply.h>` is added to the file that defines `C`.

With a `tvm-version` of 0.25 or later the supply is a `UniqueNameSupply`, from
`<tvm/ir/unique_name_supply.h>`, as that release renamed it.

A copy that returns something made of the name (`return Doc::Text(unique_prefix);`)
stays, as a wrapper whose body makes that of `name_supply_->FreshName(prefix)`; its calls
stay too. Any other use of the map, or a call through an object of unknown type, stops
the change: the copy is reported with the reason instead. Free functions that take the
map from their callers, copies that return something else, and wrappers that would lose
a statement of the copy's body (one that cleans the name first) are left to a human.
The change is unsafe: nothing of the tree runs to tell whether the copy names as
`NameSupply::FreshName` does. With `lintgv fix --prove-names`, the copy and the supply are
run side by side on a fixed sequence of names, the copy in a sandbox
(lintgv.rewrite_validation): the change is safe when every name matches, unsafe
otherwise (copies number collisions their own way, `a1` rather than `a_1`) or when the
copy cannot be run alone, and its title says which names differ or why it did not run.
"""

from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path

import tree_sitter

from lintgv.codemods import cpp_edits, cpp_scope, unique_names_python
from lintgv.codemods.cpp_lookup import accessed, tvm_name
from lintgv.codemods.includes import NAME_SUPPLY_HEADER, UNIQUE_NAME_SUPPLY_HEADER, include_edit
from lintgv.codemods.unique_name_copies import (
    HELPER_NAMES,
    Copy,
    CopyFinder,
    FreeCopy,
    ModuleCopy,
    Project,
    Skipped,
    Unit,
    class_of_code,
)
from lintgv.codemods.unique_name_edits import Edits, map_call_edit, nodes_of, where
from lintgv.codemods.unique_name_free_copies import FreeRewrite
from lintgv.codemods.unique_name_module_copies import EVIDENCE as MODULE_EVIDENCE
from lintgv.codemods.unique_name_module_copies import ModuleRewrite
from lintgv.codemods.unique_name_shapes import NotRewritable
from lintgv.config import Config, config_for
from lintgv.edits import apply_edits
from lintgv.holding import CppParses, Holding
from lintgv.lines import split_lines
from lintgv.model import Applicability, Edit
from lintgv.parsing.cpp_nodes import within
from lintgv.paths import display_path
from lintgv.records import frozen

__all__ = ["HELPER_NAMES", "Change", "Skipped", "plan_changes", "without_supply"]


@frozen
class Change:
    """One copy replaced by a NameSupply: the new text of every file it touches."""

    helper: str  # Class::Method
    texts: Mapping[Path, str]
    applicability: Applicability
    sites: int  # calls rewritten
    title: str
    evidence: str = ""  # why the change is not safe, or how it was proved
    copy: Copy | FreeCopy | None = None  # the C++ copy replaced: `fix --prove-names` runs it


# Without running the copy nobody knows whether it names as NameSupply does; lintgv runs
# code of the tree only when asked (`lintgv fix --prove-names`), in a sandbox.
UNPROVEN = (
    "not proven that the copy names as NameSupply does; `lintgv fix --prove-names` runs "
    "it in a sandbox to compare"
)


def plan_changes(
    paths: Iterable[Path],
    read: Callable[[Path], str | None],
    names: frozenset[str] = HELPER_NAMES,
    within: Collection[Path] | None = None,
    config_of: Callable[[Path], Config] = config_for,
    holding: Holding | None = None,
    parses: CppParses | None = None,
) -> tuple[list[Change], list[Skipped]]:
    """Return a change for every copy among the files `paths` (text from `read`), and
    the copies that cannot be changed, with the reason; Python files go to
    unique_names_python. With `within`, only copies defined in those files are looked
    for (their callers still anywhere in `paths`): proving one change needs no more.
    The supply is the one of the TVM release `config_of` gives for the file defining
    the copy's class, or the free copy itself (`UniqueNameSupply` from 0.25 on).
    `holding` remembers which of the files' texts (all but Python's) hold a word and
    match a pattern, and `parses` their parses, for a caller that plans again over the
    same files."""
    paths = list(paths)
    python = [p for p in paths if p.suffix in unique_names_python.PYTHON_SUFFIXES]
    project = Project(
        [p for p in paths if p.suffix not in unique_names_python.PYTHON_SUFFIXES],
        read,
        holding,
        parses,
    )
    copies, skipped = CopyFinder(project, names).copies(within)
    changes = _python_changes(python, read, skipped, within, config_of)
    for copy in copies:
        # The release of the file that will hold the supply: the class's, or the copy's own.
        home = copy.unit.path if isinstance(copy, FreeCopy) else copy.class_unit.path
        release = config_of(home).release
        line = copy.definition.start_point[0] + 1
        if not release.has_name_supply:
            skipped.append(Skipped(copy.helper, copy.unit.path, line, release.no_supply))
            continue
        unique = release.has_unique_name_supply
        try:
            if isinstance(copy, ModuleCopy):
                change = _module_change(project, copy, unique)
            elif isinstance(copy, FreeCopy):
                change = _free_change(project, copy, unique)
            else:
                change = _Rewrite(project, copy, unique).change()
        except NotRewritable as exc:
            skipped.append(Skipped(copy.helper, copy.unit.path, line, str(exc)))
            continue
        why = without_supply(change, config_of)
        if why is not None:
            skipped.append(Skipped(copy.helper, copy.unit.path, line, why))
        else:
            changes.append(change)
    return changes, skipped


def without_supply(change: Change, config_of: Callable[[Path], Config]) -> str | None:
    """Return why `change` is not made when a file it writes targets a TVM release that
    has no supplies (a fork of a release before 0.10 beside newer code), else None."""
    for path in sorted(change.texts, key=lambda p: p.as_posix()):
        release = config_of(path).release
        if not release.has_name_supply:
            return f"it would write {display_path(path)}, and {release.no_supply}"
    return None


def _python_changes(
    paths: list[Path],
    read: Callable[[Path], str | None],
    skipped: list[Skipped],
    within: Collection[Path] | None,
    config_of: Callable[[Path], Config],
) -> list[Change]:
    if not paths:
        return []
    planned, left = unique_names_python.plan_python_changes(paths, read, config_of, within)
    skipped.extend(left)
    evidence = unique_names_python.EVIDENCE
    return [
        Change(c.helper, {c.path: c.text}, Applicability.UNSAFE, c.sites, c.title, evidence)
        for c in planned
    ]


def _supply_kind(unique: bool) -> tuple[str, str]:
    """Return the supply class and its header: TVM 0.25 renamed NameSupply to
    UniqueNameSupply, in a header of its own."""
    if unique:
        return "UniqueNameSupply", UNIQUE_NAME_SUPPLY_HEADER
    return "NameSupply", NAME_SUPPLY_HEADER


def _texts(project: Project, edits: Mapping[Path, list[Edit]]) -> dict[Path, str]:
    """Return the new text of every file `edits` touch."""
    texts = {}
    for path, file_edits in edits.items():
        unit = project.unit(path)
        assert unit is not None, "edits are made only to parsed files"
        try:
            texts[path] = apply_edits(unit.text, file_edits)
        except ValueError as exc:
            raise NotRewritable(f"its edits clash in {path}: {exc}") from exc
    return texts


def _free_change(project: Project, copy: FreeCopy, unique: bool) -> Change:
    kind, header = _supply_kind(unique)
    edits, sites = FreeRewrite(project, copy, kind, header).plan()
    title = f"Replace {copy.helper} with a {kind} in place of each caller's map"
    texts = _texts(project, edits.by_path)
    return Change(copy.helper, texts, Applicability.UNSAFE, sites, title, UNPROVEN, copy)


def _module_change(project: Project, copy: ModuleCopy, unique: bool) -> Change:
    if unique:
        raise NotRewritable(
            "it makes a name unique among the module's functions, and this TVM release has "
            "no GlobalVarSupply to do that; name the GlobalVar with the module's "
            "UniqueNameSupply by hand"
        )
    edits, sites = ModuleRewrite(project, copy).plan()
    title = f"Replace {copy.helper} with a GlobalVarSupply made from the module at each call"
    texts = _texts(project, edits.by_path)
    return Change(copy.helper, texts, Applicability.UNSAFE, sites, title, MODULE_EVIDENCE)


class _Rewrite:
    def __init__(self, project: Project, copy: Copy, unique: bool) -> None:
        self.project = project
        self.copy = copy
        self.kind, self.header = _supply_kind(unique)
        self.edits = Edits()
        self.outside_callers = False  # calls from classes derived from the copy's class

    def change(self) -> Change:
        copy = self.copy
        supply = self._supply_name()
        sites = 0 if copy.wrapper else self._calls(supply)
        self._map_uses(supply)
        if copy.wrapper:
            self._wrap(supply)
        else:
            self._member(supply)
        include = include_edit(copy.class_unit.parsed, self.header)
        if include is not None:
            self.edits.add(copy.class_unit, include)
        texts = _texts(self.project, self.edits.by_path)
        title = (
            f"Make {copy.helper} a wrapper of a {self.kind} member `{supply}`"
            if copy.wrapper
            else f"Replace {copy.helper} with a {self.kind} member `{supply}`"
        )
        evidence = UNPROVEN
        return Change(copy.helper, texts, Applicability.UNSAFE, sites, title, evidence, copy)

    def _supply_name(self) -> str:
        body = self.copy.class_node.child_by_field_name("body")
        taken = cpp_scope.identifiers(self.copy.class_unit.parsed, body) if body else set()
        return "name_supply_" if "name_supply_" not in taken else "unique_names_"

    def _is_ours(self, owner: str | None) -> bool:
        return owner is not None and self.project.derives(owner, self.copy.cls)

    def _inside_copy(self, unit: Unit, node: tree_sitter.Node) -> bool:
        return unit.path == self.copy.unit.path and within(self.copy.definition, node)

    def _calls(self, supply: str) -> int:
        """Rewrite every call of the copy; return how many."""
        count = 0
        for unit in self.project.users(self.copy.name):
            for call in nodes_of(unit.parsed.root, "call_expression"):
                func = call.child_by_field_name("function")
                if func is None or self._inside_copy(unit, call):
                    continue
                new = self._callee(unit, call, func, supply)
                if new is not None:
                    self.edits.add(unit, unit.parsed.replace(func, new))
                    count += 1
        return count

    def _callee(
        self, unit: Unit, call: tree_sitter.Node, func: tree_sitter.Node, supply: str
    ) -> str | None:
        """Return the new callee text for a call of the copy, or None if it is not one."""
        parsed = unit.parsed
        method = (
            "ReserveName"
            if call.parent and call.parent.type == "expression_statement"
            else "FreshName"
        )
        name = self.copy.name
        text = cpp_scope.normalized(parsed.text(func))
        if text in (name, f"{self.copy.cls}::{name}", f"this->{name}"):
            owner = class_of_code(parsed, call)
            if not self._is_ours(owner):
                return None  # another function of the same name
            self.outside_callers |= owner != self.copy.cls
            return f"{supply}->{method}"
        if func.type != "field_expression":
            return None
        field_node = func.child_by_field_name("field")
        receiver = func.child_by_field_name("argument")
        if field_node is None or receiver is None or parsed.text(field_node) != name:
            return None
        root = cpp_scope.normalized(parsed.text(receiver)).lstrip("*(").split("->")[0]
        binding = cpp_scope.scope_at(parsed, call).find(root.split(".")[0])
        if binding is None or not self.project.derives(binding.type_name, self.copy.cls):
            if self.copy.cls in unit.text:
                raise NotRewritable(f"cannot tell the type of `{root}` at {where(unit, call)}")
            return None
        self.outside_callers = True
        operator = func.children[1].type if len(func.children) > 2 else "->"
        return f"{parsed.text(receiver)}{operator}{supply}->{method}"

    def _map_uses(self, supply: str) -> None:
        """Rewrite `map.count(x)` and `map.clear()`; stop at any other use of the map."""
        copy = self.copy
        for unit in self.project.users(copy.map_name):
            for node in nodes_of(unit.parsed.root, "identifier", "field_identifier"):
                if unit.parsed.text(node) != copy.map_name or self._inside_copy(unit, node):
                    continue
                if self._is_map(unit, node):
                    self._map_use(unit, node, supply)

    def _is_map(self, unit: Unit, node: tree_sitter.Node) -> bool:
        """Tell whether a use of the map's name is the copy's map (through `this`, an
        object of the class, or inside the class's methods)."""
        parent = node.parent
        if parent is not None and parent.type == "field_expression":
            receiver = parent.child_by_field_name("argument")
            if parent.child_by_field_name("field") == node and receiver is not None:
                root = cpp_scope.normalized(unit.parsed.text(receiver)).lstrip("*(")
                if root.split("->")[0] != "this":
                    binding = cpp_scope.scope_at(unit.parsed, node).find(root.split("->")[0])
                    if binding is not None:
                        return self.project.derives(binding.type_name, self.copy.cls)
                    if self.copy.cls in unit.text:
                        raise NotRewritable(
                            f"cannot tell the type of `{root}` at {where(unit, node)}"
                        )
                    return False
        # The map's own declaration is not in a function: class_of_code gives None.
        return self._is_ours(class_of_code(unit.parsed, node))

    def _map_use(self, unit: Unit, node: tree_sitter.Node, supply: str) -> None:
        parsed = unit.parsed
        target, parent = accessed(node)  # map, this->map, info->map
        prefix = parsed.text(target)[: -len(self.copy.map_name)]
        kind = tvm_name(parsed, node, self.kind)
        edit = map_call_edit(parsed, target, f"{prefix}{supply}", kind)
        if edit is not None:
            self.edits.add(unit, edit)
            return
        statement = split_lines(parsed.text(parent if parent is not None else node))[0]
        raise NotRewritable(
            f"the map `{self.copy.map_name}` is also used at {where(unit, node)} "
            f"(`{statement.strip()}`); replace it by hand"
        )

    def _member(self, supply: str) -> None:
        """Declare the supply, and remove the copy and its map."""
        copy = self.copy
        unit = copy.class_unit
        assert copy.map_field is not None
        kind = tvm_name(unit.parsed, copy.map_field, self.kind)
        declaration = f'{kind} {supply} = {kind}("");'
        in_class = copy.declaration or (
            copy.definition if copy.unit.path == unit.path and _is_member(copy) else None
        )
        private = _access(unit, copy.class_node, copy.map_field) == "private"
        if self.outside_callers and private and in_class is not None:
            self.edits.add(
                unit, cpp_edits.replace(unit.parsed, in_class, declaration, with_comments=True)
            )
            self.edits.add(unit, cpp_edits.delete(unit.parsed, copy.map_field))
        else:
            self.edits.add(unit, cpp_edits.replace(unit.parsed, copy.map_field, declaration))
            if in_class is not None:
                self.edits.add(unit, cpp_edits.delete(unit.parsed, in_class))
        if copy.declaration is not None:  # defined out of line: remove the definition too
            self.edits.add(copy.unit, cpp_edits.delete(copy.unit.parsed, copy.definition))

    def _wrap(self, supply: str) -> None:
        """Keep a copy that returns something made of the name (`Doc::Text(name)`) as a
        wrapper whose body makes that of the supply's name; the map makes way for the
        supply, and the calls and the declaration stay as they are."""
        copy = self.copy
        assert copy.map_field is not None
        unit = copy.class_unit
        kind = tvm_name(unit.parsed, copy.map_field, self.kind)
        declaration = f'{kind} {supply} = {kind}("");'
        self.edits.add(unit, cpp_edits.replace(unit.parsed, copy.map_field, declaration))
        made = f"{copy.wrapper}({supply}->FreshName({copy.parameter}))"
        body = copy.definition.child_by_field_name("body")
        assert body is not None, "a copy is a definition"
        self.edits.add(
            copy.unit, copy.unit.parsed.replace(body, _body(copy.unit, copy.definition, made))
        )


def _body(unit: Unit, function: tree_sitter.Node, made: str) -> str:
    """Return a body that returns `made`, indented one step inside `function`'s line
    (a tab where the line is indented with tabs)."""
    lines = split_lines(unit.text)
    row = function.start_point[0]
    line = lines[row] if row < len(lines) else ""
    close = line[: len(line) - len(line.lstrip(" \t"))]
    step = "\t" if "\t" in close else "  "
    return f"{{\n{close}{step}return {made};\n{close}}}"


def _is_member(copy: Copy) -> bool:
    parent = copy.definition.parent
    return parent is not None and parent.type == "field_declaration_list"


def _access(unit: Unit, cls: tree_sitter.Node, member: tree_sitter.Node) -> str:
    """Return the access (public, protected, private) in force at `member`."""
    keyword = unit.parsed.text(cls.children[0]) if cls.children else "class"
    access = "public" if keyword == "struct" else "private"
    body = cls.child_by_field_name("body")
    for child in body.children if body is not None else []:
        if child.start_byte >= member.start_byte:
            break
        if child.type == "access_specifier":
            access = unit.parsed.text(child).strip()
    return access
