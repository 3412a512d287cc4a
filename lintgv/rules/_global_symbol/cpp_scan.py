"""global_symbol mutations in C++, and what the enclosing function shows of an earlier one.

A mutation is `WithAttr(f, kGlobalSymbol, v)` (and `BaseFuncWithAttr`), `WithoutAttr(f,
kGlobalSymbol)`, `WithAttrs(f, {{kGlobalSymbol, v}, ...})`, `DictAttrs({{kGlobalSymbol,
v}})`, and `dict.Set(kGlobalSymbol, v)` / `dict.erase(kGlobalSymbol)` on an attribute map.
It is an overwrite when the function visibly had a symbol: see `evidence`.
"""

import re
from bisect import bisect_left
from collections.abc import Iterator

import tree_sitter

from lintgv.parsing.cpp import ParsedCpp, node_cursor
from lintgv.parsing.cpp_nodes import named_descendants
from lintgv.records import frozen
from lintgv.rules._global_symbol.messages import Evidence, Kind

Node = tree_sitter.Node

KEY_CONSTANTS = frozenset(
    {
        "kGlobalSymbol",
        "attr::kGlobalSymbol",
        "tvm::attr::kGlobalSymbol",
        "::tvm::attr::kGlobalSymbol",
    }
)
_KEY_STRING = re.compile(r'^(?:(?:::)?(?:tvm::)?(?:ffi::|runtime::)?String\()?"global_symbol"\)?$')
# `static constexpr const char* kGlobalSymbol = "other";`: a constant of the file's own.
_OWN_CONSTANT = re.compile(r'\bkGlobalSymbol\s*(?:=|\{)\s*"(?!global_symbol")')
_TEMPLATE_ARGS = re.compile(r"<[^<>]*>")
_WORD = re.compile(r"[A-Za-z_]\w*")
_SPACE = re.compile(r"\s+")
# An expression that takes a function out of an IRModule.
MODULE_LOOKUP = re.compile(r"(?:->|\.)\s*(?:Lookup|functions\b)|\bLookup\s*\(")
# A map that starts as a copy of an existing function's attributes.
EXISTING_ATTRS = re.compile(r"(?:->|\.)\s*attrs\b")
_SCOPES = ("function_definition",)
# Constructors of a new function, which starts without attributes.
FUNCTION_CONSTRUCTORS = frozenset({"Function", "PrimFunc"})
_KEY_MENTION = re.compile(rb'kGlobalSymbol|"global_symbol"')
_JUMPS = frozenset({"return_statement", "continue_statement", "break_statement", "throw_statement"})
_MAX_HOPS = 4


@frozen
class CppMutation:
    kind: Kind
    call: Node
    evidence: Evidence | None


def _callee_name(parsed: ParsedCpp, func: Node) -> str:
    """Return the last plain name of a callee: `WithAttr` for `tvm::WithAttr<PrimFunc>`."""
    text = parsed.text(func)
    while True:
        stripped = _TEMPLATE_ARGS.sub("", text)
        if stripped == text:
            break
        text = stripped
    words = _WORD.findall(text)
    return words[-1] if words else ""


