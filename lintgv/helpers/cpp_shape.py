"""The functions of a C++ file (definitions, and lambdas stored in a variable), each with
its uniquing facts (see cpp_facts), found once per parse for GV201, GV202 and GV203."""

import re
from collections.abc import Callable, Iterable, Sequence

import tree_sitter

from lintgv.config import Config
from lintgv.digest import blake2b
from lintgv.helpers.cpp_facts import facts_of
from lintgv.helpers.names import CPP_SHAPE_TRIGGERS, Facts, Verdict, is_known_name, name_triggers
from lintgv.identities import cpp_identity
from lintgv.parsing.cpp import ParsedCpp, node_cursor
from lintgv.parsing.cpp_nodes import function_declarator
from lintgv.parsing.cpp_regions import Region
from lintgv.prefilter import bytes_pattern
from lintgv.records import frozen

Node = tree_sitter.Node
_SPACE = re.compile(r"\s+")
_NAME_NODES = frozenset(
    {"identifier", "field_identifier", "qualified_identifier", "destructor_name", "operator_name"}
)


@frozen
class CppUnit:
    """A function definition, or a lambda stored in a named variable."""

    node: Node
    name: str  # bare: GetUniqueName
    qualified: str  # as the reader knows it: CodeGenC::GetUniqueName
    name_node: Node  # where a finding on the definition points
    facts: Facts

    @property
    def is_lambda(self) -> bool:
        return self.node.type == "lambda_expression"


def _function_name(parsed: ParsedCpp, function: Node) -> tuple[Node, str] | None:
    declarator = function_declarator(function)  # through `&` and `&&` of the return type
    inner = declarator.child_by_field_name("declarator") if declarator is not None else None
    if inner is None or inner.type not in _NAME_NODES:
        return None
    broken = _last_error(inner)
    if broken is not None:
        # `TVM_DLL std::string C::F(...)`: the macro shifts the return type into the
        # name, and the class name lands in an ERROR node; the name starts there.
        last, name = inner, inner.child_by_field_name("name")
        while name is not None:
            last, name = name, name.child_by_field_name("name")
        text = parsed.data[broken.start_byte : inner.end_byte].decode("utf-8", "replace")
        return last, _SPACE.sub("", text)
    return inner, _SPACE.sub("", parsed.text(inner))


def _last_error(node: Node) -> Node | None:
    found = None
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_error and (found is None or current.start_byte > found.start_byte):
            found = current
        stack.extend(current.children)
    return found


def class_name(parsed: ParsedCpp, member: Node) -> str | None:
    """Return the class whose body holds `member` (a method or a declaration), or None."""
    parent = member.parent
    if parent is not None and parent.type == "field_declaration_list" and parent.parent:
        name = parent.parent.child_by_field_name("name")
        if name is not None:
            return parsed.text(name)
    return None


# A copy's body holds one of each; most functions hold neither and are not walked.
_LOOKUP_WORDS = (b"count", b"find", b"contains")
_APPEND_WORDS = (b"to_string", b"<<", b"StrCat", b"ormat", b"printf")


def thin_wrappers(verdicts: Iterable[tuple[CppUnit, Verdict | None]]) -> set[str]:
    """Return the identities (`Printer::GetUniqueName`) of the functions judged thin
    wrappers, but for one also defined here as a copy: their declarations in other
    files are no copy's (GV202)."""
    judged = list(verdicts)
    copies = {
        cpp_identity(u.qualified) for u, v in judged if v in (Verdict.BY_NAME, Verdict.BY_STRUCTURE)
    }
    return {
        cpp_identity(u.qualified) for u, v in judged if v is Verdict.THIN and not u.is_lambda
    } - copies


def units(
    parsed: ParsedCpp, config: Config, mentions: Callable[[Sequence[str]], bool]
) -> list[CppUnit]:
    """Return the functions and named lambdas of the file that may be helpers: those with
    a helper's name, and those whose body has both a lookup word and an append word.
    `mentions` tells whether the file's text holds one of some trigger words."""
    if not mentions(name_triggers(config) + CPP_SHAPE_TRIGGERS):
        return []
    # GV201, GV202 and GV203 all ask, one after the other, about the same parse.
    return list(parsed.once(("units", config.fingerprint), lambda: _units(parsed, config)))


