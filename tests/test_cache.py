"""The result cache: hits only for the same file state, settings and build; runs no code."""

import pickle
import subprocess
from pathlib import Path

import pytest

from lintgv import cache as cache_module
from lintgv.cache import ResultCache, digest_of, stat_key
from lintgv.model import Applicability, FileError, FileResult, Language, Severity

STAT = (10, 1_000, 7)


def _got(
    cache: ResultCache, path: Path, stat: tuple[int, int, int], module: str = ""
) -> FileResult | None:
    hit = cache.hit(path, stat, module)
    return hit[0] if hit is not None else None


def _saved(folder: Path, fingerprint: str, path: Path, result: FileResult) -> None:
    cache = ResultCache.open(folder, fingerprint)
    cache.put(path, STAT, digest_of(b"x"), result)
    cache.save()


def test_a_saved_result_is_read_back_for_the_same_file_state(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    result = FileResult(path, errors=(FileError(path, "broken"),))
    _saved(tmp_path, "config", path, result)
    assert ResultCache.open(tmp_path, "config").hit(path, STAT) == (result, digest_of(b"x"))
    assert _got(ResultCache.open(tmp_path, "config"), path, (10, 2_000, 7)) is None


def test_a_clean_result_is_stored_compactly_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    _saved(tmp_path, "config", path, FileResult(path))
    assert _got(ResultCache.open(tmp_path, "config"), path, STAT) == FileResult(path)


def test_another_config_does_not_see_the_results(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    _saved(tmp_path, "config", path, FileResult(path))
    assert _got(ResultCache.open(tmp_path, "other config"), path, STAT) is None


def test_another_lintgv_version_does_not_see_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.py"
    _saved(tmp_path, "config", path, FileResult(path))
    monkeypatch.setattr(cache_module, "__version__", "999.0")
    assert _got(ResultCache.open(tmp_path, "config"), path, STAT) is None


def test_a_corrupted_entry_is_ignored_and_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    cache = ResultCache.open(tmp_path, "config")
    cache.stored[str(path)] = ("not", "an entry")  # type: ignore[assignment]  # corruption
    assert _got(cache, path, STAT) is None
    assert cache.entry(path) is None
    cache.put(path, STAT, digest_of(b"x"), FileResult(path))
    assert _got(cache, path, STAT) == FileResult(path)


def test_a_corrupted_cache_file_is_ignored_and_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    _saved(tmp_path, "config", path, FileResult(path))
    (stored,) = tmp_path.glob("results-*.pickle")
    stored.write_bytes(b"\x80\x05 truncated")
    cache = ResultCache.open(tmp_path, "config")
    assert _got(cache, path, STAT) is None
    cache.put(path, STAT, digest_of(b"x"), FileResult(path))
    cache.save()
    assert _got(ResultCache.open(tmp_path, "config"), path, STAT) == FileResult(path)


def test_stat_key_is_none_for_a_missing_file(tmp_path: Path) -> None:
    assert stat_key(tmp_path / "missing.py") is None


class _Planted:
    """A pickle that would run code when loaded by a plain unpickler."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (Path.write_text, (str(self.marker), "ran"))


def test_a_cache_file_that_would_run_code_is_refused_and_rebuilt(tmp_path: Path) -> None:
    import pickle

    path = tmp_path / "a.py"
    _saved(tmp_path, "config", path, FileResult(path))
    (cache_file,) = tmp_path.glob("results-*.pickle")
    marker = tmp_path / "marker"
    cache_file.write_bytes(pickle.dumps({str(path): _Planted(marker)}))
    cache = ResultCache.open(tmp_path, "config")
    assert not marker.exists()
    assert _got(cache, path, STAT) is None
    assert cache.dirty  # rewritten on the next save


def test_an_edited_lintgv_source_does_not_see_the_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.py"
    _saved(tmp_path, "config", path, FileResult(path))
    monkeypatch.setattr(cache_module, "code_stamp", lambda: "another build of the rules")
    assert _got(ResultCache.open(tmp_path, "config"), path, STAT) is None


def test_a_result_holds_for_its_module_name_only(tmp_path: Path) -> None:
    path = tmp_path / "x.py"
    cache = ResultCache.open(tmp_path, "config")
    cache.put(path, STAT, digest_of(b"x"), FileResult(path), "pkg.x")
    assert _got(cache, path, STAT, "pkg.x") == FileResult(path)
    assert _got(cache, path, STAT, "x") is None
    assert cache.entry(path, "x") is None


def test_a_second_pass_verdict_holds_for_the_same_file_state_and_names(tmp_path: Path) -> None:
    path = tmp_path / "a.cc"
    result = FileResult(path, errors=(FileError(path, "called"),))
    names = cache_module.names_key(frozenset({"A::F"}), frozenset())
    cache = ResultCache.open(tmp_path, "config")
    cache.put_second(path, STAT, "", names, digest_of(b"x"), result)
    cache.put_second(tmp_path / "b.cc", STAT, "", names, "", None)
    cache.save()
    again = ResultCache.open(tmp_path, "config")
    assert again.second_pass(path, STAT, "", names) == (digest_of(b"x"), result)
    assert again.second_pass(tmp_path / "b.cc", STAT, "", names) == ("", None)
    other = cache_module.names_key(frozenset({"A::F", "B::G"}), frozenset())
    assert again.second_pass(path, STAT, "", other) is None
    assert again.second_pass(path, (10, 2_000, 7), "", names) is None
    assert again.second_pass(path, STAT, "pkg.a", names) is None


@pytest.mark.system("/usr/bin/python3.11")
def test_results_pickle_without_builtins_getattr_on_debian_s_python() -> None:
    # Python 3.11.2 (Debian 12's) pickles an enum member through builtins.getattr, which
    # the cache refuses: every warm run there started afresh. Members pickle by value.
    root = Path(__file__).parent.parent
    script = (
        "import pickle, sys\n"
        "from lintgv.model import Applicability, Language, Severity\n"
        "data = pickle.dumps([Severity.ERROR, Language.CPP, Applicability.UNSAFE], 5)\n"
        "sys.stdout.buffer.write(data)\n"
    )
    done = subprocess.run(
        [
            "/usr/bin/python3.11",
            "-I",
            "-c",
            f"import sys; sys.path.insert(0, {str(root)!r})\n{script}",
        ],
        capture_output=True,
        check=True,
        timeout=60,
    )
    assert b"getattr" not in done.stdout
    assert pickle.loads(done.stdout) == [Severity.ERROR, Language.CPP, Applicability.UNSAFE]