class CppScan:
    """Finds the global_symbol mutations of one parsed file."""

    def __init__(self, parsed: ParsedCpp) -> None:
        self.parsed = parsed
        self.own_constant = _OWN_CONSTANT.search(parsed.data.decode("utf-8", "replace")) is not None

    def text(self, node: Node) -> str:
        return self.parsed.text(node)

    def is_key(self, node: Node) -> bool:
        """Tell whether `node` names the global_symbol attribute key."""
        text = _SPACE.sub("", self.text(node))
        if text in KEY_CONSTANTS:
            return not (text == "kGlobalSymbol" and self.own_constant)
        return _KEY_STRING.match(text) is not None

    def mutations(self) -> list[CppMutation]:
        """Return every mutation in the file, each with its overwrite evidence."""
        keys = [m.start() for m in _KEY_MENTION.finditer(self.parsed.data)]
        found = []
        for call in self._calls_near_keys():
            arguments = call.child_by_field_name("arguments")
            if arguments is None or not _holds_any(arguments, keys):
                continue  # most calls: no key among their arguments
            matched = self.classify(call)
            if matched is None:
                continue
            kind, target = matched
            target = target if target is not None else _assigned_to(call)
            scope = _scope_of(self.parsed, call)
            family, traced = self._family(scope, call, target)
            if kind is Kind.SET and self._keeps_symbol(call, target):
                continue
            evidence = self._earlier_read(scope, call, target, family) or traced
            found.append(CppMutation(kind, call, evidence))
        return found

    def _calls_near_keys(self) -> Iterator[Node]:
        """Yield, in order, the calls of the top-level declarations that mention the key:
        a mutation holds the key among its arguments, so the other calls of a file (most
        of them) need not be made Python nodes at all."""
        size = len(self.parsed.data)
        ranges = self.parsed.declarations_around(_KEY_MENTION) or [(0, size)]
        cursor = node_cursor()
        for start, end in ranges:
            cursor.set_byte_range(start, end)
            yield from cursor.captures(self.parsed.root).get("call", [])

    def classify(self, call: Node) -> tuple[Kind, Node | None] | None:
        """Return the kind of mutation `call` is and the function or map it changes."""
        func = call.child_by_field_name("function")
        arguments = call.child_by_field_name("arguments")
        if func is None or arguments is None:
            return None
        args = arguments.named_children
        name = _callee_name(self.parsed, func)
        if func.type == "field_expression" and name in ("Set", "erase"):
            receiver = func.child_by_field_name("argument")
            if name == "Set" and len(args) == 2 and self.is_key(args[0]):
                return Kind.SET, receiver
            if name == "erase" and len(args) == 1 and self.is_key(args[0]):
                return Kind.REMOVE, receiver
            return None
        if name.endswith("WithAttr") and len(args) >= 3 and self.is_key(args[1]):
            return Kind.SET, args[0]
        if (name.endswith("WithoutAttr") or "RemoveFuncAttr" in name) and len(args) >= 2:
            return (Kind.REMOVE, args[0]) if self.is_key(args[1]) else None
        if name.endswith("WithAttrs") and len(args) >= 2 and self._sets_key(args[1]):
            return Kind.SET, args[0]
        if name == "DictAttrs" and args and self._sets_key(args[0]):
            return Kind.SET, None
        return None

    def _sets_key(self, node: Node) -> bool:
        """Tell whether an initializer list `{{key, value}, ...}` has the symbol's key."""
        if node.type == "compound_literal_expression":  # Map<String, ObjectRef>{...}
            node = node.child_by_field_name("value") or node
        if node.type != "initializer_list":
            return False
        return any(
            pair.type == "initializer_list"
            and pair.named_child_count == 2
            and self.is_key(pair.named_children[0])
            for pair in node.named_children
        )

    def _line(self, node: Node) -> int:
        return node.start_point[0] + 1

    def _guards_absence(self, scope: Node, read: Node, call: Node) -> bool:
        """Tell whether a test of `read`, or of the variable it is stored in
        (`auto gs = f->GetAttr(k); if (!gs) {...}`), lets `call` run only without one."""
        if _guards_absence(self.parsed, read, call):
            return True
        stored = _stored_in(read)
        if stored is None:
            return False
        name = self.text(stored)
        return any(
            node.type == "identifier"
            and read.end_byte <= node.start_byte < call.start_byte
            and self.text(node) == name
            and _guards_absence(self.parsed, node, call)
            for node in named_descendants(scope)
        )

    def _subject(self, read: Node) -> set[str]:
        """Return the variables whose symbol a read call looks at."""
        func = read.child_by_field_name("function")
        if func is not None and func.type == "field_expression":
            argument = func.child_by_field_name("argument")
            if argument is not None:
                return set(_identifiers(argument, self.parsed))
        arguments = read.child_by_field_name("arguments")
        names: set[str] = set()
        for arg in arguments.named_children if arguments is not None else []:
            if not self.is_key(arg):
                names.update(_identifiers(arg, self.parsed))
        return names

    def _reads(self, node: Node) -> list[Node]:
        """Return the calls under `node` that read the symbol (take its key, change nothing)."""
        reads = []
        for call in [node, *named_descendants(node)]:
            if call.type != "call_expression":
                continue
            arguments = call.child_by_field_name("arguments")
            keyed = arguments is not None and any(self.is_key(a) for a in arguments.named_children)
            if keyed and self.classify(call) is None:
                reads.append(call)
        return reads

    def _keeps_symbol(self, call: Node, target: Node | None) -> bool:
        """Tell whether the new value is an existing symbol copied unchanged
        (`dict.at(kGlobalSymbol)`, `f->GetAttr<String>(kGlobalSymbol).value()`)."""
        arguments = call.child_by_field_name("arguments")
        values = [a for a in arguments.named_children if a != target] if arguments else []
        return any(
            self._reads(v) and not any(n.type == "binary_expression" for n in named_descendants(v))
            for v in values
        )

    def _earlier_read(
        self, scope: Node, call: Node, target: Node | None, family: set[str]
    ) -> Evidence | None:
        reads = [
            other
            for other in sorted(self._reads(scope), key=lambda n: n.start_byte)
            if other.start_byte < call.start_byte
            and not _is_ancestor(other, call)
            and self._subject(other) & family
        ]
        # A setting that runs only when the function has no symbol (`if
        # (!f->GetAttr<String>(kGlobalSymbol)) f = WithAttr(...)`) is a plain setting,
        # whatever an earlier branch may have set.
        guarded = [other for other in reads if self._guards_absence(scope, other, call)]
        if guarded:
            return None
        for other in reads:
            return Evidence("its global_symbol is read first", self._line(other))
        cursor = node_cursor()
        cursor.set_byte_range(scope.start_byte, call.start_byte)
        for other in cursor.captures(scope).get("call", []):
            matched = self.classify(other) if other.end_byte <= call.start_byte else None
            if (
                matched is not None
                and matched[0] is Kind.SET
                and self._same(matched[1], target)
                and self._assigned_back(other, matched[1])
            ):
                return Evidence("it is set earlier", self._line(other))
        return None

    def _assigned_back(self, call: Node, target: Node | None) -> bool:
        """Tell whether a setting's result replaces its target (`f = WithAttr(f, ...)`);
        otherwise it made a copy and the target itself is unchanged."""
        stored = _assigned_to(call)
        if stored is None or target is None:
            return False
        moved = re.sub(r"^std::move\((.*)\)$", r"\1", _SPACE.sub("", self.text(target)))
        return _SPACE.sub("", self.text(stored)) == moved

    def _same(self, one: Node | None, other: Node | None) -> bool:
        """Tell whether two targets are one variable; a call makes a new function each time."""
        if (
            one is None
            or other is None
            or (
                other.type == "call_expression"
                and (
                    _callee_name(self.parsed, other.child_by_field_name("function") or other)
                    != "move"
                )
            )
        ):
            return False
        return _SPACE.sub("", self.text(one)) == _SPACE.sub("", self.text(other))

    def _family(
        self, scope: Node, call: Node, target: Node | None
    ) -> tuple[set[str], Evidence | None]:
        """Follow the target's variables back through their bindings, a few hops; return
        every variable met and what shows the function existed before, if anything."""
        if target is None:
            return set(), None
        if MODULE_LOOKUP.search(self.text(target)):
            evidence = Evidence("the function is taken from the module", self._line(target))
            return set(_identifiers(target, self.parsed)), evidence
        bindings = _bindings(scope, self.parsed)
        names = _identifiers(target, self.parsed)
        seen: set[str] = set()
        found: Evidence | None = None
        for _ in range(_MAX_HOPS):
            following: list[str] = []
            for name in names:
                if name in seen:
                    continue
                seen.add(name)
                for value in bindings.get(name, ()):
                    if value.start_byte >= call.start_byte:
                        continue
                    found = found or self._origin(name, value)
                    following.extend(_identifiers(value, self.parsed))
            names = following
        return seen, found

    def _origin(self, name: str, value: Node) -> Evidence | None:
        text = self.text(value)
        if MODULE_LOOKUP.search(text):
            return Evidence(f"`{name}` is taken from the module", self._line(value))
        if EXISTING_ATTRS.search(text):
            return Evidence(f"`{name}` copies an existing function's attributes", self._line(value))
        return None


