"""What GV301 and GV302 share: finding global_symbol mutations and telling a first
setting from an overwrite, in C++ (cpp_scan) and Python (python_scan)."""

# The attribute: a function's name in the compiled module.
KEY = "global_symbol"
