"""GV101 in C++: every spelling of a GlobalVar construction, fixes planned per function."""

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

import tree_sitter

from lintgv.codemods import supply_cpp
from lintgv.config import Config
from lintgv.model import Fix
from lintgv.parsing.cpp import ParsedCpp, node_cursor
from lintgv.parsing.cpp_nodes import function_declarator
from lintgv.rules._base import Captures, CppRule, RuleContext
from lintgv.rules._direct_global_var.common import SUPPLY_METHODS, extra_triggers, message_for

CPP_CONSTRUCTORS = frozenset(
    {
        "GlobalVar",
        "tvm::GlobalVar",
        "::tvm::GlobalVar",
        "relay::GlobalVar",
        "tvm::relay::GlobalVar",
        "ir::GlobalVar",
        "tvm::ir::GlobalVar",
    }
)
# Before TVM 0.7 a node was built by its static `make` (`GlobalVarNode::make("f")`), which
# TVM 0.6 registered as the FFI constructor; calls of it are constructions.
NODE_MAKERS = frozenset(
    {
        "GlobalVarNode::make",
        "relay::GlobalVarNode::make",
        "tvm::relay::GlobalVarNode::make",
        "::tvm::relay::GlobalVarNode::make",
    }
)
MAKE_OBJECT = frozenset(
    {
        "make_object",
        "tvm::make_object",
        "runtime::make_object",
        "tvm::runtime::make_object",
        "ffi::make_object",
        "tvm::ffi::make_object",
    }
)
# GV101's trigger in C++: `GlobalVar` where a construction can follow it, or
# `make_object<GlobalVarNode>`. Most C++ files of a compiler tree mention GlobalVar only
# where none can: as a template argument, in a list, before `::` or `.`, as the type of a
# parameter that ends its list (`const GlobalVar& gv)`), or of one variable without an
# initialiser or copied from one expression (`GlobalVar gv;`, `GlobalVar gv =
# GetRef<GlobalVar>(op);`). Such files are not parsed. After a declarator's name, a comma
# may lead to a constructing one (`GlobalVar a, b = x, c("y");`): it always matches.
# Every scan is bounded: a hostile file repeating the start of a pattern without its end
# must not make each occurrence read to the end of the file (minutes for a large file).
# An initialiser longer than the bound is taken for a possible construction; between
# `make_object` and `GlobalVarNode` (blanks, comments, `<`, namespaces) the bound is far
# beyond what code holds.
_NO_CONSTRUCTION = r"[>,);.]|::|[&*]*\s*\w+\s*(?:[);]|=[^;,{]{0,200};)"
# Each starts with its literal, which `re` then finds by a fast scan (a leading `\b` would
# make it try every position); the word boundary before it is a lookbehind.
CONSTRUCTION_TRIGGERS = (
    rf"GlobalVar(?<=\bGlobalVar)\b(?!\s*(?:{_NO_CONSTRUCTION}))",
    r"make_object(?<=\bmake_object)[^;]{0,160}?\bGlobalVarNode\b",
    r"GlobalVarNode(?<=\bGlobalVarNode)\s*::\s*make\s*\(",
)
_SPACE = re.compile(r"\s+")
_MACRO = re.compile(rb"[A-Z][A-Z0-9_]*")  # an attribute macro's name: TVM_DLL
_CONSTRUCTOR_REGISTRATION = re.compile(r'^"[\w.]*\.GlobalVar"$')


# The node types of a construction's parts: what is called, the type declared, the
# arguments (see CppSites.matches_in).
_CALLEES = frozenset({"identifier", "qualified_identifier", "template_function"})
_TYPES = frozenset({"type_identifier", "qualified_identifier"})
_VALUES = frozenset({"argument_list", "initializer_list"})