def _assigned_to(call: Node) -> Node | None:
    """Return the variable a call's result is stored in (`x = call`, `T x = call`)."""
    parent = call.parent
    if parent is None:
        return None
    if parent.type == "init_declarator":
        return parent.child_by_field_name("declarator")
    if parent.type == "assignment_expression" and parent.child_by_field_name("right") == call:
        return parent.child_by_field_name("left")
    return None


def _holds_any(node: Node, offsets: list[int]) -> bool:
    """Tell whether one of the sorted byte `offsets` falls inside `node`."""
    index = bisect_left(offsets, node.start_byte)
    return index < len(offsets) and offsets[index] < node.end_byte


def mutations_of(parsed: ParsedCpp) -> list[CppMutation]:
    """Return the file's mutations, scanned once for the two rules that report them."""
    global _last
    cached = _last
    if cached is None or cached[0] is not parsed:
        cached = (parsed, CppScan(parsed).mutations())
        _last = cached
    return cached[1]


# GV301 and GV302 run one after the other on the same parsed file; the scan is shared
# by identity of the parse, so nothing carries over to another file (and a thread that
# finds another file's scan here simply scans its own).
_last: tuple[ParsedCpp, list[CppMutation]] | None = None


def _scope_of(parsed: ParsedCpp, node: Node) -> Node:
    """Return the innermost scope node holding `node` (the file's root at the top)."""
    last = node
    for parent in parsed.ancestors(node):
        if parent.type in _SCOPES:
            return parent
        last = parent
    return last


