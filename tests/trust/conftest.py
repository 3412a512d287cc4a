"""The trust suite: hostile trees that must not make lintgv run their code, write outside
them, or lose code. Its server tests drive `lintgv server` with the server suite's client."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "server"))

from server_client import start  # found through the path above

__all__ = ["start"]
