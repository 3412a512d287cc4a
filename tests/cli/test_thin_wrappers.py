"""A header's declaration of a method that another file defines as a thin wrapper around a
supply is no copy's: GV202 learns it from the run, as `lintgv fix --unsafe` leaves a
printer's copy that returns a `Doc` (TVM's text printers before #12066)."""

from pathlib import Path

from tests.cli.conftest import run_lintgv

HEADER = """#include <string>
#include <unordered_map>

class RelayTextPrinter {
 public:
  Doc Print(const Var& v);
  Doc GetUniqueName(const std::string& prefix);

 private:
  std::unordered_map<std::string, int> name_alloc_map_;
};
"""
SOURCE = """#include "printer.h"

Doc RelayTextPrinter::GetUniqueName(const std::string& prefix) {
  std::string unique_prefix = prefix;
  auto it = name_alloc_map_.find(prefix);
  if (it != name_alloc_map_.end()) {
    while (name_alloc_map_.count(unique_prefix = prefix + "_" + std::to_string(++it->second)) > 0) {
    }
  }
  name_alloc_map_[unique_prefix] = 0;
  return Doc::Text(unique_prefix);
}

Doc RelayTextPrinter::Print(const Var& v) { return GetUniqueName(v->name_hint); }
"""
# Another class's declaration of a helper's name, with no definition in the run.
OTHER = "class CodeGenC {\n  std::string GetUniqueName(std::string prefix);\n};\n"


def _codes(root: Path, *options: str) -> list[str]:
    """Return "path:line:column: code" of each finding `lintgv check` reports."""
    done = run_lintgv("check", "--no-source", *options, ".", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return sorted(" ".join(line.split()[:2]) for line in done.stdout.splitlines() if ": GV" in line)


def test_the_declaration_of_a_copy_made_a_wrapper_is_no_longer_reported(tmp_path: Path) -> None:
    (tmp_path / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    (tmp_path / "printer.h").write_text(HEADER)
    (tmp_path / "printer.cc").write_text(SOURCE)
    (tmp_path / "codegen.h").write_text(OTHER)
    assert _codes(tmp_path, "--no-cache") == [
        "codegen.h:2:15: GV202",
        "printer.cc:14:52: GV203",
        "printer.cc:3:5: GV201",
        "printer.h:7:7: GV202",
    ]
    fixed = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=tmp_path)
    assert "a wrapper of a supply" in fixed.stdout, fixed.stdout
    assert "name_supply_->FreshName(prefix)" in (tmp_path / "printer.cc").read_text()
    # The wrapper's own declaration is left alone; the other class's is still reported,
    # in a run answered from the cache too (where a file's wrappers are kept).
    for options in (("--no-cache",), (), ()):
        assert _codes(tmp_path, *options) == ["codegen.h:2:15: GV202"]
    # Checked alone, the header cannot know its definition: reported by name.
    alone = run_lintgv("check", "--no-cache", "--no-source", "printer.h", cwd=tmp_path)
    assert "printer.h:8:7: GV202" in alone.stdout  # below the include the fix added