def _is_ancestor(ancestor: Node, node: Node) -> bool:
    return ancestor.start_byte <= node.start_byte and node.end_byte <= ancestor.end_byte


def _is_negated(parsed: ParsedCpp, read: Node, condition: Node) -> bool:
    for node in parsed.ancestors(read):
        if node == condition:
            break
        if node.type == "unary_expression" and node.child_by_field_name("operator") is not None:
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type == "!":
                return True
    return False


def _ends_in_jump(node: Node | None) -> bool:
    if node is None:
        return False
    if node.type == "compound_statement":
        last = node.named_children[-1] if node.named_children else None
        return last is not None and last.type in _JUMPS
    return node.type in _JUMPS


def _stored_in(read: Node) -> Node | None:
    """Return the variable a read is stored in: `auto gs = f->GetAttr<String>(k);`."""
    parent = read.parent
    if parent is not None and parent.type == "init_declarator":
        declarator = parent.child_by_field_name("declarator")
        return declarator if declarator is not None and declarator.type == "identifier" else None
    return None


def _guards_absence(parsed: ParsedCpp, read: Node, call: Node) -> bool:
    """Tell whether `read` is a test that lets `call` run only when there is no symbol:
    `if (!f->GetAttr(k)) { set }`, `if (f->GetAttr(k)) {...} else { set }`, or
    `if (f->GetAttr(k)) return;` before the set."""
    node = parsed.enclosing(
        read, ("if_statement", "compound_statement", "function_definition", "lambda_expression")
    )
    if node is None or node.type != "if_statement":
        return False
    condition = node.child_by_field_name("condition")
    if condition is None or not _is_ancestor(condition, read):
        return False
    negated = _is_negated(parsed, read, condition)
    consequence = node.child_by_field_name("consequence")
    alternative = node.child_by_field_name("alternative")
    if consequence is not None and _is_ancestor(consequence, call):
        return negated
    if alternative is not None and _is_ancestor(alternative, call):
        return not negated
    return not negated and alternative is None and _ends_in_jump(consequence)


def _is_callee(node: Node) -> bool:
    """Tell whether an identifier names a function or template rather than a value."""
    parent = node.parent
    while parent is not None and parent.type in ("qualified_identifier", "template_function"):
        node, parent = parent, parent.parent
    return (
        parent is not None
        and parent.type == "call_expression"
        and (parent.child_by_field_name("function") == node)
    )


def _identifiers(node: Node, parsed: ParsedCpp) -> list[str]:
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            if (
                not _is_callee(current)
                and current.parent is not None
                and (current.parent.type != "template_function")
            ):
                found.append(parsed.text(current))
        elif current.type in ("argument_list", "initializer_list") and (
            current.parent is not None and current.parent.type == "init_declarator"
        ):
            continue  # `PrimFunc f(params, body);`: a new function, no attributes
        elif current.type == "call_expression" and _is_constructor(current, parsed):
            continue  # `Function(params, body)`: likewise
        elif current.type != "lambda_expression":
            stack.extend(current.named_children)
    return found


def _is_constructor(call: Node, parsed: ParsedCpp) -> bool:
    func = call.child_by_field_name("function")
    return func is not None and _callee_name(parsed, func) in FUNCTION_CONSTRUCTORS


def _bound_names(declarator: Node, parsed: ParsedCpp) -> list[str]:
    if declarator.type == "identifier":
        return [parsed.text(declarator)]
    return [
        parsed.text(n)
        for n in named_descendants(declarator)
        if n.type == "identifier" and n.parent is not None and n.parent.type != "array_declarator"
    ]


def _bindings(scope: Node, parsed: ParsedCpp) -> dict[str, list[Node]]:
    """Return, for each variable of `scope`, the expressions it is bound to."""
    found: dict[str, list[Node]] = {}
    for node in named_descendants(scope):
        pairs: list[tuple[Node | None, Node | None]] = []
        has_value = node.child_by_field_name("value") is not None
        if node.type == "init_declarator" or (node.type == "declaration" and has_value):
            pairs.append(
                (node.child_by_field_name("declarator"), node.child_by_field_name("value"))
            )
        elif node.type == "assignment_expression":
            pairs.append((node.child_by_field_name("left"), node.child_by_field_name("right")))
        elif node.type == "for_range_loop":
            pairs.append(
                (node.child_by_field_name("declarator"), node.child_by_field_name("right"))
            )
        for declarator, value in pairs:
            if declarator is None or value is None:
                continue
            for name in _bound_names(declarator, parsed):
                found.setdefault(name, []).append(value)
    return found
