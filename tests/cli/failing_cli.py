"""`lintgv` with a failure injected where no rule or parser reports it, chosen by the
first argument: `bug` raises in the check command itself, `worker` kills the worker
process that checks `dies.cc`. The unexpected-error tests run it."""

import os
import signal
import sys

import lintgv.checking
import lintgv.cli_check
from lintgv.cli import main


def _bug(*args: object, **options: object) -> int:
    raise RuntimeError("injected bug")


def _dying(task: lintgv.checking._Task) -> lintgv.checking._Done:
    # Only a worker dies: on one core the run stays in this process.
    if task.candidate.path.name == "dies.cc" and os.getpid() != _MAIN:
        os.kill(os.getpid(), signal.SIGKILL)
    return _work(task)


_work = lintgv.checking._work
_MAIN = os.getpid()

if __name__ == "__main__":
    mode = sys.argv.pop(1)
    if mode == "bug":
        lintgv.cli_check.run_check = _bug  # type: ignore[assignment]
    else:
        lintgv.checking._work = _dying
    sys.exit(main())
