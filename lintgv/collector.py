"""Keep Python's garbage collector off what lives as long as the process, and off the
parse of a Python file while it is checked."""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager


def spare_the_collector() -> None:
    """Freeze what exists now and collect the young less often.

    What exists once lintgv is loaded (modules, rules, compiled patterns) is never
    garbage, yet every full collection walked it (60 ms each time: in the language
    server, every few edits of a large file); and parsing makes objects by the hundred
    thousand, which the default threshold collects every 700. Freezing the one and
    collecting the young less often saves a tenth of a check's CPU. Called by every
    command at its start (forked workers share it) and by each worker the language
    server spawns, once it has loaded the engine.
    """
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


class _Pause:
    """How many threads are inside `collector_paused`, and whether the collector was on
    when the first of them came in."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        self.resume = False


_PAUSE = _Pause()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Turn the cyclic garbage collector off until the last thread inside leaves.

    A parse of a Python file makes a node by the hundred thousand, all alive until the
    check ends: each collection of them found nothing to free, yet cost a seventh of
    the parse (a function of 4,000 GlobalVar sites: 75 collections, 0.11 s of a check).
    A check leaves no reference cycle behind (tests/test_parse_lifetime.py), so what it
    made is freed by reference counting when it ends, and the collector, back on, has
    nothing of it to find.
    """
    with _PAUSE.lock:
        if _PAUSE.depth == 0:
            _PAUSE.resume = gc.isenabled()
            gc.disable()
        _PAUSE.depth += 1
    try:
        yield
    finally:
        with _PAUSE.lock:
            _PAUSE.depth -= 1
            if _PAUSE.depth == 0 and _PAUSE.resume:
                gc.enable()
