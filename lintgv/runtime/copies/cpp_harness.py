"""Compile a C++ copy into a generated harness with `c++`, run it on the sequence, and read
back the names it returns — both in the sandbox (lintgv.runtime.copies.sandbox).

The copy goes into a struct as a member function, beside the members it uses (declared
from the class's own field types) and a member for each map it takes by pointer or
reference; `main` calls it once per name of the sequence and prints each result in hex.
The harness includes only the bundled prelude and the system's standard headers: a copy
with a preprocessor directive of its own (an `#include` of a project, relative or
absolute path above all) is refused before anything is compiled.
"""

import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from lintgv.runtime.copies.cpp_prelude import PRELUDE
from lintgv.runtime.copies.outcome import CopyRun, error_name
from lintgv.runtime.copies.sandbox import Limits, Outcome, run_sandboxed
from lintgv.runtime.copies.sequence import SEQUENCE

CXX_FLAGS = ("-std=c++17", "-O0", "-w")
COMPILE_LIMITS = Limits(wall_seconds=60, cpu_seconds=60)
RUN_LIMITS = Limits(wall_seconds=10, cpu_seconds=5, memory_bytes=512 * 1024**2)
# A directive, also spelled with a digraph (`%:`) or a trigraph (`??=`), or an operator
# that reads files or emits pragmas without one.
_DIRECTIVE = re.compile(r"^[ \t]*(?:#|%:|\?\?=)|\b(?:_Pragma|__has_include(?:_next)?)\b", re.M)
_MAP = re.compile(
    r"^((?:std::)?(?:unordered_map|map)|(?:tvm::)?(?:runtime::|ffi::)?Map)<\s*(.+?)\s*,\s*(.+)>$"
)
_KEYS = frozenset(
    {"std::string", "string", "String", "runtime::String", "tvm::String", "ffi::String"}
)
_NUMBERS = frozenset(
    {"int", "size_t", "int64_t", "int32_t", "uint32_t", "uint64_t", "unsigned", "long", "bool"}
)


@dataclass(frozen=True)
class CppCopy:
    """A C++ copy ready for the harness (see lintgv.rewrite_validation for how one is found)."""

    helper: str
    path: Path
    line: int
    method: str
    function_text: str  # the definition as it reads inside the harness struct
    members: tuple[tuple[str, str], ...] = ()  # (name, type) of each member it uses
    arguments: tuple[str, ...] = ()  # after the name: C++ expressions on the harness object
    blocked: str | None = None  # why it cannot run, known before compiling
    support: str = ""  # free functions of its file that it calls


def harness_type(type_text: str) -> str:
    """Return the type to declare a member with: a name-keyed map's unread value opaque."""
    match = _MAP.match(" ".join(type_text.split()))
    if match is None:
        return type_text
    template, key, value = match.groups()
    if key.removeprefix("const ").strip() in _KEYS and value.strip() not in _NUMBERS:
        return f"{template}<{key}, tvm::LintgvOpaque>"
    return type_text


def harness_source(copy: CppCopy, sequence: tuple[str, ...] = SEQUENCE) -> str:
    """Return the C++ program that runs `copy` on `sequence`."""
    members = "".join(f"  {harness_type(t)} {n};\n" for n, t in copy.members)
    names = ", ".join(_cpp_string(n) for n in sequence)
    extra = "".join(f", {a}" for a in copy.arguments)
    return (
        f"{PRELUDE}\n{copy.support}\n\n"
        f"struct LintgvHarness {{\n{members}\n{copy.function_text}\n}};\n\n"
        "int main() {\n"
        "  LintgvHarness* h = new LintgvHarness();\n"
        f"  const char* names[] = {{{names}}};\n"
        "  for (const char* name : names) {\n"
        "    try {\n"
        f"      std::string out = lintgv_text(h->{copy.method}(std::string(name){extra}));\n"
        '      std::printf("=");\n'
        '      for (unsigned char c : out) std::printf("%02x", c);\n'
        '      std::printf("\\n");\n'
        "    } catch (const std::exception& e) {\n"
        '      std::printf("!%s\\n", e.what());\n'
        "    }\n"
        "  }\n"
        "  return 0;\n"
        "}\n"
    )


def run_cpp_copy(
    copy: CppCopy, expected: tuple[str, ...], *, cxx: str = "c++", unsandboxed: bool = False
) -> CopyRun:
    """Compile and run `copy` on the sequence in the sandbox; return its names or why it
    could not run (`unsandboxed`: see run_sandboxed)."""

    def failed(reason: str) -> CopyRun:
        return CopyRun(copy.helper, copy.path, copy.line, "cpp", expected, reason=reason)

    if copy.blocked is not None:
        return failed(copy.blocked)
    directive = _DIRECTIVE.search(copy.support + "\n" + copy.function_text)
    if directive is not None:
        found = directive.group(0).strip()
        return failed(f"refused: the copy has a preprocessor directive of its own (`{found}`)")
    compiler = shutil.which(cxx, path="/usr/local/bin:/usr/bin:/bin") or shutil.which(cxx)
    if compiler is None:
        return failed(f"`{cxx}` is not on PATH (install build-essential)")
    with tempfile.TemporaryDirectory(prefix="lintgv-copy-") as scratch:
        folder = Path(scratch)
        (folder / "harness.cc").write_text(harness_source(copy), encoding="utf-8")
        command = [compiler, *CXX_FLAGS, "harness.cc", "-o", "harness"]
        built = run_sandboxed(command, folder, COMPILE_LIMITS, unsandboxed=unsandboxed)
        if built.stopped is not None:
            return failed(f"the compiler {built.stopped}")
        if built.returncode != 0:
            return failed(f"does not compile on its own: {_first_error(built.stderr)}")
        ran = run_sandboxed([str(folder / "harness")], folder, RUN_LIMITS, unsandboxed=unsandboxed)
    return _names(copy, expected, ran)


def _names(copy: CppCopy, expected: tuple[str, ...], ran: Outcome) -> CopyRun:
    def failed(reason: str) -> CopyRun:
        return CopyRun(copy.helper, copy.path, copy.line, "cpp", expected, reason=reason)

    if ran.stopped is not None:
        return failed(f"the harness {ran.stopped}")
    if ran.returncode != 0:
        return failed(f"the harness exited {ran.returncode}: {ran.stderr.strip()[:200]}")
    try:
        names = tuple(_decode(line) for line in ran.stdout.splitlines())
    except ValueError:
        return failed("the harness printed something other than names")
    if len(names) != len(expected):
        return failed(f"the harness printed {len(names)} names for {len(expected)} calls")
    return CopyRun.of_names(copy.helper, copy.path, copy.line, "cpp", expected, names)


def _decode(line: str) -> str:
    if line.startswith("="):
        return bytes.fromhex(line[1:]).decode("utf-8", errors="replace")
    if line.startswith("!"):
        return error_name(line[1:])
    raise ValueError(line[:80])


def _first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error" in line:
            return line.split("error:", 1)[-1].strip()
    return stderr.strip().splitlines()[0] if stderr.strip() else "(no message)"


def _cpp_string(text: str) -> str:
    """Return `text` as a C++ string literal; octal escapes, which never run on."""
    safe = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
    body = "".join(chr(b) if b in safe else f"\\{b:03o}" for b in text.encode())
    return f'"{body}"'
