"""Checks on the symbols each model's object file exports (as `nm` lists them).

Codes (artifact rules, documented in lintgv/rules/gv50*.py; `lintgv validate` reports them):
GV501 a symbol two models export, GV502 a symbol without its model's prefix,
GV503 a reserved or invalid identifier, GV504 a name part longer than the limit.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lintgv.model import Finding, Message
from lintgv.rules._base import ArtifactRule
from lintgv.rules.gv501_c_symbol_clash import CSymbolClash
from lintgv.rules.gv502_c_symbol_prefix import CSymbolPrefix
from lintgv.rules.gv503_c_reserved_identifier import CReservedIdentifier
from lintgv.rules.gv504_c_symbol_too_long import CSymbolTooLong
from lintgv.runtime.c_names import MAX_NAME_LENGTH, identifier_problem


@dataclass(frozen=True)
class ModelSymbols:
    """What one model's object file exports, and where its manifest is."""

    manifest: Path
    model: str  # display name ("default" when absent)
    prefix: str
    symbols: tuple[str, ...]
    lines: tuple[tuple[str, int], ...] = ()  # symbol → manifest line of its function


def check_symbols(models: Sequence[ModelSymbols]) -> list[Finding]:
    """Return a finding for every clash, foreign, reserved or over-long symbol."""
    findings: list[Finding] = []
    owner: dict[str, ModelSymbols] = {}
    for model in models:
        for symbol in model.symbols:
            findings += _own_problems(model, symbol)
            first = owner.setdefault(symbol, model)
            if first is not model:
                findings.append(
                    _finding(
                        CSymbolClash,
                        model,
                        symbol,
                        Message(
                            f"C symbol `{symbol}` is also exported by model `{first.model}` "
                            f"({first.manifest})",
                            CSymbolClash.META.message.remedy,
                        ),
                    )
                )
    return findings


def _own_problems(model: ModelSymbols, symbol: str) -> list[Finding]:
    found = []
    if not symbol.startswith(model.prefix + "_"):
        found.append(
            _finding(
                CSymbolPrefix,
                model,
                symbol,
                Message(
                    f"C symbol `{symbol}` lacks the prefix `{model.prefix}_`",
                    CSymbolPrefix.META.message.remedy,
                ),
            )
        )
    problem = identifier_problem(symbol)
    if problem is not None:
        found.append(
            _finding(
                CReservedIdentifier,
                model,
                symbol,
                Message(f"C symbol `{symbol}` {problem}", CReservedIdentifier.META.message.remedy),
            )
        )
    tail = len(symbol) - len(model.prefix) - 1
    if symbol.startswith(model.prefix + "_") and tail > MAX_NAME_LENGTH:
        found.append(
            _finding(
                CSymbolTooLong,
                model,
                symbol,
                Message(
                    f"C symbol `{symbol}` has a {tail}-character name part",
                    f"cut it to {MAX_NAME_LENGTH} and keep it unique",
                ),
            )
        )
    return found


def _finding(
    rule: type[ArtifactRule], model: ModelSymbols, symbol: str, message: Message
) -> Finding:
    return rule.finding_at(model.manifest, dict(model.lines).get(symbol, 1), message)
