"""GV2xx in C++: the private copies of GetUniqueName, each found with the class that
owns it, the name → counter map it keeps, and its declaration (see unique_names.py)."""

import re
from collections.abc import Callable, Collection, Iterable
from pathlib import Path

import tree_sitter

from lintgv.codemods import cpp_scope
from lintgv.codemods.cpp_lookup import accessed, namespace_of
from lintgv.codemods.unique_name_shapes import (
    MAP_TYPE,
    STRING_TYPES,
    NotRewritable,
    only_uniquing,
    type_of,
    wrapper_call,
)
from lintgv.config import Config
from lintgv.errors import ParseError
from lintgv.helpers.cpp_facts import facts_of
from lintgv.holding import CppParses, Holding
from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cpp_nodes import function_declarator, named_descendants, parameters
from lintgv.reading import may_name
from lintgv.records import frozen, mutable

HELPER_NAMES = frozenset({"GetUniqueName", "_GetUniqueName"})


@frozen
class Skipped:
    helper: str
    path: Path
    line: int
    reason: str


@mutable
class Unit:
    path: Path
    text: str
    parsed: ParsedCpp


class Project:
    """The C++ files of a run, read and parsed on demand."""

    def __init__(
        self,
        paths: Iterable[Path],
        read: Callable[[Path], str | None],
        holding: Holding | None = None,
        parses: CppParses | None = None,
    ) -> None:
        self.paths = sorted(paths, key=lambda p: p.as_posix())
        self.read = read
        # Which texts hold a word, and the files' parses, kept by a caller that plans
        # again and again over the same files (a migration): else each plan searches
        # every file for each word, and parses the files it reads.
        self._holding = holding if holding is not None else Holding()
        self._parses = parses if parses is not None else CppParses()
        self._texts: dict[Path, str | None] = {}
        self._units: dict[Path, Unit | None] = {}
        self._bases: dict[str, set[str]] = {}

    def text(self, path: Path) -> str | None:
        try:
            return self._texts[path]
        except KeyError:
            text = self._texts[path] = self.read(path)
            return text

    def mentioning(self, word: str) -> list[Path]:
        """Return the files whose text holds `word` (or matches it, given a pattern)."""
        return self.matching(re.compile(rf"\b{re.escape(word)}\b"), word)

    def matching(self, pattern: re.Pattern[str], needle: str) -> list[Path]:
        """Return the files that match `pattern`; `needle` must occur in any match."""
        found = self._holding.matches(pattern, needle, self.paths, self.text)
        return [path for path, text in found if text is not None]

    def unit(self, path: Path) -> Unit | None:
        """Return the parsed file, or None when tree-sitter cannot make sense of it."""
        if path not in self._units:
            text = self.text(path) or ""
            try:
                self._units[path] = Unit(path, text, self._parses.of(path, text))
            except ParseError:
                self._units[path] = None
        return self._units[path]

    def units(self, word: str) -> list[Unit]:
        """Return the parsed files that mention `word`."""
        return [u for p in self.mentioning(word) if (u := self.unit(p)) is not None]

    def users(self, word: str) -> list[Unit]:
        """Return the parsed files that mention `word`, where a change finds its uses;
        raise NotRewritable when a file that may mention it cannot be read as text or
        parsed: a use there would be left behind."""
        for path in self.paths:
            if self.text(path) is None and may_name(path, word):
                raise NotRewritable(f"{path.name} names {word}, and cannot be read as text")
        found = []
        for path in self.mentioning(word):
            unit = self.unit(path)
            if unit is None:
                raise NotRewritable(f"{path.name} names {word}, and cannot be parsed")
            found.append(unit)
        return found

    def classes(self, name: str) -> list[tuple[Unit, tree_sitter.Node]]:
        """Return the definitions of class `name` (a textual search narrows the files)."""
        found = []
        defines = re.compile(rf"\b(?:class|struct)\s+(?:\w+\s+)?{re.escape(name)}\b[^;{{]*\{{")
        for path in self.matching(defines, name):
            unit = self.unit(path)
            if unit is None:
                continue
            cls = cpp_scope.find_class(unit.parsed, name)
            if cls is not None:
                found.append((unit, cls))
        return found

    def bases(self, name: str) -> set[str]:
        if name not in self._bases:
            self._bases[name] = set()
            for unit, cls in self.classes(name):
                clause = next((c for c in cls.children if c.type == "base_class_clause"), None)
                for base in clause.named_children if clause is not None else []:
                    if base.type != "access_specifier":
                        text = cpp_scope.normalized(unit.parsed.text(base))
                        self._bases[name].add(text.split("<")[0].rsplit("::", 1)[-1])
        return self._bases[name]

    def derives(self, name: str, base: str, seen: frozenset[str] = frozenset()) -> bool:
        if name == base:
            return True
        if name in seen:
            return False
        return any(self.derives(b, base, seen | {name}) for b in self.bases(name))


