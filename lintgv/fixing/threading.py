"""Stage three of `lintgv fix --unsafe`: a supply threaded into a C++ function.

A GlobalVar built by hand where no GlobalVarSupply or IRModule is in scope is what TVM's
own migration (PR 12066) fixed by hand: the function gets a `GlobalVarSupply
global_var_supply` parameter (before any parameter with a default value), its
declarations in the project get it too, and every call the project makes of it passes
one along — the caller's own supply, or one made from the caller's IRModule. The site is
then named with the new parameter, as GV101's fix does with any supply in scope.

One change per function, across files, applied whole or not at all (fixing/groups.py).
A caller with neither a supply nor a module passes a supply member of its class when it
is a method of a class the project defines (fixing/cpp_members.py); otherwise it gets the
parameter in turn, up to `supply-depth` calls up, where that brings a real supply from
further up; otherwise it passes a new, empty one (`GlobalVarSupply(NameSupply(""))`, as
TVM's FFI registrations did). Both are listed in the change's evidence. The change is
unsafe: names now come from a supply. It is not made (and the summary says why) when a
call cannot be resolved, a file naming the function cannot be parsed, the function is
overloaded, or nothing checked calls it.
"""

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import tree_sitter

from lintgv.codemods.cpp_edits import follows_error, insert_before
from lintgv.codemods.cpp_scope import (
    common_block,
    identifiers,
    made_once,
    scope_at,
    statement_in,
)
from lintgv.codemods.includes import GLOBAL_VAR_SUPPLY_HEADER, include_edit
from lintgv.codemods.names import free_name
from lintgv.codemods.unique_names import Change, without_supply
from lintgv.config import Config
from lintgv.edits import apply_edits
from lintgv.errors import ParseError
from lintgv.fixing import cpp_callers, cpp_members
from lintgv.fixing.thread_edits import (
    PARAMETER,
    UNNAMED_SITE,
    Refusal,
    Site,
    ThreadEdits,
    excluded_naming,
    named_with_parameter,
)
from lintgv.helpers.cpp_shape import unit_of
from lintgv.helpers.names import word_pattern
from lintgv.holding import CppParses
from lintgv.identities import cpp_identity
from lintgv.model import Applicability, Edit, Language, SourceFile, Span
from lintgv.parsing.cpp import FUNCTION_NODES, ParsedCpp
from lintgv.parsing.cpp_nodes import LOOPS, function_declarator
from lintgv.reading import may_name

Node = tree_sitter.Node
_DECLARATION = f"GlobalVarSupply {PARAMETER}"
_NEW_SUPPLY = cpp_members.NEW_SUPPLY
_DEFAULTED = frozenset({"optional_parameter_declaration", "variadic_parameter_declaration"})


def plan_threading(
    sites: Iterable[Site],
    paths: Sequence[Path],
    read: Callable[[Path], str | None],
    config_for: Callable[[Path], Config],
    excluded: Callable[[], Sequence[Path]] = tuple,
    parses: CppParses | None = None,
) -> tuple[list[Change], list["Refusal"]]:
    """Return one change per function that holds some of `sites`, and the functions that
    cannot be changed with why; C++ `paths` are where
    its declarations and callers are looked for (texts from `read`); `config_for` gives
    each file's settings (a release without GlobalVarSupply gets no change); a function
    that one of the `excluded` files names is not changed. `parses` keeps the files'
    parses for the next plan."""
    parses = parses if parses is not None else CppParses()
    by_function: dict[tuple[Path, int], list[Site]] = {}
    parsed_of: dict[Path, ParsedCpp] = {}
    functions: dict[tuple[Path, int], Node] = {}
    for site in sites:
        text = read(site.path)
        if text is None:
            continue
        if site.path not in parsed_of:
            try:
                parsed_of[site.path] = parses.of(site.path, text)
            except ParseError:
                continue  # its GV101 findings came from this text: not expected, but safe
        parsed = parsed_of[site.path]
        function = _function_at(parsed, site)
        if function is not None:
            key = (site.path, function.start_byte)
            by_function.setdefault(key, []).append(site)
            functions[key] = function
    changes: list[Change] = []
    refused: list[Refusal] = []
    for key in by_function:
        path = key[0]
        config = config_for(path)
        if config.release.has_unique_name_supply:
            continue  # no GlobalVarSupply in this release
        function = functions[key]
        outcome = _thread(path, parsed_of, parses, function, paths, read, config, excluded)
        if isinstance(outcome, Change):
            outcome = without_supply(outcome, config_for) or outcome
        if isinstance(outcome, Change):
            changes.append(outcome)
        elif outcome is not None:
            unit = unit_of(parsed_of[path], function, config)
            name = unit.qualified if unit is not None else "?"
            refused.append(Refusal(f"{cpp_identity(name)} (supply parameter)", path, outcome))
    parses.keep_used()
    return changes, refused


