"""Worker processes. The language server's check many closed files: the same results as
a check in the caller's own process, and a stop that does not wait. A run's check both
of its passes, forked once."""

import os
from collections.abc import Iterable, Iterator
from itertools import accumulate
from pathlib import Path
from typing import Any

import pytest

from lintgv import checking
from lintgv.cache import stat_key
from lintgv.checking import Workers
from lintgv.discovery import Candidate, Discovery
from lintgv.engine import check
from lintgv.helper_index import HelperIndex
from lintgv.model import SourceFile

HELPER = """#include <string>
#include <unordered_map>
std::unordered_map<std::string, int> used;
std::string NameFor(std::string name) {
  if (used.find(name) == used.end()) {
    used[name] = 1;
    return name;
  }
  used[name] = used[name] + 1;
  return name + std::to_string(used[name]);
}
"""


def _tree(root: Path, count: int) -> None:
    (root / "src").mkdir()
    (root / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    (root / "src" / "names.cc").write_text(HELPER)
    for index in range(count):
        (root / "src" / f"f{index}.cc").write_text(
            f'GlobalVar F{index}(IRModule mod) {{ return GlobalVar("f{index}"); }}\n'
        )
    (root / "lift.py").write_text("import tvm\n\ngv = tvm.ir.GlobalVar('main')\n")


def test_workers_give_what_the_engine_gives_here(tmp_path: Path) -> None:
    _tree(tmp_path, 30)
    candidates = list(Discovery({}).discover([tmp_path], []))
    workers = Workers(2)
    try:
        checked = list(workers.check(candidates))
    finally:
        workers.close()
    assert [c.path for c, _, _ in checked] == [c.path for c in candidates]
    for candidate, stat, result in checked:
        text = candidate.path.read_text()
        here = check(
            SourceFile(candidate.path, candidate.language, text, candidate.module_name),
            candidate.config,
        )
        assert result == here
        assert stat == stat_key(candidate.path)
    codes = sorted(f.code for _, _, r in checked for f in r.findings)
    assert codes == ["GV101"] * 31 + ["GV201"]  # 30 C++ and 1 Python GV101; the helper
    index = HelperIndex()
    index.replace({c.path: r for c, _, r in checked})
    assert index.names == {"NameFor"}


def test_closing_the_workers_mid_way_stops_them(tmp_path: Path) -> None:
    _tree(tmp_path, 400)
    candidates = list(Discovery({}).discover([tmp_path], []))
    workers = Workers(2)
    checked = workers.check(candidates)
    first = next(checked)
    assert first[0].path == candidates[0].path
    checked.close()
    workers.close()  # returns at once: the files not started are dropped
    with pytest.raises(RuntimeError, match="shutdown"):
        next(workers.check(candidates[:1]))


_REAL_WORK = checking._work


def _recording_work(task: checking._Task) -> checking._Done:
    """checking._work, noting the process each file is checked in."""
    (Path(os.environ["LINTGV_TEST_PIDS"]) / str(os.getpid())).touch()
    return _REAL_WORK(task)


def test_a_run_checks_both_passes_in_the_same_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The helper the first pass finds makes a second pass over the files that call it;
    # a worker forked for it again would load the engine again and inherit every result.
    tree = tmp_path / "tree"
    tree.mkdir()
    _tree(tree, 60)
    for index in range(60):
        (tree / "src" / f"c{index}.cc").write_text(
            f'std::string C{index}() {{ return NameFor("c{index}"); }}\n'
        )
    pids = tmp_path / "pids"
    pids.mkdir()
    monkeypatch.setenv("LINTGV_TEST_PIDS", str(pids))
    monkeypatch.setattr(checking, "_work", _recording_work)
    result = checking.run([tree], {}, use_cache=False, jobs=2)
    codes = [f.code for r in result.results for f in r.findings]
    assert codes.count("GV203") == 60  # the second pass ran
    checked_in = {p.name for p in pids.iterdir()}
    assert str(os.getpid()) not in checked_in
    assert len(checked_in) == 2


def test_files_are_handed_out_while_the_walk_goes_on_and_progress_knows_the_total(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    _tree(tree, 80)
    for index in range(900):  # enough files for large chunks before the small last ones
        (tree / "src" / f"plain{index}.cc").write_text(f"int f{index}() {{ return {index}; }}\n")
    walked: list[Path] = []
    handed_out: list[tuple[int, int]] = []  # files the walk had found, files in the chunk
    real_discover = Discovery.discover
    real_chunks = checking._chunks

    def walk_noted(discovery: Discovery, *args: Any) -> Iterator[Candidate]:
        for candidate in real_discover(discovery, *args):
            walked.append(candidate.path)
            yield candidate

    def chunks_noted(tasks: Iterable[Any], jobs: int) -> Iterator[list[Any]]:
        for chunk in real_chunks(tasks, jobs):
            handed_out.append((len(walked), len(chunk)))
            yield chunk

    reports: list[tuple[str, int, int]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Discovery, "discover", walk_noted)
        patch.setattr(checking, "_chunks", chunks_noted)
        result = checking.run(
            [tree], {}, use_cache=False, jobs=2, progress=lambda *r: reports.append(r)
        )
    files = len(walked)
    assert files == 982 and len(result.results) == files
    ends = list(accumulate(size for _, size in handed_out))
    assert files in ends  # the first pass's chunks; a second pass follows (the helper)
    handed_out = handed_out[: ends.index(files) + 1]
    # Each worker's first chunk went out, small, as soon as the run had files enough to
    # start workers; large chunks went out while the walk went on, each once enough files
    # were found after it; the last files went out in small chunks, once it had ended.
    small, last = checking._SMALL_CHUNK, checking._LAST_FILES
    assert handed_out[:2] == [(checking._PARALLEL_THRESHOLD, small)] * 2
    large = handed_out[2 : 2 + (files - 2 * small - last) // checking._CHUNK]
    assert large == [
        (2 * small + last + checking._CHUNK * (n + 1), checking._CHUNK) for n in range(len(large))
    ]
    assert len(large) == 3
    rest = handed_out[2 + len(large) :]
    assert all(found == files and size <= small for found, size in rest)
    assert sum(size for _, size in rest) >= last
    stage = [r for r in reports if r[0] == "checking"]
    assert stage == [("checking", done, files) for done in range(1, files + 1)]
    # Results are each file's own, in the walk's order.
    assert [r.path for r in result.results] == sorted(walked, key=lambda p: p.as_posix())
    assert sum(len(r.findings) for r in result.results) == 80 + 1 + 1


def test_a_run_without_a_cache_neither_hashes_nor_stats_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    _tree(tree, 3)

    def refused(*_: object) -> object:
        raise AssertionError("nothing keeps it")

    monkeypatch.setattr(checking, "digest_of", refused)
    monkeypatch.setattr(checking, "stat_key", refused)
    result = checking.run([tree], {}, use_cache=False, jobs=1)
    assert sum(len(r.findings) for r in result.results) >= 4