def method_name(parsed: ParsedCpp, function: tree_sitter.Node) -> tuple[str, str | None]:
    """Return (method name, class name or None) of a function definition."""
    declarator = function_declarator(function)
    inner = declarator.child_by_field_name("declarator") if declarator is not None else None
    if inner is None:
        return "", None
    text = cpp_scope.normalized(parsed.text(inner))
    if "::" in text:
        owner, _, name = text.rpartition("::")
        return name, owner.rsplit("::", 1)[-1]
    parent = function.parent
    if parent is not None and parent.type == "field_declaration_list" and parent.parent:
        cls_name = parent.parent.child_by_field_name("name")
        if cls_name is not None:
            return text, cpp_scope.normalized(parsed.text(cls_name))
    return text, None


def class_of_code(parsed: ParsedCpp, node: tree_sitter.Node) -> str | None:
    """Return the class whose method holds `node`."""
    for current in parsed.ancestors(node):
        if current.type == "function_definition":
            _, owner = method_name(parsed, current)
            if owner is not None:
                return owner
    return None


@mutable
class Copy:
    name: str
    cls: str
    unit: Unit
    definition: tree_sitter.Node
    class_unit: Unit
    class_node: tree_sitter.Node
    map_name: str = ""
    map_field: tree_sitter.Node | None = None
    declaration: tree_sitter.Node | None = None  # in-class declaration of an out-of-line copy
    # A copy that returns something else made of the name (`Doc::Text(name)`) stays, as a
    # wrapper that makes that of the supply's name; its calls are left as they are.
    wrapper: str = ""  # `Doc::Text`
    parameter: str = ""  # the name it is asked for

    @property
    def helper(self) -> str:
        return f"{self.cls}::{self.name}"


@mutable
class FreeCopy:
    """A free function that uniques a name in the name → counter map each caller hands
    it (`GetUniqueName(name, &name_map)`): the callers' maps become supplies
    (codemods.unique_name_free_copies)."""

    name: str
    unit: Unit
    definition: tree_sitter.Node
    map_index: int  # which argument is the map
    by_pointer: bool  # `&name_map` rather than `name_map`
    namespace: tuple[str, ...] = ()
    cls: str = ""  # no class: the same fields as a Copy's, for the harness

    @property
    def helper(self) -> str:
        """The copy's qualified name: two namespaces may each have their own."""
        return "::".join((*self.namespace, self.name))


@mutable
class ModuleCopy:
    """A method of TVM's IRModuleNode that makes a name unique among the module's own
    functions (`global_var_map_`), recording nothing: each call becomes a GlobalVarSupply
    made from the module (codemods.unique_name_module_copies)."""

    name: str
    cls: str
    unit: Unit
    definition: tree_sitter.Node
    declaration: tree_sitter.Node | None  # in-class declaration of an out-of-line copy
    class_unit: Unit
    class_node: tree_sitter.Node

    @property
    def helper(self) -> str:
        return f"{self.cls}::{self.name}"


AnyCopy = Copy | FreeCopy | ModuleCopy


