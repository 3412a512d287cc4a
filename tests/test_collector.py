"""The cyclic garbage collector is paused while a Python file is checked, and back as it
was once the check ends, however it ends; nothing the check made waits for it."""

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from lintgv import engine
from lintgv.collector import collector_paused
from lintgv.config import Config
from lintgv.model import FileResult, Language, SourceFile
from lintgv.parsing.python import ParsedPython, parse_python

PYTHON = """\
import tvm


def build(mod, f):
    gv = tvm.ir.GlobalVar("main")
    mod[gv] = f
    return mod
"""


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if not was:
            gc.disable()


def _check(tmp_path: Path) -> FileResult:
    source = SourceFile(tmp_path / "a.py", Language.PYTHON, PYTHON)
    return engine.check(source, Config(root=tmp_path))


def test_a_python_check_parses_and_walks_with_the_collector_paused(
    collector_on: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []

    def watched(*args: object, **kwargs: object) -> ParsedPython:
        seen.append(gc.isenabled())
        return parse_python(*args, **kwargs)  # type: ignore[arg-type]  # passed on as given

    monkeypatch.setattr(engine, "parse_python", watched)
    assert [f.code for f in _check(tmp_path).findings] == ["GV101"]
    assert seen == [False]
    assert gc.isenabled()


def test_the_collector_comes_back_when_a_check_raises(
    collector_on: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> ParsedPython:
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "parse_python", broken)
    with pytest.raises(KeyboardInterrupt):
        _check(tmp_path)
    assert gc.isenabled()


def test_nested_pauses_resume_only_when_the_outer_one_ends(collector_on: None) -> None:
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_turned_off_before_stays_off(collector_on: None) -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_a_check_leaves_nothing_for_the_collector(collector_on: None, tmp_path: Path) -> None:
    _check(tmp_path)  # the first check imports and builds what lives as long as the process
    gc.collect()
    gc.disable()
    try:
        result = _check(tmp_path)
        assert result.findings
        del result
        assert gc.collect() == 0
    finally:
        gc.enable()
