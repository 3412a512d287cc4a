"""Compile, inspect, link and run emitted models with the system C toolchain."""

import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lintgv.runtime.c_emitter import EmittedModel
from lintgv.writing import existing_mode

C_FLAGS = ("-std=c99", "-Wall", "-Werror", "-pedantic")
RUN_SECONDS = 30


class ToolFailed(Exception):
    """A compiler, `nm` or the linked program failed; the message holds its output."""


@dataclass(frozen=True)
class Toolchain:
    cc: str = "cc"
    nm: str = "nm"

    def require(self) -> None:
        """Raise ToolFailed unless both tools are on PATH."""
        for tool in (self.cc, self.nm):
            if shutil.which(tool) is None:
                raise ToolFailed(f"`{tool}` is not on PATH (install build-essential and binutils)")

    def compile(self, source: Path) -> Path:
        """Compile `source` to an object file beside it and return its path."""
        target = source.with_suffix(".o")
        existing_mode(target)  # the compiler would write through a symbolic link
        _run([self.cc, *C_FLAGS, "-c", source.name, "-o", target.name], source.parent)
        return target

    def exported(self, obj: Path) -> tuple[str, ...]:
        """Return the external symbols `obj` defines."""
        out = _run([self.nm, "-P", "-g", "--defined-only", obj.name], obj.parent)
        return tuple(line.split()[0] for line in out.splitlines() if line.strip())

    def link_and_run(self, main: Path, objects: Sequence[Path], includes: Sequence[Path]) -> str:
        """Link `main` with `objects`, run the program, and return what it printed."""
        program = main.with_suffix("").absolute()
        existing_mode(program)  # the linker would write through a symbolic link
        # Absolute paths: the tools run in main's folder, where a relative one is wrong.
        flags = [f"-I{d.absolute()}" for d in includes]
        linked = [str(o.absolute()) for o in objects]
        _run([self.cc, *C_FLAGS, *flags, main.name, *linked, "-o", str(program)], main.parent)
        return _run([str(program)], main.parent)


def _run(command: list[str], cwd: Path) -> str:
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=RUN_SECONDS, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ToolFailed(f"`{' '.join(command)}` failed: {exc}") from exc
    if done.returncode != 0:
        output = (done.stderr or done.stdout).strip()
        raise ToolFailed(f"`{' '.join(command)}` exited {done.returncode}: {output}")
    return done.stdout


def main_source(models: Sequence[EmittedModel]) -> str:
    """Return a C program that calls every function of every model and checks the result."""
    lines = ["#include <stdio.h>"]
    lines += [f'#include "{m.stem}.h"' for m in models]
    lines += ["", "int main(void) {", "  int calls = 0;"]
    for model in models:
        for function in model.functions:
            lines += [
                f"  if ({function.symbol}() != {function.value}) {{",
                f'    printf("wrong definition: {function.symbol}\\n");',
                "    return 1;",
                "  }",
                "  ++calls;",
            ]
    lines += ['  printf("%d calls ok\\n", calls);', "  return 0;", "}", ""]
    return "\n".join(lines)
