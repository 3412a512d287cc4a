"""lintgv: finds and fixes names that bypass TVM's name supplies."""

from typing import TYPE_CHECKING

from lintgv.config import Config, config_for, load_config
from lintgv.errors import ConfigError, LintgvError, ParseError, RuleCrash
from lintgv.model import (
    Applicability,
    Edit,
    FileError,
    FileResult,
    Finding,
    Fix,
    Language,
    Severity,
    SourceFile,
    Span,
)

if TYPE_CHECKING:
    from lintgv.engine import check

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # The engine pulls in the rules and tree-sitter (libcst waits for a Python parse); a
    # warm CLI run answers from the cache without them.
    if name == "check":
        from lintgv.engine import check

        return check
    raise AttributeError(f"module 'lintgv' has no attribute {name!r}")


__all__ = [
    "Applicability",
    "Config",
    "ConfigError",
    "Edit",
    "FileError",
    "FileResult",
    "Finding",
    "Fix",
    "Language",
    "LintgvError",
    "ParseError",
    "RuleCrash",
    "Severity",
    "SourceFile",
    "Span",
    "__version__",
    "check",
    "config_for",
    "load_config",
]
