"""Run private unique-name copies beside `NameSupply.fresh_name` and compare the names."""

from lintgv.runtime.copies.outcome import CopyRun, Difference
from lintgv.runtime.copies.sequence import SEQUENCE, supply_names

__all__ = ["SEQUENCE", "CopyRun", "Difference", "supply_names"]
