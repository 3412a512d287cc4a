"""lintgv: finds and fixes names that bypass TVM's name supplies."""

from lintgv.config import Config, config_for, load_config
from lintgv.engine import check
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

__version__ = "0.1.0"

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
