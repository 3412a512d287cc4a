"""BLAKE2b digests, the one hash lintgv keys its cache, baselines and fixes by.

`hashlib` loads OpenSSL when it is imported, for algorithms lintgv never asks for: 3.7
MB of resident memory in every process of a run (the parent and each worker), a tenth of
what a run holds before its first file. CPython's own BLAKE2 module gives the same
digests without it; a Python built without that module falls back to hashlib.
"""

try:
    from _blake2 import blake2b  # private: tests/test_private_apis.py
except ImportError:  # pragma: no cover - CPython builds it unless told not to
    from hashlib import blake2b

__all__ = ["blake2b"]
