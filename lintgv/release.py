"""One TVM release value, parsed once and asked by name for the behaviours that changed.

Each threshold is the first minor release (TVM has no 1.x yet) where the behaviour
appears, as read in TVM's own sources at the release tags.
"""

import re
from dataclasses import field

from lintgv.records import frozen

RELEASE = re.compile(r"^0\.([0-9]+)(?:\.[0-9]+)?$")  # `\d` would take other scripts' digits
NAME_SUPPLY_ADDED = 10  # include/tvm/ir/name_supply.h, PR 12066
ADD_UNDERSCORE_ADDED = 16  # FreshName(..., add_underscore) and the seeded C++ constructor
EMPTY_NAME_BECOMES_V = 24  # FreshName("") gives "v" (src/ir/name_supply.cc)
UNIQUE_NAME_SUPPLY_ADDED = 25  # UniqueNameSupply, and no GlobalVarSupply (PR 19781)


@frozen(order=True)
class Release:
    """A TVM release line, "0.16" → minor 16."""

    minor: int
    # As the user wrote it ("0.16.1"): what messages show and what the runtime is given.
    text: str = field(default="", compare=False)

    @classmethod
    def parse(cls, text: object) -> "Release | None":
        """Return the release `text` names ("0.16", "0.16.1"), or None if it names none."""
        match = RELEASE.match(text) if isinstance(text, str) else None
        return cls(int(match.group(1)), match.group(0)) if match is not None else None

    @property
    def has_name_supply(self) -> bool:
        """NameSupply and GlobalVarSupply exist: a fix has a supply to draw names from."""
        return self.minor >= NAME_SUPPLY_ADDED

    @property
    def no_supply(self) -> str:
        """Why a release before 0.10 gets no fix that names through a supply."""
        return f"TVM {self.text} has no NameSupply or GlobalVarSupply (they came with 0.10)"

    @property
    def has_add_underscore(self) -> bool:
        return self.minor >= ADD_UNDERSCORE_ADDED

    @property
    def names_empty_v(self) -> bool:
        """FreshName("") gives "v" rather than ""."""
        return self.minor >= EMPTY_NAME_BECOMES_V

    @property
    def has_unique_name_supply(self) -> bool:
        """UniqueNameSupply exists, and GlobalVarSupply and NameSupply are gone."""
        return self.minor >= UNIQUE_NAME_SUPPLY_ADDED
