"""lintgv's language server: the core's findings and fixes, over LSP (pygls)."""