def _units(parsed: ParsedCpp, config: Config) -> tuple[CppUnit, ...]:
    named = bytes_pattern(name_triggers(config))

    def may_hold_unit(region: Region) -> bool:
        start, end = region.start_byte, region.end_byte
        text = parsed.data[start:end]
        return may_copy(text) or named.search(parsed.data, start, end) is not None

    def find(ranges: list[tuple[int, int]]) -> list[Node]:
        cursor = node_cursor()
        candidates: dict[int, Node] = {}
        for start, end in ranges:
            cursor.set_byte_range(start, end)
            for node in cursor.captures(parsed.root).get("unit", []):
                if start <= node.start_byte and node.end_byte <= end:
                    candidates[node.id] = node
        return [node for node in candidates.values() if _may_be_helper(parsed, node, named)]

    # Only declarations that hold a cue or a helper's name can hold a unit worth keeping.
    found = []
    for node in parsed.find_in_regions("units", config.fingerprint, may_hold_unit, find):
        unit = _unit(parsed, node, config)
        if unit is not None:
            found.append(unit)
    return tuple(found)


def _may_be_helper(parsed: ParsedCpp, node: Node, named: re.Pattern[bytes]) -> bool:
    """Tell whether a function's body has a cue, or its header a helper's name."""
    body = node.child_by_field_name("body")
    if body is None or node.parent is None:
        return False
    text = parsed.data[body.start_byte : body.end_byte]
    start = (node.parent if node.type == "lambda_expression" else node).start_byte
    # Most functions have no cue in the body and no helper's name in the header.
    return may_copy(text) or named.search(parsed.data, start, body.start_byte) is not None


def may_copy(body: bytes) -> bool:
    """Tell whether a function body (or any text holding it) has both a lookup word and an
    append word: without both, it has no uniquing facts (see cpp_facts)."""
    return any(w in body for w in _LOOKUP_WORDS) and any(w in body for w in _APPEND_WORDS)


def _facts_if_needed(
    parsed: ParsedCpp, unit: Node, name: str, config: Config, owner: str = ""
) -> Facts:
    body = unit.child_by_field_name("body")
    if body is None:
        return Facts()
    text = parsed.data[body.start_byte : body.end_byte]
    if not may_copy(text) and not is_known_name(name, config):
        return Facts()
    # Facts depend on the function's text alone: an editor's next version of a file
    # reuses those of every function the edit did not touch. The key holds a digest of
    # that text, not the text: kept for two thousand functions, texts would weigh more
    # than the facts.
    key = (
        unit.type,
        blake2b(parsed.data[unit.start_byte : unit.end_byte], digest_size=16).digest(),
        unit.has_error,
        name,
        owner,
        config.fingerprint,
    )
    known = _FACTS.get(key)
    if known is None:
        known = _FACTS[key] = facts_of(parsed, unit, name, config, owner)
        if len(_FACTS) > _FACTS_KEPT:
            del _FACTS[next(iter(_FACTS))]
    return known


_FACTS: dict[tuple[str, bytes, bool, str, str, str], Facts] = {}
_FACTS_KEPT = 2048


def unit_of(parsed: ParsedCpp, node: Node, config: Config) -> CppUnit | None:
    """Return the function definition or named lambda `node` as a unit, with its facts;
    None for an unnamed lambda."""
    return _unit(parsed, node, config)


def _unit(parsed: ParsedCpp, node: Node, config: Config) -> CppUnit | None:
    if node.type == "function_definition":
        named = _function_name(parsed, node)
        if named is None:
            return None
        name_node, text = named
        bare = text.rsplit("::", 1)[-1]
        owner = class_name(parsed, node)
        qualified = f"{owner}::{bare}" if owner and "::" not in text else text
        qualified = re.sub(r"<[^<>]*>", "", qualified)  # Foo<T>::Get → Foo::Get
        own_class = qualified.rsplit("::", 1)[0] if "::" in qualified else ""
        facts = _facts_if_needed(parsed, node, bare, config, own_class.rsplit("::", 1)[-1])
        return CppUnit(node, bare, qualified, name_node, facts)
    if node.type == "lambda_expression" and node.parent is not None:
        holder = node.parent
        target = None
        if holder.type == "init_declarator" or holder.type == "field_declaration":
            target = holder.child_by_field_name("declarator")
        elif holder.type == "assignment_expression":
            target = holder.child_by_field_name("left")
        if target is None or target.type not in ("identifier", "field_identifier"):
            return None
        name = parsed.text(target)
        return CppUnit(node, name, name, target, _facts_if_needed(parsed, node, name, config))
    return None
