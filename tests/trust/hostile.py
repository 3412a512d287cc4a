"""Hostile trees for the trust suite: unique-name copies that, when run, leave a marker file.

Each copy is a real unique-name helper (GV201 reports it and `lintgv fix` plans to replace
it), so any command that compiles or runs copies would run it.
"""

import subprocess
import sys
from pathlib import Path

# Far above any honest run on a busy 2-core machine: past it, a run counts as a hang.
HANG_SECONDS = 300


def run_lintgv(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `python -m lintgv ARGS` in `cwd` and return what it did."""
    return subprocess.run(
        [sys.executable, "-m", "lintgv", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
        check=False,
    )


CPP_COPY = """#include <cstdio>
#include <string>
#include <unordered_map>

namespace tvm {{
namespace codegen {{

class SourcePrinter {{
 public:
  std::string GetUniqueName(std::string name);

 private:
  std::unordered_map<std::string, int> name_count_;
}};

std::string SourcePrinter::GetUniqueName(std::string name) {{
  {payload}
  for (size_t i = 0; i < name.size(); ++i) {{
    if (name[i] == '.') name[i] = '_';
  }}
  if (name.empty()) name = "v";
  auto it = name_count_.find(name);
  if (it == name_count_.end()) {{
    name_count_[name] = 0;
    return name;
  }}
  std::string candidate = name;
  while (name_count_.count(candidate)) {{
    candidate = name + "_" + std::to_string(++it->second);
  }}
  name_count_[candidate] = 0;
  return candidate;
}}

}}  // namespace codegen
}}  // namespace tvm
"""

PYTHON_COPY = """class Printer:
    def __init__(self):
        self.name_count = {{}}

    def get_unique_name(self, name):
        {payload}
        if name not in self.name_count:
            self.name_count[name] = 0
            return name
        self.name_count[name] += 1
        candidate = name + "_" + str(self.name_count[name])
        while candidate in self.name_count:
            self.name_count[name] += 1
            candidate = name + "_" + str(self.name_count[name])
        self.name_count[candidate] = 0
        return candidate
"""


def cpp_writing(marker: Path) -> str:
    """Return a C++ copy that creates `marker` whenever it runs."""
    payload = f'if (FILE* f = std::fopen("{marker}", "w")) std::fclose(f);'
    return CPP_COPY.format(payload=payload)


def cpp_with(payload: str) -> str:
    """Return the C++ copy with `payload` as its first statement."""
    return CPP_COPY.format(payload=payload)


def python_writing(marker: Path) -> str:
    """Return a Python copy that creates `marker` whenever it runs."""
    return PYTHON_COPY.format(payload=f"open({str(marker)!r}, 'w').close()")


def hostile_tree(root: Path, marker: Path) -> Path:
    """Write a tree whose C++ and Python copies create `marker` when run; return `root`."""
    (root / "src").mkdir(parents=True)
    (root / "python").mkdir()
    (root / "lintgv.toml").write_text('tvm-version = "0.24"\n')
    (root / "src" / "printer.cc").write_text(cpp_writing(marker))
    (root / "python" / "printer.py").write_text(python_writing(marker))
    return root
