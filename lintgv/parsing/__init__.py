"""Text to syntax trees: libcst for Python, tree-sitter for C++."""
