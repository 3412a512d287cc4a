"""Messages of the global_symbol rules, worded for the configured TVM release."""

from enum import Enum

from lintgv.config import Config
from lintgv.model import Language, Message
from lintgv.records import frozen


class Kind(Enum):
    SET = "set"
    REMOVE = "remove"


@frozen
class Evidence:
    """Why a mutation changes a symbol the function already has, and where that shows."""

    reason: str
    line: int

    def describe(self) -> str:
        return f"{self.reason} (line {self.line})"


def remedy(config: Config, language: Language) -> str:
    """Return how to fix a name at birth under the configured release."""
    if config.release.has_unique_name_supply:
        call = (
            "names->ReserveName(global_symbol, false)"
            if language == Language.CPP
            else "names.reserve_name(global_symbol, False)"
        )
        return f"fix the name at birth: reserve it with `{call}` and name the GlobalVar after it"
    call = (
        "supply->UniqueGlobalFor(global_symbol, false)"
        if language == Language.CPP
        else "supply.unique_global_for(global_symbol, False)"
    )
    return f"fix the name at birth with `{call}`"


def set_message(config: Config, language: Language, evidence: Evidence | None) -> Message:
    """Return the GV301 message: an overwrite when `evidence` shows an earlier symbol."""
    if evidence is not None:
        return Message(
            f"global_symbol overwritten: {evidence.describe()}",
            f"keep the existing symbol and {remedy(config, language)}",
        )
    return Message(
        "global_symbol set (a first setting: no earlier symbol seen in this function)",
        f"attach it once, as late as possible, and {remedy(config, language)}",
    )


def remove_message(config: Config, language: Language, evidence: Evidence | None) -> Message:
    """Return the GV302 message, naming the existing symbol's trace when there is one."""
    seen = f" ({evidence.describe()})" if evidence is not None else ""
    return Message(
        f"global_symbol removed{seen}: a function keeps its external name once it has one",
        f"keep it and {remedy(config, language)}",
    )
