"""Worker processes that never import from the folder they start in.

A worker started as a new interpreter (the language server's spawn, the forkserver that
Python 3.14 makes Linux's default, macOS's spawn) runs `python -c ...`, which puts the
current folder first on the import path. lintgv is run from the tree it checks, and an
editor starts the server in the workspace: a tree holding `multiprocessing/` would have
its code run by the worker's first import. Python leaves the current folder off the path
when PYTHONSAFEPATH is set (or with -P, which a worker inherits only from a parent
started with it, not from the `lintgv` command); every worker lintgv starts is given it.
"""

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext


def worker_pool(
    jobs: int,
    context: BaseContext | None = None,
    initializer: Callable[[], object] | None = None,
) -> ProcessPoolExecutor:
    """Return a pool of `jobs` worker processes whose interpreters import nothing from
    the current folder (started by `context`, or Python's default way)."""
    # The environment of this process is what every interpreter it starts inherits, the
    # forkserver's too (started once, at its first pool), so it is set before any.
    os.environ["PYTHONSAFEPATH"] = "1"
    return ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=initializer)
