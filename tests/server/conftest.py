"""Fixtures of the language-server tests (helpers live in server_client.py)."""

from server_client import start

__all__ = ["start"]
