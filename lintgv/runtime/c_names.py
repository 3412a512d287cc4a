"""How a model's function names become exported C symbols (TVM's AOT convention).

Every symbol is `tvmgen_<model>_<name>` (`tvmgen_default_<name>` without a model name).
Both parts are sanitised: every character outside `[A-Za-z0-9_]` becomes `_`, runs of `_`
shrink to one and leading or trailing `_` go, so no symbol contains a double underscore
or starts with one (identifiers the C standard reserves), and the `tvmgen_` prefix rules
out a leading digit and a keyword. A part that sanitises to nothing becomes `v`, as in
TVM's NameSupply from 0.24.

Long names: the `<name>` part keeps at most `MAX_NAME_LENGTH` (80) characters, the limit
TVM's TE compiler put on operator names. The names go through one NameSupply per model in
manifest order, so a name that clashes after sanitising or cutting gets the supply's
`_<n>` suffix; when that suffix would pass the limit, the stem is cut shorter so the
whole part still fits, and the supply is asked again.
"""

import re

from lintgv.runtime.name_supply import NameSupply
from lintgv.runtime.versions import DEFAULT_TVM_VERSION

PREFIX = "tvmgen"
DEFAULT_MODEL = "default"
MAX_NAME_LENGTH = 80
C_KEYWORDS = frozenset(
    {
        "auto",
        "break",
        "case",
        "char",
        "const",
        "continue",
        "default",
        "do",
        "double",
        "else",
        "enum",
        "extern",
        "float",
        "for",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "register",
        "restrict",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "struct",
        "switch",
        "typedef",
        "union",
        "unsigned",
        "void",
        "volatile",
        "while",
        "alignas",
        "alignof",
        "bool",
        "constexpr",
        "false",
        "nullptr",
        "static_assert",
        "thread_local",
        "true",
        "typeof",
        "typeof_unqual",
    }
)
_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]")
_UNDERSCORES = re.compile(r"_+")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def sanitize(name: str) -> str:
    """Return `name` as a piece of C identifier: `[A-Za-z0-9_]`, no `__`, no `_` at the ends."""
    cleaned = _UNDERSCORES.sub("_", _NOT_IDENTIFIER.sub("_", name)).strip("_")
    return cleaned or "v"


def model_prefix(model: str | None) -> str:
    """Return the symbol prefix of a model: `tvmgen_<model>`."""
    return f"{PREFIX}_{sanitize(model) if model is not None else DEFAULT_MODEL}"


def identifier_problem(symbol: str) -> str | None:
    """Return why `symbol` is not a portable, unreserved C identifier (a predicate: "is a C
    keyword"), or None if it is."""
    if not _IDENTIFIER.match(symbol):
        return "is not a C identifier"
    if symbol.startswith("_"):
        return "starts with an underscore (reserved by the C standard)"
    if "__" in symbol:
        return "contains a double underscore (reserved)"
    if symbol in C_KEYWORDS:
        return "is a C keyword"
    return None


class SymbolNamer:
    """Turns a model's function names into unique exported symbols, in order."""

    def __init__(self, model: str | None, *, tvm_version: str = DEFAULT_TVM_VERSION) -> None:
        self.prefix = model_prefix(model)
        self.supply = NameSupply(self.prefix, tvm_version=tvm_version)

    def symbol(self, name: str) -> str:
        """Return the unique symbol for function `name` and record it."""
        stem = sanitize(name)[:MAX_NAME_LENGTH].rstrip("_")
        while True:
            symbol = self.supply.fresh_name(stem)
            overflow = len(symbol) - len(self.prefix) - 1 - MAX_NAME_LENGTH
            if overflow <= 0:
                return symbol
            stem = stem[: len(stem) - overflow].rstrip("_") or "v"