def _sites_at(node: tree_sitter.Node) -> list[tuple[int, Captures]]:
    """Return the sites `node` starts (see CppSites.matches), each with the offset of its
    last node."""
    if node.type == "call_expression":
        func = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if (
            func is None
            or func.type not in _CALLEES
            or args is None
            or args.type != "argument_list"
        ):
            return []
        return [(args.start_byte, {"func": [func], "args": [args], "call": [node]})]
    kind = node.child_by_field_name("type")
    if kind is None or kind.type not in _TYPES:
        return []
    found = []
    in_block: bool | None = None  # asked of the parent only for a function declarator
    for declarator in node.children_by_field_name("declarator"):
        if declarator.type == "init_declarator":
            value = declarator.child_by_field_name("value")
            if value is not None and value.type in _VALUES:
                found.append(
                    (value.start_byte, {"type": [kind], "args": [value], "init": [declarator]})
                )
        elif declarator.type == "function_declarator":
            if in_block is None:
                # tree-sitter's own answer, not parsed.parent's: charting the path here,
                # early in a check, left the C allocator holding 4 MB more at the end of
                # a one-file run. It is asked only of a declaration of a function.
                parent = node.parent
                in_block = parent is not None and parent.type == "compound_statement"
            inner = declarator.child_by_field_name("declarator")
            params = declarator.child_by_field_name("parameters")
            if (
                in_block
                and inner is not None
                and inner.type == "identifier"
                and params is not None
                and params.type == "parameter_list"
            ):
                captures = {"type": [kind], "params": [params], "init": [declarator]}
                found.append((params.start_byte, captures))
    return found


def _written_type(
    kind: tree_sitter.Node, declarator: tree_sitter.Node, data: bytes
) -> tree_sitter.Node:
    """Return the type of a declaration as written. tree-sitter reads an attribute macro
    before it (`TVM_ATTRIBUTE_UNUSED static GlobalVar gv("f");`) as the type, and the
    type as an error of one identifier between that macro and the declarator."""
    if kind.type != "type_identifier" or not _MACRO.fullmatch(data, kind.start_byte, kind.end_byte):
        return kind
    declaration = declarator.parent
    for child in declaration.children if declaration is not None else ():
        if child.start_byte >= declarator.start_byte:
            break
        if (
            child.type == "ERROR"
            and child.start_byte >= kind.end_byte
            and child.named_child_count == 1
            and child.named_children[0].type == "identifier"
        ):
            return child.named_children[0]
    return kind


def _is_bare_name(node: tree_sitter.Node) -> bool:
    return (
        node.type == "parameter_declaration"
        and node.child_by_field_name("declarator") is None
        and node.named_child_count == 1
        and node.named_children[0].type == "type_identifier"
    )


