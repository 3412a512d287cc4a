"""Relay-level passes of the example package."""
