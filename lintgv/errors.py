"""The exceptions lintgv raises; every message names the file, key or value at fault."""

from pathlib import Path


class LintgvError(Exception):
    """Base class of lintgv's own errors."""


class ConfigError(LintgvError):
    def __init__(self, path: Path | None, key: str, value: object, reason: str) -> None:
        where = str(path) if path is not None else "settings"
        super().__init__(f"{where}: invalid value for `{key}`: {value!r} ({reason})")
        self.path = path
        self.key = key
        self.value = value
        self.reason = reason


class ParseError(LintgvError):
    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


class RuleCrash(LintgvError):
    def __init__(self, code: str, cause: BaseException) -> None:
        super().__init__(f"rule {code} crashed: {type(cause).__name__}: {cause}")
        self.code = code