def _function_at(parsed: ParsedCpp, site: Site) -> Node | None:
    offset = _offset(parsed, site.line, site.column)
    node = parsed.root.descendant_for_byte_range(offset, offset)
    function = parsed.enclosing(node, FUNCTION_NODES) if node is not None else None
    return function if function is not None and function.type == "function_definition" else None


def _offset(parsed: ParsedCpp, line: int, column: int) -> int:
    """Return the byte offset of a 1-based line and a code-point column."""
    start = parsed.line_starts[line - 1]
    end = parsed.line_starts[line] if line < len(parsed.line_starts) else len(parsed.data)
    prefix = parsed.data[start:end].decode("utf-8", "replace")[:column]
    return start + len(prefix.encode("utf-8"))


def _where(path: Path, parsed: ParsedCpp, node: Node) -> str:
    return f"{path.name}:{parsed.position(node.start_byte)[0]}"


def _parameters(function: Node) -> Node | None:
    declarator = function_declarator(function)
    return declarator.child_by_field_name("parameters") if declarator is not None else None


def _insertion(parsed: ParsedCpp, container: Node, index: int, text: str) -> Edit:
    """Return the edit that puts `text` as item `index` of a parameter or argument list."""
    items = cpp_callers.items(container)
    if not items:
        at = container.start_byte + 1  # after "("
        inserted = text
    elif index < len(items):
        at = items[index].start_byte
        inserted = f"{text}, "
    else:
        at = items[-1].end_byte
        inserted = f", {text}"
    line, column = parsed.position(at)
    return Edit(Span(line, column, line, column), inserted, "")


def _index(parameters: Node) -> int:
    items = cpp_callers.items(parameters)
    for index, item in enumerate(items):
        if item.type in _DEFAULTED:
            return index
    return len(items)


def _thread(
    path: Path,
    parsed_of: dict[Path, ParsedCpp],
    parses: CppParses,
    function: Node,
    paths: Sequence[Path],
    read: Callable[[Path], str | None],
    config: Config,
    excluded: Callable[[], Sequence[Path]],
) -> Change | str | None:
    """Return the change threading a supply into `function` (and, up to `supply-depth`
    calls up, into callers that have none to pass); a text saying why it cannot be made;
    or None when there is nothing to thread (no named function, done already).
    `parsed_of` holds the parses of the files' current texts, shared by every function
    planned in a run (a change is made from edits, never by altering a parse), made
    by `parses`."""
    parsed = parsed_of[path]
    unit = unit_of(parsed, function, config)
    parameters = _parameters(function)
    if unit is None or parameters is None or unit.name == "main":
        return None
    if PARAMETER in parsed.text(parameters):
        return None  # threaded already
    threader = _Threader(paths, read, config, parsed_of, parses, excluded)
    refusal = threader.thread(path, function, config.supply_depth, frozenset())
    if refusal is not None:
        return refusal
    texts: dict[Path, str] = {}
    for changed, file_edits in threader.edits.items():
        original = read(changed)
        if original is None:
            return f"{changed.name} cannot be read again"
        header = include_edit(threader.parsed[changed], GLOBAL_VAR_SUPPLY_HEADER)
        texts[changed] = apply_edits(original, [*file_edits, *([header] if header else [])])
    site_text = named_with_parameter(SourceFile(path, Language.CPP, texts[path]), config)
    if site_text is None:
        return UNNAMED_SITE
    texts[path] = site_text
    evidence = threader.evidence()
    calls = threader.calls
    title = f"Pass a GlobalVarSupply into {unit.qualified} ({calls} call(s) updated)"
    helper = f"{cpp_identity(unit.qualified)} (supply parameter)"
    return Change(helper, texts, Applicability.UNSAFE, calls, title, evidence)


