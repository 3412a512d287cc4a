"""libcst's parse, without validating the nodes its own parser builds.

Every libcst node checks its fields when it is made (`CSTNode.__post_init__` calls
`_validate`): that a name is an identifier, that parentheses pair up. A node the parser
made from source text passes by construction, yet the checks cost an eighth of a parse
(libcst's own comment there says as much). Here they are skipped for the nodes a parse
makes, on the thread that parses; a node made any other way (a fix building its
replacement, another thread) is checked as before. tests/test_private_apis.py holds the
hook to what lintgv needs of it.
"""

from __future__ import annotations

import threading
from functools import cache, wraps
from typing import TYPE_CHECKING

from lintgv.parsing import libcst_lazy as cst

if TYPE_CHECKING:
    import libcst


class _Parsing(threading.local):
    depth = 0


_PARSING = _Parsing()


@cache
def _hook() -> None:
    """Make every node's check ask whether its thread is parsing (once per process)."""
    checked = cst.CSTNode.__post_init__

    @wraps(checked)
    def __post_init__(self: libcst.CSTNode) -> None:
        if not _PARSING.depth:
            checked(self)

    cst.CSTNode.__post_init__ = __post_init__  # type: ignore[method-assign]


def unchecked_parse(text: str) -> libcst.Module:
    """Return `cst.parse_module(text)`, its nodes unchecked (see above)."""
    _hook()
    _PARSING.depth += 1
    try:
        return cst.parse_module(text)
    finally:
        _PARSING.depth -= 1
