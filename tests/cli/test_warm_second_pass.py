"""The second pass (calls of unique-name helpers found anywhere in the run) is cached like
the first: a warm run takes its verdict for an unchanged file from the cache, and looks
again when the file or the helpers the run found change."""

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from lintgv import checking
from tests.cli.conftest import Lintgv

Project = Callable[[dict[str, str | bytes]], Path]

# A copy found by its structure: its name is known only from this file, so the call in
# the other file is reported (GV203) by the second pass alone.
HELPER_CC = """\
std::string Extractor::{name}(std::string name) {{
  if (names_.find(name) == names_.end()) {{
    names_[name] = 1;
    return name;
  }}
  names_[name] = names_[name] + 1;
  return name + std::to_string(names_[name]);
}}
"""
CALLER_CC = "void Plan(Extractor* e, const Var& v) { auto n = e->NameFor(v->name_hint); }\n"


def _calls(lintgv: Lintgv, root: Path) -> list[tuple[str, int]]:
    done = lintgv("check", "--select", "GV203", "--format", "json", ".", cwd=root)
    assert done.returncode in (0, 1), done.stderr
    return [(f["path"], f["line"]) for f in json.loads(done.stdout)["findings"]]


def test_a_warm_run_takes_the_second_pass_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In process, to see which files a run reads.
    tree, cache = tmp_path / "tree", tmp_path / "cache"
    tree.mkdir()
    (tree / "helper.cc").write_text(HELPER_CC.format(name="NameFor"), encoding="utf-8")
    (tree / "plan.cc").write_text(CALLER_CC, encoding="utf-8")
    first = checking.run([tree], {}, cache_dir=cache, jobs=1)
    assert [f.code for r in first.results for f in r.findings].count("GV203") == 1
    read: list[Path] = []
    real = checking.__dict__["read_source"]

    def read_source(path: Path, limit: int) -> object:
        read.append(path)
        return real(path, limit)

    monkeypatch.setattr("lintgv.checking.read_source", read_source)
    again = checking.run([tree], {}, cache_dir=cache, jobs=1)
    assert read == []
    assert again.results == first.results


def test_an_edited_caller_is_looked_at_again(lintgv: Lintgv, project: Project) -> None:
    root = project({"helper.cc": HELPER_CC.format(name="NameFor"), "plan.cc": CALLER_CC})
    assert _calls(lintgv, root) == [("plan.cc", 1)]
    (root / "plan.cc").write_text("\n" + CALLER_CC.replace("NameFor", "Other"), "utf-8")
    assert _calls(lintgv, root) == []
    (root / "plan.cc").write_text("\n\n" + CALLER_CC, encoding="utf-8")
    assert _calls(lintgv, root) == [("plan.cc", 3)]


def test_a_new_helper_elsewhere_makes_unchanged_files_looked_at_again(
    lintgv: Lintgv, project: Project
) -> None:
    caller = CALLER_CC.replace("NameFor", "Fresh")
    root = project({"helper.cc": HELPER_CC.format(name="NameFor"), "plan.cc": caller})
    assert _calls(lintgv, root) == []
    assert _calls(lintgv, root) == []
    (root / "fresh.cc").write_text(HELPER_CC.format(name="Fresh"), encoding="utf-8")
    assert _calls(lintgv, root) == [("plan.cc", 1)]