class _Threader(ThreadEdits):
    """A C++ change: the function, its declarations and its callers."""

    def __init__(
        self,
        paths: Sequence[Path],
        read: Callable[[Path], str | None],
        config: Config,
        parsed: dict[Path, ParsedCpp],
        parses: CppParses,
        excluded: Callable[[], Sequence[Path]],
    ) -> None:
        super().__init__()
        self.paths = paths
        self.read = read
        self.config = config
        self.parsed = parsed
        self.parses = parses
        self.excluded = excluded  # files the run excludes, which no change may leave behind
        self.naming: dict[str, dict[Path, ParsedCpp] | str] = {}  # see _files_naming
        self.classes: dict[str, bool] = {}  # class names, by whether the project defines one

    def _files_naming(self, name: str) -> dict[Path, ParsedCpp] | str:
        """Return the parses of the project's files that name `name` as a word, or why
        one cannot be parsed; looked for once per name (a class's methods ask for it
        at every call)."""
        if name not in self.naming:
            self.naming[name] = self._find_naming(name)
        return self.naming[name]

    def _find_naming(self, name: str) -> dict[Path, ParsedCpp] | str:
        found: dict[Path, ParsedCpp] = {}
        naming = self.parses.holding.matches(word_pattern(name), name, self.paths, self.read)
        for other, text in naming:
            if text is None:
                if may_name(other, name):
                    return f"{other.name} names {name}, and cannot be read as text"
                continue
            if other not in self.parsed:
                try:
                    self.parsed[other] = self.parses.of(other, text)
                except ParseError:
                    return f"{other.name} cannot be parsed, so its calls of {name} are unknown"
            found[other] = self.parsed[other]
        return found

    def _defines_class(self, name: str) -> bool:
        """Tell whether some file of the project defines a class or struct `name` (with a
        body; `class Outer::name` too), by text: a parse would cost more than it tells."""
        if name not in self.classes:
            defines = re.compile(
                rf"\b(?:class|struct)\s+(?:\w+\s+)?(?:[\w:]+::)?{re.escape(name)}\b[^;{{()]*\{{"
            )
            self.classes[name] = any(
                name in text and defines.search(text) is not None
                for other in self.paths
                if (text := self.read(other)) is not None
            )
        return self.classes[name]

    def thread(self, path: Path, function: Node, depth: int, seen: frozenset[str]) -> str | None:
        """Add the edits that give `function` the parameter and pass it at every call;
        return why that cannot be done (nothing is added then)."""
        parsed = self.parsed[path]
        unit = unit_of(parsed, function, self.config)
        parameters = _parameters(function)
        if unit is None or parameters is None or unit.name == "main":
            return "not a named function"
        if PARAMETER in parsed.text(parameters):
            return f"{unit.name} has a parameter named {PARAMETER} already"
        identity = cpp_identity(unit.qualified)
        # A free function is also called through its namespace (`tvm::LowerPrimFunc(...)`).
        namespace = cpp_callers.namespace_of(parsed, function) if "::" not in identity else ""
        identities = {identity, f"{namespace}::{unit.name}"} if namespace else {identity}
        files = self._files_naming(unit.name)
        if isinstance(files, str):
            return files
        blocked = excluded_naming(self.excluded, self.read, unit.name)
        if blocked is not None:
            return blocked
        count = len(cpp_callers.items(parameters))
        types = cpp_callers.parameter_types(parsed, parameters)
        declarations: dict[Path, list[Node]] = {}
        for other, target in files.items():
            at = function.start_byte if other == path else -1
            declarations[other], overloads = cpp_callers.declarations(
                target, unit.name, identity, types, at
            )
            if overloads:
                return f"{unit.name} is overloaded ({other.name}): its calls cannot be told apart"
        # Default values sit on the declarations: the new parameter goes before the first.
        index = min([_index(parameters), *(_index(d) for ds in declarations.values() for d in ds)])
        saved = self.snapshot()
        self.threaded.append(unit.qualified)
        self.given.add((path, function.start_byte))
        self.add(path, _insertion(parsed, parameters, index, _DECLARATION))
        calls = 0
        grounded = False  # some call passes a real supply, not a new, empty one
        refusal = None
        # Calls that would build a supply from their caller's module, by caller.
        built: dict[int, list[tuple[Node, Node, str]]] = {}
        for other, target in files.items():
            for declaration in declarations[other]:
                self.add(other, _insertion(target, declaration, index, _DECLARATION))
            resolved, unknown = cpp_callers.calls(
                target, unit.name, identities, self._defines_class
            )
            if unknown:
                # A call left without the new argument would not compile: no change.
                where = ", ".join(
                    f"{other.name}:{target.position(c.start_byte)[0]}" for c in unknown
                )
                refusal = f"calls of {unit.name} whose receiver lintgv cannot resolve: {where}"
                break
            for call, arguments in resolved:
                where = _where(other, target, call)
                if len(cpp_callers.items(arguments)) > count:
                    refusal = f"a call passes more arguments than {unit.name} takes: {where}"
                    break
                if len(cpp_callers.items(arguments)) < index:
                    refusal = (
                        f"a call relies on default arguments before the new parameter: {where}"
                    )
                    break
                if made_once(target, call):
                    # It would pass the first call's supply for the modules of every call.
                    refusal = f"a call is in a static local's initializer, run once: {where}"
                    break
                supply = self._supply(
                    other,
                    target,
                    call,
                    function if other == path else None,
                    depth,
                    seen | {identity},
                )
                caller = target.enclosing(call, ("function_definition",))
                if (
                    caller is not None
                    and supply.startswith("GlobalVarSupply(")
                    and (supply != _NEW_SUPPLY)
                ):
                    built.setdefault(caller.id, []).append((call, arguments, supply))
                else:
                    self.add(other, _insertion(target, arguments, index, supply))
                calls += 1
                grounded |= supply != _NEW_SUPPLY
            for members in built.values():
                self._pass_one_supply(other, target, members, index)
            built.clear()
            if refusal is not None:
                break
        if refusal is None and not calls:
            # Nothing here calls it: its callers, if any, are outside the files checked (an
            # API, an FFI registration), and a new parameter would break them unseen.
            refusal = f"no call of {unit.name} in the files checked"
        if refusal is not None:
            self.restore(saved)
            return refusal
        self.calls += calls
        self.grounded = grounded
        return None

    def _pass_one_supply(
        self, path: Path, parsed: ParsedCpp, members: list[tuple[Node, Node, str]], index: int
    ) -> None:
        """Make the calls of one caller that each would build a supply from its module
        share one, and a call in a loop use one for every turn: a supply per call would
        name each call's globals as if no other had made any. Declared in the innermost
        block holding them all (out of loops and switch bodies) before the first; inline
        when the module is not visible there."""
        members = sorted(members, key=lambda m: m[0].start_byte)
        first, _, supply = members[0]
        caller = parsed.enclosing(first, ("function_definition",))
        body = caller.child_by_field_name("body") if caller is not None else None
        anchor = None
        repeated = len(members) > 1 or any(
            a.type in LOOPS for a in _ancestors_within(parsed, first, body)
        )
        same = all(s == supply for _, _, s in members)
        if caller is not None and body is not None and repeated and same:
            block = common_block(parsed, body, [call for call, _, _ in members])
            anchor = statement_in(parsed, block, first)
        module = supply.removeprefix("GlobalVarSupply(").removesuffix(")").lstrip("*")
        if anchor is not None and scope_at(parsed, anchor).find(module) is None:
            anchor = None  # declared inside the statement, or later
        if anchor is not None and follows_error(anchor):
            anchor = None  # a macro before it would apply to the supply instead
        if anchor is None or caller is None:
            for _, arguments, each in members:
                self.add(path, _insertion(parsed, arguments, index, each))
            return
        name = free_name(identifiers(parsed, caller), PARAMETER)
        self.add(path, insert_before(parsed, anchor, f"GlobalVarSupply {name} = {supply};"))
        for _, arguments, _ in members:
            self.add(path, _insertion(parsed, arguments, index, name))

    def _supply(
        self,
        path: Path,
        parsed: ParsedCpp,
        call: Node,
        threaded: Node | None,
        depth: int,
        seen: frozenset[str],
    ) -> str:
        """Return what a call passes; thread the parameter into its caller when the
        caller has nothing to pass and `depth` allows, else a new, empty supply."""
        supply = cpp_callers.supply_for(parsed, call, threaded, PARAMETER)
        if supply is not None:
            return supply
        caller = parsed.enclosing(call, FUNCTION_NODES)
        if caller is not None and caller.type == "function_definition":
            if (path, caller.start_byte) in self.given:
                return PARAMETER
            member = self._member(path, parsed, caller, call)
            if member is not None:
                self.kept.append((_where(path, parsed, call), member))
                return member
            unit = unit_of(parsed, caller, self.config)
            known = unit is not None and cpp_identity(unit.qualified) in seen
            if depth > 1 and unit is not None and not known:
                # A caller gets the parameter only where that brings a real supply from
                # further up; a chain of new, empty supplies changes signatures for nothing.
                saved = self.snapshot()
                if self.thread(path, caller, depth - 1, seen) is None and self.grounded:
                    return PARAMETER
                self.restore(saved)
        self.unresolved.append(_where(path, parsed, call))
        return _NEW_SUPPLY

    def _member(self, path: Path, parsed: ParsedCpp, method: Node, call: Node) -> str | None:
        """Return the supply member of the class of `method`, declaring it in the class
        the first time; None when `method` is no method a member can serve."""

        def files(name: str) -> dict[Path, ParsedCpp] | None:
            found = self._files_naming(name)
            return None if isinstance(found, str) else found

        member = cpp_members.member_for(path, parsed, method, call, files)
        if member is None:
            return None
        # A function threaded here that is a method of the same class would then see two
        # supplies, its parameter and the member (GV101 would not choose).
        if any(t.rsplit("::", 1)[0].endswith(member.owner) for t in self.threaded if "::" in t):
            return None
        if member.key not in self.members:
            self.members[member.key] = member.name
            if member.edit is not None:
                self.add(member.path, member.edit)
        return self.members[member.key]


def _ancestors_within(parsed: ParsedCpp, node: Node, stop: Node | None) -> list[Node]:
    """Return the ancestors of `node` below `stop`, innermost first."""
    found = []
    for ancestor in parsed.ancestors(node):
        if ancestor == stop:
            break
        found.append(ancestor)
    return found
