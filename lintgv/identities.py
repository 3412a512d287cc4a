"""A unique-name helper's identity across the files of a project, and its bare name.

Kept apart from helpers/names.py, which loads the trigger patterns and messages: the
helper index and a warm run, which answers from the cache, need only these."""

import re
from functools import cache


def python_identity(module: str, qualified: str) -> str:
    """Return a Python helper's identity: its module and its name in it
    (`pkg.labels.Printer.name_for`; just the name when the module is not known)."""
    return f"{module}.{qualified}" if module else qualified


def cpp_identity(qualified: str) -> str:
    """Return a C++ helper's identity: its class and name (`CodeGenC::NameFor`, also for
    `tvm::codegen::CodeGenC::NameFor`), or a free function's name."""
    return "::".join(qualified.split("::")[-2:])


def bare_name(identity: str) -> str:
    """Return the function name in a helper's identity: `CodeGenC::NameFor` and
    `pkg.labels.Printer.name_for` give `NameFor` and `name_for`."""
    return re.split(r"::|\.", identity)[-1]


@cache
def bare_names(identities: frozenset[str]) -> frozenset[str]:
    """Return the function names of a run's helper identities, worked out once: every
    file of the run's second pass asks about the same set."""
    return frozenset(bare_name(identity) for identity in identities)
