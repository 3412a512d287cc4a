"""libcst's parse, without validating the nodes its own parser builds.

Every libcst node checks its fields when it is made (`CSTNode.__post_init__` calls
`_validate`): that a name is an identifier, that parentheses pair up. A node the parser
made from source text passes by construction, yet the checks cost an eighth of a parse
(libcst's own comment there says as much). Here they are skipped for the nodes a parse
makes, on the thread that parses; a node made any other way (a fix building its
replacement, another thread) is checked as before. tests/test_private_apis.py holds the
hook to what lintgv needs of it.

Both parses call libcst's native parser as `libcst.parse_module` does for a `str` (its
encoding then is UTF-8): that entry point's module imports libcst's pure-Python
tokenizer, which a parse never runs (see libcst_import).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from functools import cache, wraps
from typing import TYPE_CHECKING, cast

from lintgv.parsing import libcst_lazy as cst

if TYPE_CHECKING:
    import libcst


class _Parsing(threading.local):
    depth = 0


_PARSING = _Parsing()


@cache
def _native() -> Callable[[str, str], libcst.Module]:
    """Return libcst's native parse of a module, once every node's check asks whether
    its thread is parsing (done once per process)."""
    checked = cst.CSTNode.__post_init__

    @wraps(checked)
    def __post_init__(self: libcst.CSTNode) -> None:
        if not _PARSING.depth:
            checked(self)

    cst.CSTNode.__post_init__ = __post_init__  # type: ignore[method-assign]
    native = importlib.import_module("libcst.native")
    return cast(Callable[[str, str], "libcst.Module"], native.parse_module)


def parse(text: str) -> libcst.Module:
    """Return `libcst.parse_module(text)`, its nodes checked as libcst checks them."""
    return _native()(text, "utf-8")


def unchecked_parse(text: str) -> libcst.Module:
    """Return `libcst.parse_module(text)`, its nodes unchecked (see above)."""
    parse = _native()
    _PARSING.depth += 1
    try:
        return parse(text, "utf-8")
    finally:
        _PARSING.depth -= 1
