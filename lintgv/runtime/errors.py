"""The errors the runtime raises: each names the call, key or value at fault."""

from lintgv.errors import LintgvError


class CheckFailed(LintgvError):
    """A check TVM makes with `ICHECK` failed; TVM would abort with the same complaint."""


class UnsupportedVersion(LintgvError):
    """The requested behaviour does not exist in the modelled TVM release."""


class ManifestError(LintgvError):
    """A C-emitter manifest is malformed: the message names the file, key and value."""

    def __init__(self, source: str, key: str, value: object, reason: str) -> None:
        super().__init__(f"{source}: invalid value for `{key}`: {value!r} ({reason})")
        self.source = source
        self.key = key
        self.value = value
        self.reason = reason
