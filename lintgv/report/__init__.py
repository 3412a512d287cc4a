"""Findings to text: one module per output format."""
