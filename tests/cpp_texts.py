"""C++ texts that tests run a query or a check over: every C++ fixture and every C++
rule example."""

from pathlib import Path

from lintgv.model import Language
from lintgv.registry import all_rules

FIXTURES = Path(__file__).parent / "fixtures"


def cpp_texts() -> list[str]:
    """Return the text of every C++ fixture file, then of every C++ rule example."""
    texts = []
    for path in sorted(FIXTURES.rglob("*")):
        if path.suffix in (".cc", ".h", ".cpp"):
            texts.append(path.read_text(encoding="utf-8"))
    for rule in all_rules():
        if rule.LANGUAGE is Language.CPP:
            texts.extend(example.code for example in (*rule.VALID, *rule.INVALID))
    return texts