class CppSites(CppRule):
    """Finds the constructions of a file and plans their fixes together."""

    # Every construction spells GlobalVar, or an extra constructor: both are triggers.
    MATCHES_HOLD_TRIGGER = True
    LOCAL = True
    QUERY = ""  # `matches` finds the sites itself

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return (*CONSTRUCTION_TRIGGERS, *extra_triggers(config)), ()

    def __init__(self, context: RuleContext, parsed: ParsedCpp) -> None:
        super().__init__(context, parsed)
        self._sites: list[tuple[supply_cpp.CppSite, tree_sitter.Node | None]] = []

    def run(self) -> None:
        super().run()
        if not any(f.fix is not None for f in self.findings):
            return
        include = self._planner().include()
        if include is None:
            return
        self.findings = [
            f
            if f.fix is None
            else replace(f, fix=Fix(f.fix.title, f.fix.applicability, (*f.fix.edits, include)))
            for f in self.findings
        ]

    def check(self, ranges: Sequence[tuple[int, int]]) -> None:
        """Find the sites, then plan their fixes together: one supply per function."""
        super().check(ranges)
        planner = self._planner()
        suppressed = self.suppressed_among([(site.node, end) for site, end in self._sites])
        planned = [site for i, (site, _) in enumerate(self._sites) if i not in suppressed]
        outcomes = iter(planner.plan(planned))
        self.looked_outside.extend(planner.looked_outside)
        for index, (site, end) in enumerate(self._sites):
            if index in suppressed:
                # Dropped with its suppression, which it marks as used.
                self.report(site.node, end=end)
                continue
            outcome = next(outcomes)
            message = message_for(self.config, self.META.message, outcome.reason)
            self.report(
                site.node,
                message,
                end=end,
                fix=outcome.fix,
                reason=outcome.reason,
                blocker=outcome.blocker,
            )

    def _planner(self) -> supply_cpp.SupplyPlanner:
        unique_names = self.config.release.has_unique_name_supply
        return supply_cpp.SupplyPlanner(self.parsed, unique_names)

    def matches_in(self, start: int, end: int) -> Iterable[Captures]:
        """Return the sites that reach into the byte range from `start` to `end`, in
        document order, each as the captures of a match of this query would give it:

            (call_expression
               function: [(identifier) (qualified_identifier) (template_function)] @func
               arguments: (argument_list) @args) @call
            (declaration
               type: [(type_identifier) (qualified_identifier)] @type
               declarator: (init_declarator
                  value: [(argument_list) (initializer_list)] @args) @init)
            (compound_statement
              (declaration
                 type: [(type_identifier) (qualified_identifier)] @type
                 declarator: (function_declarator
                    declarator: (identifier)
                    parameters: (parameter_list) @params) @init))

        tree-sitter compiles that query in 24 ms, in every process that checks a C++
        file; the nodes a site starts at are captured by the query the rules share
        (`site` in parsing.cpp.NODES), compiled in 5 (tests prove the two give the same
        matches in the same order)."""
        cursor = node_cursor()
        cursor.set_byte_range(start, end)
        found: list[tuple[int, Captures]] = []
        for node in cursor.captures(self.parsed.root).get("site", []):
            found.extend(_sites_at(node))
        # tree-sitter ends a match on entering its last node (the arguments).
        found.sort(key=lambda site: site[0])
        return [captures for _, captures in found]

    def on_match(self, captures: Captures) -> None:
        if "params" in captures:
            # `GlobalVar gv(name);` inside a function body: tree-sitter reads the most
            # vexing parse as a local function declaration, but a parameter list made
            # only of bare names is a constructor call with variables as arguments.
            params = captures["params"][0]
            if not params.named_children or not all(
                _is_bare_name(p) for p in params.named_children
            ):
                return
            captures = {**captures, "args": [params]}
        args = captures["args"][0]
        kind = supply_cpp.SiteKind.CALL
        declarator = None
        if "call" in captures:
            func = captures["func"][0]
            name = _SPACE.sub("", self.text(func))
            made = self._made_object(func)
            if made is not None:
                if made != "GlobalVarNode":
                    return
                kind = supply_cpp.SiteKind.MAKE_OBJECT
            elif (
                func.type == "template_function"  # a template other than make_object's
                or not (self._is_constructor(name) or name in NODE_MAKERS)
                or args.named_child_count == 0
            ):
                return
            node, end = captures["call"][0], None
        else:
            written = _written_type(captures["type"][0], captures["init"][0], self.parsed.data)
            if not self._is_constructor(_SPACE.sub("", self.text(written))):
                return
            if args.named_child_count == 0:
                return
            node, end = written, captures["init"][0]
            kind, declarator = supply_cpp.SiteKind.DECLARATION, end
        if self._is_allowed_context(node) or self._is_supplied(args):
            return
        self._sites.append((supply_cpp.CppSite(kind, node, args, declarator), end))

    def _made_object(self, func: tree_sitter.Node) -> str | None:
        """Return the type a `make_object<T>` call makes (T's last name part), qualified
        or not (`tvm::make_object<GlobalVarNode>`); None for any other callee."""
        scopes = []
        while func.type == "qualified_identifier":
            scope = func.child_by_field_name("scope")
            scopes.append(self.text(scope) if scope is not None else "")
            inner = func.child_by_field_name("name")
            if inner is None:
                return None
            func = inner
        name = func.child_by_field_name("name")
        arguments = func.child_by_field_name("arguments")
        if func.type != "template_function" or name is None or arguments is None:
            return None
        written = _SPACE.sub("", "::".join([*scopes, self.text(name)])).lstrip(":")
        if written not in MAKE_OBJECT:
            return None
        return _SPACE.sub("", self.text(arguments)).strip("<>").split("::")[-1]

    def _is_constructor(self, name: str) -> bool:
        return name in CPP_CONSTRUCTORS or name in self.config.extra_constructors

    def _is_allowed_context(self, node: tree_sitter.Node) -> bool:
        """Tell whether `node` sits in the GlobalVar constructor (before TVM 0.7,
        `GlobalVarNode::make`) or its FFI registration."""
        for parent in self.parsed.ancestors(node):
            if parent.type == "function_definition":
                declarator = function_declarator(parent)
                inner = declarator.child_by_field_name("declarator") if declarator else None
                if inner is not None and _SPACE.sub("", self.text(inner)).endswith(
                    ("GlobalVar::GlobalVar", "GlobalVarNode::make")
                ):
                    return True
            if parent.type == "call_expression" and self._registers_constructor(parent):
                return True
        return False

    def _registers_constructor(self, call: tree_sitter.Node) -> bool:
        """Tell whether a call chain such as `REGISTER("ir.GlobalVar").set_body(...)` names
        the GlobalVar constructor in its first string argument."""
        node: tree_sitter.Node | None = call
        while node is not None:
            if node.type == "call_expression":
                arguments = node.child_by_field_name("arguments")
                named = arguments.named_children if arguments is not None else []
                if named and named[0].type == "string_literal":
                    return _CONSTRUCTOR_REGISTRATION.match(self.text(named[0])) is not None
                node = node.child_by_field_name("function")
            elif node.type == "field_expression":
                node = node.child_by_field_name("argument")
            else:
                return False
        return False

    def _is_supplied(self, args: tree_sitter.Node) -> bool:
        """Tell whether, from 0.25 on, the name comes from a supply: `GlobalVar(names->
        FreshName(x))`, or a variable assigned from one or reserved in one before."""
        if not self.config.release.has_unique_name_supply or not args.named_children:
            return False
        first = args.named_children[0]
        if first.type == "call_expression":
            return self._supply_method(first) is not None
        name = self.text(first).strip()
        if not re.fullmatch(r"\w+", name):
            return False
        scope = self.parsed.enclosing(first, ("function_definition",))
        if scope is None:
            return False
        cursor = node_cursor()
        cursor.set_byte_range(scope.start_byte, first.start_byte)
        for call in cursor.captures(scope).get("call", []):
            if call.end_byte <= first.start_byte and self._supplies(call, name):
                return True
        return False

    def _supply_method(self, call: tree_sitter.Node) -> str | None:
        func = call.child_by_field_name("function")
        field = func.child_by_field_name("field") if func is not None else None
        method = self.text(field) if field is not None else None
        return method if method in SUPPLY_METHODS else None

    def _supplies(self, call: tree_sitter.Node, name: str) -> bool:
        """Tell whether `call` reserves `name`, or is stored in it (`name = s->FreshName()`)."""
        method = self._supply_method(call)
        if method is None:
            return False
        arguments = call.child_by_field_name("arguments")
        named = arguments.named_children if arguments is not None else []
        if method in ("ReserveName", "reserve_name") and named and self.text(named[0]) == name:
            return True
        parent = call.parent
        if parent is not None and parent.type == "init_declarator":
            declarator = parent.child_by_field_name("declarator")
            return declarator is not None and self.text(declarator) == name
        if parent is not None and parent.type == "assignment_expression":
            left = parent.child_by_field_name("left")
            return left is not None and self.text(left) == name
        return False
