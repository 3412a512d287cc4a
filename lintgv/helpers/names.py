"""Helper names, supply calls, the shapes of a copy, messages and trigger patterns."""

import re
from collections.abc import Iterable
from enum import StrEnum
from functools import cache

from lintgv.config import Config
from lintgv.model import Language, Message
from lintgv.prefilter import LINE_START
from lintgv.records import frozen, mutable

# GetUniqueName, _GetUniqueName, get_unique_name, GetUniqueBufferName, GenerateUniqueName,
# make_unique_var_name, ...: a verb, "unique", an optional word, "name".
KNOWN_NAME = re.compile(
    r"^_*(?:get|generate|gen|make|create|new|fresh|alloc|allocate)_?unique_?(?:[a-z0-9]+_?)?name$",
    re.IGNORECASE,
)
# Wider than KNOWN_NAME, and literal-first so the scan stays fast; not `std::make_unique<T>`.
NAME_TRIGGER = r"nique_?\w{0,24}?[Nn]ame"
# Methods of TVM's supplies: a wrapper that calls one of them is not a copy.
SUPPLY_METHODS = frozenset(
    {
        "FreshName",
        "ReserveName",
        "fresh_name",
        "reserve_name",
        "FreshGlobal",
        "UniqueGlobalFor",
        "fresh_global",
        "unique_global_for",
    }
)


def last_component(name: str) -> str:
    """Return the last part of `Class::Method` or `module.function`."""
    return re.split(r"::|\.", name)[-1]


def is_known_name(name: str, config: Config) -> bool:
    """Tell whether `name` (a bare function or method name) names a unique-name helper."""
    extra = {last_component(n) for n in config.extra_unique_name_helpers}
    return bool(KNOWN_NAME.match(name)) or name in extra


def is_supply_method(name: str, config: Config) -> bool:
    """Tell whether a call of `name` asks a NameSupply (or a configured stand-in)."""
    extra = {last_component(n) for n in config.extra_supply_names}
    return name in SUPPLY_METHODS or name in extra


def name_triggers(config: Config) -> tuple[str, ...]:
    """Return the patterns that find a known helper name, configured ones included."""
    extra = sorted({last_component(n) for n in config.extra_unique_name_helpers})
    return (NAME_TRIGGER, *(re.escape(n) for n in extra))


class Shape(StrEnum):
    """How a copy makes its name unique."""

    LOOP = "loop"  # tries name + counter in a loop until a lookup misses
    RECURSION = "recursion"  # calls itself with name + counter
    STORED = "stored counter"  # keeps a counter per name and appends it, no retry


@mutable
class Facts:
    """What one function's body does, as far as uniquing goes; filled by a language walker."""

    has_test: bool = False  # looks a string up in a map or set
    linked_test_in_loop: bool = False  # ... a name built from a counter, inside a loop
    has_built: bool = False  # builds a string from a name and a counter
    self_call: bool = False
    self_call_built: bool = False  # calls itself with a built name
    stored_return: bool = False  # returns name + the map's own counter for it
    returns_name: bool = False  # returns a built, looked-up or recursively made name
    calls_supply: bool = False
    delegates: bool = False  # its body is one call, or does nothing (a thin wrapper)
    # The name it builds comes from its input: a parameter (or a variable set from one,
    # or a lambda's capture) is part of it. A generator that numbers a fixed prefix
    # (`"v" + std::to_string(n++)`) takes no name and is no copy of GetUniqueName; its
    # loop is GV204's. Worked out only for a uniquing shape that returns the name, where
    # it decides whether the function is a helper.
    from_input: bool = False

    def shape(self) -> Shape | None:
        """Return how this function uniques a name, or None when it does not."""
        if self.linked_test_in_loop:
            return Shape.LOOP
        if self.self_call and self.has_test and self.self_call_built:
            return Shape.RECURSION
        if self.stored_return and self.has_test:
            return Shape.STORED
        return None

    def is_helper(self) -> bool:
        """Tell whether the function is a unique-name helper found by its structure."""
        return self.shape() is not None and self.returns_name and self.from_input

    def is_thin_wrapper(self) -> bool:
        """Tell whether a function named like a helper only hands the work on."""
        return self.shape() is None and (self.calls_supply or self.delegates)


class Verdict(StrEnum):
    BY_NAME = "by name"
    BY_STRUCTURE = "by structure"
    THIN = "thin wrapper"


def judge(name: str, facts: Facts, config: Config) -> Verdict | None:
    """Return whether a function is a copy (and how it was found), a thin wrapper, or neither."""
    if is_known_name(name, config):
        return Verdict.THIN if facts.is_thin_wrapper() else Verdict.BY_NAME
    return Verdict.BY_STRUCTURE if facts.is_helper() else None


@frozen
class Catalogue:
    """The helpers one file defines."""

    copies: frozenset[str] = frozenset()  # names of copies, found either way
    structural: frozenset[str] = frozenset()  # copies found only by their structure
    thin: frozenset[str] = frozenset()  # names whose every definition here is a thin wrapper