class CopyFinder:
    def __init__(self, project: Project, names: frozenset[str]) -> None:
        self.project = project
        self.names = names

    def copies(self, within: Collection[Path] | None = None) -> tuple[list[AnyCopy], list[Skipped]]:
        """Return the copies defined in the project's files (only in `within`, when
        given), and those that cannot be rewritten, with the reason."""
        found: list[AnyCopy] = []
        skipped: list[Skipped] = []
        for name in sorted(self.names):
            for unit in self.project.units(name):
                if within is not None and unit.path not in within:
                    continue
                path = unit.path
                for function in functions(unit.parsed.root):
                    method, owner = method_name(unit.parsed, function)
                    if method != name or _is_thin(unit.parsed, function, method, owner):
                        continue
                    line = function.start_point[0] + 1
                    try:
                        found.append(self._copy(unit, function, method, owner))
                    except NotRewritable as exc:
                        helper = f"{owner}::{method}" if owner else method
                        skipped.append(Skipped(helper, path, line, str(exc)))
        return found, skipped

    def _copy(
        self, unit: Unit, function: tree_sitter.Node, name: str, owner: str | None
    ) -> AnyCopy:
        kind = function.child_by_field_name("type")
        returns = cpp_scope.normalized(unit.parsed.text(kind)) if kind is not None else ""
        wrapper = ("", "")
        if returns.removeprefix("const") not in STRING_TYPES:
            wrapper = wrapper_call(unit.parsed, function)
            if not wrapper[0]:
                raise NotRewritable(
                    f"it returns `{returns}`, not a string, and not as one call of its "
                    "name (`return Doc::Text(name);`); a NameSupply returns String"
                )
        if owner is None:
            if wrapper[0]:
                raise NotRewritable(
                    f"a free function that returns `{returns}`; a NameSupply returns String"
                )
            taken = _map_parameter(unit.parsed, function)
            if taken is not None:
                namespace = namespace_of(unit.parsed, function)
                return FreeCopy(name, unit, function, *taken, namespace=namespace)
            raise NotRewritable("a free function: no class to keep a NameSupply member in")
        classes = self.project.classes(owner)
        if len(classes) != 1:
            raise NotRewritable(
                f"class `{owner}` is defined {len(classes)} times in the checked files"
            )
        class_unit, class_node = classes[0]
        overloads = _methods_named(class_unit.parsed, class_node, name)
        if overloads > 1:
            raise NotRewritable(
                f"`{owner}` declares {overloads} methods named `{name}`; an overloaded copy "
                "is left to a human"
            )
        copy = Copy(name, owner, unit, function, class_unit, class_node, wrapper=wrapper[0])
        body = function.child_by_field_name("body")
        used = cpp_scope.identifiers(unit.parsed, body) if body is not None else set()
        maps = [
            (b, f)
            for f in fields(class_unit.parsed, class_node)
            for b in cpp_scope.declared(class_unit.parsed, f, cpp_scope.Kind.MEMBER)
            if b.name in used and MAP_TYPE.match(cpp_scope.normalized(_type_text(class_unit, f)))
        ]
        if not maps and not wrapper[0] and _reads_module_names(self.project, unit, function, owner):
            in_class = (
                None
                if _is_member_definition(function)
                else _declaration(class_unit.parsed, class_node, name)
            )
            return ModuleCopy(name, owner, unit, function, in_class, class_unit, class_node)
        if len(maps) != 1:
            raise NotRewritable("it keeps no single name → counter map member")
        if _MODULE_NAMES in used and self.project.derives(owner, _MODULE_CLASS):
            raise NotRewritable(
                f"it also looks names up among the module's functions (`{_MODULE_NAMES}`), "
                "which a NameSupply member would not"
            )
        copy.map_name, copy.map_field = maps[0][0].name, maps[0][1]
        if len(copy.map_field.children_by_field_name("declarator")) > 1:
            raise NotRewritable(
                f"its map `{copy.map_name}` is declared together with other members"
            )
        if any(c.type == "storage_class_specifier" for c in copy.map_field.children):
            raise NotRewritable(
                f"its map `{copy.map_name}` is static, shared by every object; a supply "
                "member would not be"
            )
        if wrapper[0]:
            copy.parameter = only_uniquing(unit.parsed, function, copy.map_name, wrapper)
        if not _is_member_definition(function):
            copy.declaration = _declaration(class_unit.parsed, class_node, name)
        return copy


def _is_member_definition(function: tree_sitter.Node) -> bool:
    return function.parent is not None and function.parent.type == "field_declaration_list"


# TVM's IRModuleNode keeps its functions by name in this member: a copy that only looks
# names up in it makes a name unique among the module's functions, as a GlobalVarSupply
# made from the module does.
_MODULE_CLASS = "IRModuleNode"
_MODULE_NAMES = "global_var_map_"
_LOOKUPS = frozenset({"find", "count", "end", "ContainsKey"})


