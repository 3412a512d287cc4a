"""Worker processes that never import from the folder they start in.

A worker started as a new interpreter (the language server's spawn, the forkserver that
Python 3.14 makes Linux's default, macOS's spawn) runs `python -c ...`, which puts the
current folder first on the import path. lintgv is run from the tree it checks, and an
editor starts the server in the workspace: a tree holding `multiprocessing/` would have
its code run by the worker's first import. Python leaves the current folder off the path
when PYTHONSAFEPATH is set (or with -P, which a worker inherits only from a parent
started with it, not from the `lintgv` command); every worker lintgv starts is given it.
"""

import multiprocessing
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
    # forkserver's and the resource tracker's too (started once, at the first pool that
    # needs them), so it is set before any.
    os.environ["PYTHONSAFEPATH"] = "1"
    if (context or multiprocessing).get_start_method() != "fork":
        _quiet_resource_tracker()
    return ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=initializer)


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker, unless it runs, with its standard error
    on the null device. A caller that ends at once (a language server told to exit while
    its index runs) leaves the pool's semaphores to the tracker, which removes them and
    warns on the standard error it inherited: the caller's, an editor's log. The tracker
    takes file descriptor 2 as it is, so that is what is pointed elsewhere for the moment
    of its start (a line another thread writes then is lost)."""
    from multiprocessing import resource_tracker

    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        resource_tracker.ensure_running()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)