def catalogue(verdicts: Iterable[tuple[str, Verdict | None]]) -> Catalogue:
    """Return what a file defines, from each function's name and verdict."""
    copies: set[str] = set()
    structural: set[str] = set()
    wrappers: set[str] = set()
    for name, verdict in verdicts:
        if verdict is Verdict.THIN:
            wrappers.add(name)
        elif verdict is not None:
            copies.add(name)
            if verdict is Verdict.BY_STRUCTURE:
                structural.add(name)
    return Catalogue(frozenset(copies), frozenset(structural), frozenset(wrappers - copies))


def names_word(text: str, name: str) -> bool:
    """Tell whether `text` names `name` as a whole word: a file that only names
    `CreateBuffers` does not name `Create`."""
    return name in text and word_pattern(name).search(text) is not None


@cache
def word_pattern(name: str) -> re.Pattern[str]:
    """Return the pattern of `name` as a whole word (see names_word)."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


def _unique_names(config: Config) -> bool:
    return config.release.has_unique_name_supply


def _fresh(config: Config, language: Language) -> str:
    if language == Language.PYTHON:
        return "`names.fresh_name(name)`" if _unique_names(config) else "`supply.fresh_name(name)`"
    return (
        "`names->FreshName(name)`" if _unique_names(config) else "`name_supply_->FreshName(name)`"
    )


def _supply(config: Config) -> str:
    return "a UniqueNameSupply" if _unique_names(config) else "a NameSupply"


def helper_message(config: Config, language: Language, name: str) -> Message:
    """Return GV201's message for the helper `name`."""
    return Message(
        f"private unique-name helper `{name}`",
        f"use {_supply(config)} ({_fresh(config, language)})",
    )


def loop_remedy(
    config: Config, language: Language, base: str, module: str | None
) -> tuple[str, str]:
    """Return what replaces an inline uniquing loop (GV204): the supply in words, and the
    call that gives the fresh name made from `base` (a fresh GlobalVar when the loop asks
    the IRModule `module`)."""
    if module and not _unique_names(config):
        if language == Language.PYTHON:
            return "the module's GlobalVarSupply", f"GlobalVarSupply({module}).fresh_global({base})"
        return "the module's GlobalVarSupply", f"GlobalVarSupply({module})->FreshGlobal({base})"
    if language == Language.PYTHON:
        supply = "names" if _unique_names(config) else "supply"
        return _supply(config), f"{supply}.fresh_name({base})"
    supply = "names->" if _unique_names(config) else "name_supply_->"
    return _supply(config), f"{supply}FreshName({base})"


def loop_message(
    config: Config, language: Language, container: str, base: str, module: bool
) -> Message:
    """Return GV204's message for a loop that asks `container` whether a name is taken."""
    words, call = loop_remedy(config, language, base, container if module else None)
    return Message(f"inline uniquing loop over `{container}`", f"ask {words} instead (`{call}`)")


def declaration_message(config: Config, name: str) -> Message:
    """Return GV202's message for a declaration of `name`."""
    member = "UniqueNameSupply names_" if _unique_names(config) else "NameSupply name_supply_"
    return Message(
        f"declaration of private unique-name helper `{name}`",
        f"remove it with the helper and keep a supply member (`{member}`)",
    )


def call_message(config: Config, language: Language, name: str, discarded: bool) -> Message:
    """Return GV203's message for a call of `name`; `discarded` when the result is unused."""
    if not discarded:
        return Message(
            f"call of private unique-name helper `{name}`",
            f"ask {_supply(config)} instead ({_fresh(config, language)})",
        )
    if language == Language.PYTHON:
        reserve = (
            "`names.reserve_name(name)`" if _unique_names(config) else "`supply.reserve_name(name)`"
        )
    else:
        reserve = (
            "`names->ReserveName(name)`"
            if _unique_names(config)
            else "`name_supply_->ReserveName(name)`"
        )
    return Message(
        f"call of private unique-name helper `{name}` that drops the result, so it only "
        "reserves the name",
        f"reserve it in {_supply(config)} ({reserve})",
    )


# --- Structural triggers. Each must match every copy of its shape yet stay rare, since a
# hit costs a parse (of the whole file in C++, of the enclosing function in Python).
# Every scan is bounded (SCAN characters of a line or a statement): a hostile file
# repeating the start of a pattern without its end must not make each occurrence read on
# to the end of the line or the file, which took minutes for a file of 200 KB.