def _reads_module_names(
    project: Project, unit: Unit, function: tree_sitter.Node, owner: str
) -> bool:
    """Tell whether `function`, a method of IRModuleNode (or a class derived from it)
    taking one string, only looks names up in the module's `global_var_map_`."""
    if not project.derives(owner, _MODULE_CLASS):
        return False
    classes = project.classes(_MODULE_CLASS)
    if len(classes) != 1 or namespace_of(classes[0][0].parsed, classes[0][1])[:1] != ("tvm",):
        return False  # another library's class of that name
    taken = parameters(function_declarator(function))
    if len(taken) != 1 or type_of(unit.parsed, taken[0]) not in STRING_TYPES:
        return False
    body = function.child_by_field_name("body")
    uses = [
        n
        for n in (named_descendants(body) if body is not None else ())
        if n.type in ("identifier", "field_identifier") and unit.parsed.text(n) == _MODULE_NAMES
    ]
    for node in uses:
        use, parent = accessed(node)  # global_var_map_, this->global_var_map_
        method = parent.child_by_field_name("field") if parent is not None else None
        if (
            parent is None
            or parent.type != "field_expression"
            or parent.child_by_field_name("argument") != use
            or method is None
            or unit.parsed.text(method) not in _LOOKUPS
        ):
            return False
    return bool(uses)


def _is_thin(parsed: ParsedCpp, function: tree_sitter.Node, name: str, owner: str | None) -> bool:
    """Tell whether a function of a copy's name only hands the work to a supply (a copy
    this change made a wrapper of, or one written so)."""
    return facts_of(parsed, function, name, Config(), owner or "").is_thin_wrapper()


def _map_parameter(parsed: ParsedCpp, function: tree_sitter.Node) -> tuple[int, bool] | None:
    """Return (index, by pointer) of the name → counter map a free function takes with a
    string name (by pointer or reference, as TVM's relay::backend::GetUniqueName takes
    it); None when it takes no map."""
    listed = parameters(function_declarator(function))
    maps = [i for i, p in enumerate(listed) if MAP_TYPE.match(type_of(parsed, p))]
    if not maps:
        return None
    names = [p for p in listed if type_of(parsed, p) in STRING_TYPES]
    if len(listed) != 2 or len(maps) != 1 or len(names) != 1:
        raise NotRewritable(
            "a free function that takes its map from each caller with more than a name"
        )
    shape = listed[maps[0]].child_by_field_name("declarator")
    if shape is None or shape.type not in ("pointer_declarator", "reference_declarator"):
        raise NotRewritable("a free function that takes a copy of its callers' map")
    return maps[0], shape.type == "pointer_declarator"


def functions(root: tree_sitter.Node) -> Iterable[tree_sitter.Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            yield node
        stack.extend(reversed(node.named_children))


def fields(parsed: ParsedCpp, cls: tree_sitter.Node) -> list[tree_sitter.Node]:
    body = cls.child_by_field_name("body")
    return [c for c in (body.named_children if body else []) if c.type == "field_declaration"]


def _type_text(unit: Unit, declaration: tree_sitter.Node) -> str:
    kind = declaration.child_by_field_name("type")
    return unit.parsed.text(kind) if kind is not None else ""


def _methods_named(parsed: ParsedCpp, cls: tree_sitter.Node, name: str) -> int:
    """Return how many member functions named `name` the class body declares or defines."""
    body = cls.child_by_field_name("body")
    count = 0
    for member in body.named_children if body is not None else []:
        declarator = function_declarator(member) if member.type in _MEMBERS else None
        inner = declarator.child_by_field_name("declarator") if declarator is not None else None
        count += inner is not None and cpp_scope.normalized(parsed.text(inner)) == name
    return count


_MEMBERS = frozenset({"field_declaration", "function_definition", "declaration"})


def _declaration(parsed: ParsedCpp, cls: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    for member in fields(parsed, cls):
        declarator = function_declarator(member)
        inner = declarator.child_by_field_name("declarator") if declarator is not None else None
        if inner is not None and cpp_scope.normalized(parsed.text(inner)) == name:
            return member
    return None
