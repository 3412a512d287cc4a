"""What GV101's Python and C++ scans share: the messages and the supply methods."""

import re
from dataclasses import replace

from lintgv.config import Config
from lintgv.model import Message

MESSAGE_UNIQUE_NAMES = Message(
    "GlobalVar named by hand",
    "name it with the module's UniqueNameSupply (`GlobalVar(names->FreshName(name, false))`, "
    "Python `GlobalVar(names.fresh_name(name))`)",
)
# From the release that removed GlobalVarSupply on, GlobalVar(names->FreshName(x)) is the
# sanctioned idiom (TVM PR 19781).
SUPPLY_METHODS = frozenset({"FreshName", "ReserveName", "fresh_name", "reserve_name"})


def message_for(config: Config, default: Message, reason: str | None = None) -> Message | None:
    """Return the message for the configured TVM release (None: `default`, the rule's
    own), with the reason no fix is offered, when known."""
    message = MESSAGE_UNIQUE_NAMES if config.release.has_unique_name_supply else None
    if not reason:
        return message
    return replace(message or default, no_fix=reason)


def extra_triggers(config: Config) -> tuple[str, ...]:
    """Return the last part of each extra constructor the config names, as a trigger."""
    return tuple(re.escape(re.split(r"::|\.", name)[-1]) for name in config.extra_constructors)
