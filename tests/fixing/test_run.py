"""A fix run over several files: one file's failure stops neither the others nor the run."""

from collections.abc import Callable
from pathlib import Path

import pytest

from lintgv import checking
from lintgv.fixing import file_fix
from lintgv.fixing import run as fix_run
from lintgv.fixing.files import Tree
from lintgv.fixing.files import write_atomically as real_write
from lintgv.fixing.run import fix_paths
from lintgv.fixing.settle import Checker, Settled
from lintgv.fixing.settle import settle as real_settle
from lintgv.model import FileResult, Language

SITE = 'void F(IRModule mod) {\n  GlobalVar gv("f");\n  mod->Add(gv, x);\n}\n'


def _settle_after(
    hook: Callable[[str, FileResult | None], None],
) -> Callable[..., Settled]:
    """Return lintgv's settle, with `hook` told each text and its first check first."""

    def settle(
        text: str,
        language: Language,
        checker: Checker,
        *,
        unsafe: bool,
        max_rounds: int,
        checked: FileResult | None,
    ) -> Settled:
        hook(text, checked)
        return real_settle(
            text, language, checker, unsafe=unsafe, max_rounds=max_rounds, checked=checked
        )

    return settle


def _project(root: Path) -> list[Path]:
    paths = [root / "a.cc", root / "b.cc"]
    for path in paths:
        path.write_text(SITE)
    return paths


def test_a_failed_write_is_reported_and_the_other_file_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = _project(tmp_path)

    def failing(path: Path, data: bytes, digest: str, tree: Tree) -> None:
        if path.name == "a.cc":
            raise OSError("disk full")
        real_write(path, data, digest, tree)

    monkeypatch.setattr(file_fix, "write_atomically", failing)
    result = fix_paths([tmp_path], {}, unsafe=True, use_cache=False)
    assert first.read_text() == SITE
    assert "FreshGlobal" in second.read_text()
    assert [e.message for e in result.all_errors] == ["cannot be written: disk full"]
    assert [f.path.name for f in result.remaining] == ["a.cc"]


def test_a_crash_while_fixing_one_file_is_reported_and_the_other_is_fixed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = _project(tmp_path)

    def crash(text: str, checked: FileResult | None) -> None:
        if "crash" in text:
            raise RuntimeError("boom")

    first.write_text("// crash\n" + SITE)
    monkeypatch.setattr(file_fix, "settle", _settle_after(crash))
    result = fix_paths([tmp_path], {}, unsafe=True, use_cache=False)
    assert first.read_text() == "// crash\n" + SITE
    assert "FreshGlobal" in second.read_text()
    assert [e.message for e in result.all_errors] == ["could not be fixed: RuntimeError: boom"]
    assert [f.path.name for f in result.remaining] == ["a.cc"]


def test_diff_mode_writes_nothing_and_keeps_the_findings(tmp_path: Path) -> None:
    first, _ = _project(tmp_path)
    result = fix_paths([tmp_path], {}, unsafe=True, write=False, use_cache=False)
    assert first.read_text() == SITE
    assert all(f.changed and not f.written for f in result.fixes)
    assert len(result.remaining) == 2


COPY_KNOWN_BY_SHAPE = """#include <string>
#include <unordered_map>

class IOVars {
 public:
  std::string Name(std::string original) { return GetUniqueIOVarName(original); }

 private:
  std::string GetUniqueIOVarName(std::string name) {
    if (io_var_names_.find(name) == io_var_names_.end()) {
      io_var_names_[name] = 1;
      return name;
    }
    io_var_names_[name] = io_var_names_[name] + 1;
    return name + std::to_string(io_var_names_[name]);
  }
  std::unordered_map<std::string, int> io_var_names_;
};
"""


def test_a_copy_the_rules_know_only_by_its_shape_is_replaced_too(tmp_path: Path) -> None:
    path = tmp_path / "io_vars.cc"
    path.write_text(COPY_KNOWN_BY_SHAPE)
    result = fix_paths([tmp_path], {}, unsafe=True, use_cache=False)
    assert [g.helper for g in result.groups if g.done] == ["IOVars::GetUniqueIOVarName"]
    text = path.read_text()
    assert "return name_supply_->FreshName(original);" in text
    assert "GetUniqueIOVarName" not in text


def test_the_globalvar_import_the_fixes_leave_unused_goes(tmp_path: Path) -> None:
    (tmp_path / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    used = tmp_path / "lift.py"
    used.write_text(
        "from tvm.relay import GlobalVar, Var\n\n\n"
        "def lift(mod, func):\n"
        '    gv = GlobalVar("lifted")\n'
        "    mod[gv] = func\n"
        '    return Var("x")\n'
    )
    exported = tmp_path / "api.py"
    exported.write_text(
        "from tvm.relay import GlobalVar\n\n__all__ = ['GlobalVar', 'make']\n\n\n"
        'def make(mod):\n    gv = GlobalVar("made")\n    mod[gv] = 1\n'
    )
    run = fix_paths([tmp_path], {}, unsafe=True, use_cache=False)
    assert sum(len(f.applied) for f in run.fixes) == 2
    lift = used.read_text()
    assert lift.startswith("from tvm.relay import Var\nfrom tvm.ir.supply import GlobalVarSupply\n")
    assert 'gv = GlobalVarSupply(mod).fresh_global("lifted", False)' in lift
    # Still named in __all__: it stays.
    assert exported.read_text().startswith("from tvm.relay import GlobalVar\n")
    again = fix_paths([tmp_path], {}, unsafe=True, use_cache=False)
    assert not any(f.applied for f in again.fixes)


def test_the_first_pass_check_of_a_file_is_reused_while_the_file_holds_what_it_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = _project(tmp_path)
    reused: dict[str, bool] = {}

    def record(text: str, checked: FileResult | None) -> None:
        reused[text.splitlines()[0]] = checked is not None

    real_run = checking.run

    def run_then_edit(*args: object, **kwargs: object) -> object:
        done = real_run(*args, **kwargs)  # type: ignore[arg-type]
        # Changed after the first pass: its check is of another text and must not be used.
        second.write_text("// edited\n" + SITE)
        return done

    first.write_text("// kept\n" + SITE)
    monkeypatch.setattr(file_fix, "settle", _settle_after(record))
    monkeypatch.setattr(fix_run, "run", run_then_edit)
    fix_paths([tmp_path], {}, unsafe=True, use_cache=False)
    assert reused == {"// kept": True, "// edited": False}
    assert "FreshGlobal" in first.read_text() and "FreshGlobal" in second.read_text()


def test_a_file_that_does_not_parse_is_not_fixed_from_its_partial_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The check keeps the site's lines only and finds it; the broken function elsewhere
    # makes the whole parse fail: the file could not be checked, as without the reuse.
    path = tmp_path / "broken.py"
    text = (
        "import tvm\n\n\ndef build(mod, f):\n    gv = tvm.ir.GlobalVar('f')\n    mod[gv] = f\n"
        "\n\ndef broken(:\n    pass\n"
    )
    path.write_text(text)
    reused: list[bool] = []
    monkeypatch.setattr(
        file_fix, "settle", _settle_after(lambda _, checked: reused.append(checked is not None))
    )
    result = fix_paths([tmp_path], {}, unsafe=True, use_cache=False)
    assert reused == [False]
    assert path.read_text() == text
    assert [e.message for e in result.all_errors] == ["Python syntax error: invalid syntax"]