SCAN = 400
# A dict of attributes spans lines: `"global_symbol"` may come well after its `{`.
DICT_SCAN = 5 * SCAN
_LINE = rf"[^\n]{{0,{SCAN}}}"
_LINES_CPP = rf"(?:{_LINE}\n){{0,12}}?{_LINE}?"
_LOOKUP_CPP = r"(?:(?:\.|->)(?:count|find|contains)\(|std::find\()"
_APPEND_CPP = r"(?:to_string\(|printf\(|StrCat\(|[Ff]ormat\(|stringstream)"
# The keyword, found by its literal: not the end of `noreturn` (`[[noreturn]] void
# LogFatal(...)` with a to_string in its body) nor a Doxygen `\return` or `@return`, whose
# prose ran on into the code below it; each cost a parse of a file holding no copy. An
# underscore may come before (`co_return`), and a counter kept in the map may be
# returned through a variable named after it (`returned = F(...)`): no `\b` after.
_RETURN_CPP = r"return(?<![A-Za-z0-9\\@]return)"
CPP_SHAPE_TRIGGERS = (
    # A loop with a lookup and a counter-append near its header (while, for, do-while).
    # One pattern each, starting with its keyword, which `re` finds by a fast scan.
    rf"while\s*\((?={_LINES_CPP}{_LOOKUP_CPP})(?={_LINES_CPP}{_APPEND_CPP})",
    rf"for\s*\((?={_LINES_CPP}{_LOOKUP_CPP})(?={_LINES_CPP}{_APPEND_CPP})",
    rf"do\s*\{{(?={_LINES_CPP}{_LOOKUP_CPP})(?={_LINES_CPP}{_APPEND_CPP})",
    # Recursion with a longer name or a bumped counter, its answer returned as it is or
    # wrapped: std::move(F(...)), {F(...)}, (F(...)), c ? F(...) : name.
    rf"{_RETURN_CPP}\b[^;]{{0,{SCAN}}}?\w\([^;]{{0,{SCAN}}}?(?:to_string\(|\+\s*1\b|\+\+)",
    # A counter kept in the map itself: return name + std::to_string(map[name]).
    rf"{_RETURN_CPP}[^;]{{0,{SCAN}}}?to_string\([^;)]{{0,{SCAN}}}(?:\[|second)",
)

# Loops without a counter: one that asks a naming function again in its first lines, and
# one that appends a fixed suffix (`name += "_a"`).
CPP_RETRY_TRIGGERS = (
    rf"while\s*\([^;{{]{{0,{SCAN}}}?(?:count|find|ontains|ContainGlobalVar)\s*\("
    rf"(?=(?:[^\n]{{0,{SCAN}}}\n){{0,3}}?[^\n]{{0,{SCAN}}}"
    r"(?:=\s*[\w:>.-]*(?:[Nn]ame|[Uu]nique|[Ff]resh)\w*\s*\(|\+=\s*\"))",
)

_FSTRING = r"""(?<![\w"'])[rR]?[fF][rR]?["']"""
_APPEND_PY = rf"(?:str\(|\.format\(|%[sdi]|{_FSTRING}[^\"'\n]{{0,{SCAN}}}\{{)"
_JOINED_PY = (
    rf"""(?:\+[ \t]*str\(|\.format\(|["'][ \t]*%|{_FSTRING}[^"'\n]{{0,{SCAN}}}\{{"""
    rf"""[^}}\n]{{0,{SCAN}}}\}}[^"'\n]{{0,{SCAN}}}\{{"""
    r"|\w[ \t]*\+[ \t]*1\b)"
)
_LOOKUP_PY = r"(?:\bin\b|\.(?:count|get|contains|__contains__|has_key)\()"
_LINES_PY = rf"(?:{_LINE}\n){{0,6}}?"
PYTHON_SHAPE_TRIGGERS = (
    # while name in used: ... / while True: with a counter-append in its first lines.
    # Anchored at the start of a line, so the word in a comment or a string does not
    # make a file (the PTX tables, 363 KB) be parsed whole.
    rf"{LINE_START}while[ \t](?:{_LINE}?{_LOOKUP_PY}|(?={_LINES_PY}{_LINE}?{_APPEND_PY}))",
    # for i in range(...) / itertools.count(): with a counter-append and a lookup.
    # The lookup first: it is looked for only after an `if` at a line's start, rarer than
    # a call of str() anywhere, so most loops are ruled out sooner (the pattern over TVM
    # v0.16's Python: 0.10 -> 0.05 s). Both look ahead: the order changes no match.
    rf"{LINE_START}for[ \t]+\w+[ \t]+in[ \t]+(?:range|(?:itertools\.)?count)\("
    rf"(?={_LINES_PY}[ \t]*(?:if|elif)[ \t]{_LINE}?{_LOOKUP_PY})"
    rf"(?={_LINES_PY}{_LINE}?{_APPEND_PY})",
    # return self.unique(name + str(i)) / return unique(name, i + 1), or a counter kept in
    # the map: return name + str(self.names[name]) / f"{name}_{self.names[name]}"
    rf"return[ \t]+(?:(?:self\.|cls\.)?\w+\({_LINE}?{_JOINED_PY}"
    rf"""|{_LINE}?(?:str\([ \t]*[\w.]+\[|{_FSTRING}[^"'\n]{{0,{SCAN}}}\{{[\w.]+\[))""",
    rf"\][ \t]*\+=[ \t]*1\b(?={_LINES_PY}{_LINE}?{_APPEND_PY})",
)
