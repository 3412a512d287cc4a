"""A GlobalVarSupply parameter threaded into a C++ function that builds a GlobalVar with
nothing in scope to name it (stage three of `lintgv fix --unsafe`), through the CLI on
tests/fixtures/thread_project; the results compile against the stub headers."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fix_cli import GV101_ON_0_16, gv101_project, run_fix

FIXTURES = Path(__file__).parent.parent / "fixtures"
STUBS = Path(__file__).parent.parent / "stubs"
SOURCES = ("include/driver_api.h", "src/driver_api.cc", "src/build.cc")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "thread_project"
    shutil.copytree(FIXTURES / "thread_project", root)
    return root


def _texts(root: Path) -> dict[str, str]:
    return {name: (root / name).read_text() for name in SOURCES}


def test_the_function_its_declaration_and_its_callers_get_the_supply(project: Path) -> None:
    result = run_fix(project, "--unsafe")
    assert result.returncode == 0, result.stdout + result.stderr
    header, definition, build = (_texts(project)[name] for name in SOURCES)
    # Before the first defaulted parameter, in the declaration and the definition alike.
    assert (
        "IRModule ScheduleToModule(const PrimFunc& f, const std::string& name, "
        "GlobalVarSupply global_var_supply, bool simple = false);"
    ) in header
    assert (
        "GlobalVar Lower(const Function& func, GlobalVarSupply global_var_supply, int depth = 0);"
        in header
    )
    assert "#include <tvm/ir/global_var_supply.h>" in header
    assert "return MakeModule(global_var_supply->FreshGlobal(name, false), f);" in definition
    assert 'return global_var_supply->FreshGlobal("lowered", false);' in definition
    # Each caller passes what it has: a module, its own supply, else a new one (listed).
    assert "ScheduleToModule(f, name, GlobalVarSupply(mod));" in definition
    assert 'ScheduleToModule(f, name, GlobalVarSupply(NameSupply("")), true);' in definition
    assert 'ScheduleToModule(f, "main", supply, true);' in build
    assert "lowerer->Lower(f, GlobalVarSupply(mod));" in build
    assert "Threaded a GlobalVarSupply parameter into ScheduleToModule (3 calls updated" in (
        result.stdout
    )
    assert "pass a new, empty one: driver_api.cc:14" in result.stdout


@pytest.mark.system("c++")
def test_the_threaded_files_compile_and_a_second_run_changes_nothing(project: Path) -> None:
    run_fix(project, "--unsafe")
    for name in ("src/driver_api.cc", "src/build.cc"):
        done = subprocess.run(
            [
                *("c++", "-std=c++17", "-fsyntax-only", f"-I{STUBS}"),
                *(f"-I{project / 'include'}", str(project / name)),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, f"{name}:\n{done.stderr}"
    after = _texts(project)
    again = run_fix(project, "--unsafe")
    assert _texts(project) == after
    assert "Thread" not in again.stdout


def test_without_unsafe_nothing_is_threaded(project: Path) -> None:
    before = _texts(project)
    run_fix(project)
    assert _texts(project) == before


def test_a_call_that_cannot_be_resolved_stops_the_change(project: Path) -> None:
    build = project / "src" / "build.cc"
    build.write_text(
        build.read_text().replace(
            "}  // namespace tvm",
            "Lowerer MakeLowerer();\n"
            "GlobalVar Again(const Function& f) { return MakeLowerer().Lower(f); }\n"
            "}  // namespace tvm",
        )
    )
    before = _texts(project)
    result = run_fix(project, "--unsafe")
    after = _texts(project)
    # The Lowerer change would leave a call without its argument: it is not made, and the
    # summary says which call; ScheduleToModule's change still is.
    assert "GlobalVar Lower(const Function& func, int depth = 0);" in after["include/driver_api.h"]
    assert "MakeLowerer().Lower(f)" in after["src/build.cc"]
    assert (
        "supply parameter not threaded into Lowerer::Lower (src/driver_api.cc): calls of Lower "
        "whose receiver lintgv cannot resolve: build.cc:14"
    ) in result.stdout
    assert after["src/driver_api.cc"] != before["src/driver_api.cc"]


@pytest.mark.system("c++")
def test_a_call_on_a_temporary_is_its_class_s_call(project: Path) -> None:
    build = project / "src" / "build.cc"
    build.write_text(
        build.read_text().replace(
            "}  // namespace tvm",
            "struct Other {\n  int Lower(int x) { return x; }\n};\n"
            "GlobalVar Again(IRModule mod, const Function& f) { return Lowerer().Lower(f); }\n"
            "int Unrelated() { return Other().Lower(1); }\n"
            "}  // namespace tvm",
        )
    )
    result = run_fix(project, "--unsafe")
    after = _texts(project)
    # `Lowerer()` makes a Lowerer: its call gets the argument; `Other()` makes an Other,
    # whose Lower is another function, left alone rather than stopping the change.
    assert "return Lowerer().Lower(f, GlobalVarSupply(mod));" in after["src/build.cc"]
    assert "return Other().Lower(1);" in after["src/build.cc"]
    assert "Threaded a GlobalVarSupply parameter into Lowerer::Lower" in result.stdout
    done = subprocess.run(
        [
            "c++",
            "-std=c++17",
            "-fsyntax-only",
            f"-I{STUBS}",
            f"-I{project / 'include'}",
            str(build),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_a_failure_to_plan_threading_is_reported_not_raised(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lintgv.fixing import supply_stage
    from lintgv.fixing.run import fix_paths
    from lintgv.fixing.summary import render_summary

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("planner bug")

    monkeypatch.setattr(supply_stage, "plan_threading", broken)
    outcome = fix_paths([project], {}, unsafe=True, write=False, use_cache=False)
    summary = render_summary(outcome, unsafe=True)
    assert (
        "  no supply parameter threaded: supply threading could not be planned: "
        "RuntimeError: planner bug"
    ) in summary.splitlines()
    assert not any(g.done for g in outcome.groups)


def test_an_overloaded_function_is_left_as_it_is(project: Path) -> None:
    header = project / "include" / "driver_api.h"
    header.write_text(
        header.read_text().replace(
            "class Lowerer {", "IRModule ScheduleToModule(const PrimFunc& f);\n\nclass Lowerer {"
        )
    )
    before = _texts(project)
    result = run_fix(project, "--unsafe")
    after = _texts(project)
    # Calls of one overload cannot be told from calls of the other by their name.
    assert (
        "supply parameter not threaded into ScheduleToModule (src/driver_api.cc): "
        "ScheduleToModule is overloaded (driver_api.h): its calls cannot be told apart"
    ) in result.stdout
    assert "ScheduleToModule(f, name);" in after["src/driver_api.cc"]
    assert after["src/build.cc"].count('ScheduleToModule(f, "main", true)') == 1
    assert after != before  # Lowerer::Lower is still threaded


CHAIN = """\
#include <tvm/ir/module.h>

namespace tvm {
IRModule MakeModule(const GlobalVar& gv, const BaseFunc& f);

IRModule Make(const PrimFunc& f) { return MakeModule(GlobalVar("main"), f); }

IRModule Middle(const PrimFunc& f) { return Make(f); }

IRModule Top(IRModule mod, const PrimFunc& f) { return Middle(f); }
}  // namespace tvm
"""


@pytest.mark.parametrize(
    ("depth", "expected"),
    [
        # Middle has nothing to pass: it gets the parameter too, and Top passes its module.
        (
            None,
            [
                "IRModule Make(const PrimFunc& f, GlobalVarSupply global_var_supply) {",
                "IRModule Middle(const PrimFunc& f, GlobalVarSupply global_var_supply) { "
                "return Make(f, global_var_supply); }",
                "return Middle(f, GlobalVarSupply(mod)); }",
            ],
        ),
        # One call deep only: Middle passes a new, empty supply.
        (1, ['return Make(f, GlobalVarSupply(NameSupply(""))); }', "return Middle(f); }"]),
    ],
)
def test_a_caller_with_nothing_to_pass_is_threaded_too_up_to_the_depth(
    tmp_path: Path, depth: int | None, expected: list[str]
) -> None:
    root = tmp_path / "chain"
    root.mkdir()
    settings = 'tvm-version = "0.16"\nselect = ["GV101"]\n'
    if depth is not None:
        settings += f"supply-depth = {depth}\n"
    (root / "lintgv.toml").write_text(settings)
    (root / "chain.cc").write_text(CHAIN)
    result = run_fix(root, "--unsafe")
    text = (root / "chain.cc").read_text()
    for line in expected:
        assert line in text, f"{line}\n---\n{text}\n{result.stdout}"
    assert 'return MakeModule(global_var_supply->FreshGlobal("main", false), f);' in text


def test_a_change_reaching_beyond_the_files_given_is_not_made(project: Path) -> None:
    # Only src/ is given; the declaration in include/ would have to change too. Writing
    # src/ alone would leave a declaration that no longer matches its definition.
    before = _texts(project)
    result = subprocess.run(
        [sys.executable, "-m", "lintgv", "fix", "--no-cache", "--unsafe", "src"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert _texts(project) == before
    assert (
        "supply parameter not threaded into ScheduleToModule (include/driver_api.h): "
        "include/driver_api.h must change too, and is not among the files given"
    ) in result.stdout


def test_a_file_that_cannot_be_parsed_matters_only_if_it_names_the_function(
    project: Path,
) -> None:
    # Branches of an #if that each open the same function: tree-sitter keeps almost
    # nothing of such a file. It names `ScheduleToModuleFor`, not `ScheduleToModule`.
    branches = (
        "#if A\nint ScheduleToModuleFor(int a) {\n"
        "#else\nint ScheduleToModuleFor(long a) {\n#endif\n"
    )
    (project / "src" / "device.cc").write_text(branches + "  return 0;\n}\n" + ") ] } ) ] }\n" * 40)
    result = run_fix(project, "--unsafe")
    assert "Threaded a GlobalVarSupply parameter into ScheduleToModule" in result.stdout
    # Once it does name the function, its calls are unknown and the change is not made.
    (project / "src" / "device.cc").write_text(
        branches.replace("ScheduleToModuleFor", "ScheduleToModule") + ") ] } ) ] }\n" * 40
    )
    project_again = project.parent / "again"
    shutil.copytree(FIXTURES / "thread_project", project_again)
    shutil.copy(project / "src" / "device.cc", project_again / "src" / "device.cc")
    result = run_fix(project_again, "--unsafe")
    assert "device.cc cannot be parsed, so its calls of ScheduleToModule are unknown" in (
        result.stdout
    )


def test_the_callers_passing_a_new_supply_are_listed_in_order(project: Path) -> None:
    # Callers with nothing to pass in three files: listed by file, then line.
    extra = 'IRModule Late(const PrimFunc& f) {\n  return ScheduleToModule(f, "late", true);\n}\n'
    build = project / "src" / "build.cc"
    build.write_text(
        build.read_text().replace("}  // namespace tvm", extra + "}  // namespace tvm")
    )
    (project / "src" / "aaa.cc").write_text(
        '#include "driver_api.h"\n\nnamespace tvm {\n'
        + extra.replace("Late", "Early")
        + "}  // namespace tvm\n"
    )
    first = run_fix(project, "--unsafe", "--diff")
    again = subprocess.run(
        [sys.executable, "-m", "lintgv", "fix", "--no-cache", "--unsafe", "--diff", "."],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    assert (first.stdout, first.stderr) == (again.stdout, again.stderr)
    summary = first.stdout + first.stderr
    assert "pass a new, empty one: aaa.cc:5, build.cc:13, driver_api.cc:14)" in summary


def test_a_call_through_the_function_s_namespace_is_updated_too(project: Path) -> None:
    # `tvm::ScheduleToModule(...)` from another namespace is a call of the same function:
    # left without the new argument, it would not compile.
    (project / "src" / "relay.cc").write_text(
        '#include "driver_api.h"\n\nnamespace tvm {\nnamespace relay {\n'
        "IRModule Lift(const PrimFunc& f) {\n"
        '  return tvm::ScheduleToModule(f, "lifted", true);\n}\n'
        "}  // namespace relay\n}  // namespace tvm\n"
    )
    result = run_fix(project, "--unsafe")
    assert result.returncode == 0, result.stdout + result.stderr
    relay = (project / "src" / "relay.cc").read_text()
    assert 'tvm::ScheduleToModule(f, "lifted", GlobalVarSupply(NameSupply("")), true);' in relay
    assert "ScheduleToModule (4 calls updated" in result.stdout


SHARED = """#include <tvm/ir/module.h>
namespace tvm {
GlobalVar Name(const std::string& name) {
  return GlobalVar(name);
}

void Twice(IRModule mod, const BaseFunc& f) {
  // The first global.
  mod->Add(Name("f"), f);
  mod->Add(Name("f"), f);
}

void Loop(IRModule mod, const Array<BaseFunc>& fs) {
  for (const BaseFunc& f : fs) {
    mod->Add(Name("g"), f);
  }
}

void Once(IRModule mod, const BaseFunc& f) {
  mod->Add(Name("h"), f);
}
}  // namespace tvm
"""


@pytest.mark.system("c++")
def test_a_caller_s_calls_share_one_supply_made_before_them(tmp_path: Path) -> None:
    root = gv101_project(tmp_path / "shared", {"shared.cc": SHARED})
    result = run_fix(root, "--unsafe")
    text = (root / "shared.cc").read_text()
    assert "Threaded a GlobalVarSupply parameter into Name (4 calls updated" in result.stdout
    # Two calls: one supply, declared above the comment over the first.
    assert (
        "  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n  // The first global.\n"
        '  mod->Add(Name("f", global_var_supply), f);\n'
        '  mod->Add(Name("f", global_var_supply), f);\n'
    ) in text
    # A call in a loop: one supply for every turn, declared outside the loop.
    assert (
        "  GlobalVarSupply global_var_supply = GlobalVarSupply(mod);\n"
        "  for (const BaseFunc& f : fs) {\n"
        '    mod->Add(Name("g", global_var_supply), f);\n'
    ) in text
    # A single call builds its supply inline.
    assert 'mod->Add(Name("h", GlobalVarSupply(mod)), f);' in text
    done = subprocess.run(
        ["c++", "-std=c++17", "-fsyntax-only", f"-I{STUBS}", str(root / "shared.cc")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_a_caller_in_an_excluded_file_stops_the_change(tmp_path: Path) -> None:
    # A call in a file the config excludes would be left without the new argument.
    cpp = 'IRModule Make(const PrimFunc& f) {\n  return MakeModule(GlobalVar("main"), f);\n}\n'
    python = "from tvm.ir import GlobalVar\n\n\ndef make():\n    return GlobalVar('main')\n"
    root = gv101_project(
        tmp_path / "excluded",
        {
            "src/make.cc": cpp,
            "src/use.cc": "IRModule Use(const PrimFunc& f) { return Make(f); }\n",
            "tests/test_make.cc": "void Check(const PrimFunc& f) { Make(f); }\n",
            "pkg/make.py": python,
            "pkg/__init__.py": "",
            "pkg/use.py": "from pkg.make import make\n\n\ndef use(mod):\n    return make()\n",
            "tests/test_make.py": "from pkg.make import make\n\n\ndef test():\n    make()\n",
        },
    )
    (root / "lintgv.toml").write_text(GV101_ON_0_16 + 'extend-exclude = ["tests/"]\n')
    result = run_fix(root, "--unsafe")
    for name in ("Make", "make"):
        assert (
            f"test_make.{'cc' if name == 'Make' else 'py'} names {name} and is excluded from "
            "the files checked: a call there could not be updated"
        ) in result.stdout, result.stdout
    assert "Make(f);" in (root / "tests" / "test_make.cc").read_text()
    assert 'GlobalVar("main")' in (root / "src" / "make.cc").read_text()
    assert "GlobalVar('main')" in (root / "pkg" / "make.py").read_text()
    # Without the exclusion both changes are made, the test files' calls updated.
    (root / "lintgv.toml").write_text(GV101_ON_0_16)
    result = run_fix(root, "--unsafe")
    assert "global_var_supply" in (root / "tests" / "test_make.cc").read_text(), result.stdout
    assert "global_var_supply" in (root / "tests" / "test_make.py").read_text(), result.stdout


REFERENCES_H = """#pragma once
#include <tvm/ir/module.h>

namespace tvm {
struct Table {
  GlobalVar last;
};

const GlobalVar& Define(Table* table, const std::string& name);

class Registry {
 public:
  const GlobalVar& Add(const std::string& name);

 private:
  Table table_;
};
}  // namespace tvm
"""

REFERENCES_CC = """#include "table.h"

namespace tvm {
const GlobalVar& Define(Table* table, const std::string& name) {
  table->last = GlobalVar(name);
  return table->last;
}

const GlobalVar& Registry::Add(const std::string& name) { return Define(&table_, name); }
}  // namespace tvm
"""


@pytest.mark.system("c++")
def test_functions_returning_a_reference_are_threaded_and_pass_a_member(tmp_path: Path) -> None:
    # The parameters, the declaration and the out-of-class method's name are past the `&`.
    root = gv101_project(
        tmp_path / "references", {"include/table.h": REFERENCES_H, "src/table.cc": REFERENCES_CC}
    )
    result = run_fix(root, "--unsafe")
    assert "Threaded a GlobalVarSupply parameter into Define (1 call updated" in result.stdout
    header = (root / "include" / "table.h").read_text()
    source = (root / "src" / "table.cc").read_text()
    assert (
        "const GlobalVar& Define(Table* table, const std::string& name, "
        "GlobalVarSupply global_var_supply);"
    ) in header
    assert "class Registry {\n  GlobalVarSupply global_var_supply_ = " in header
    assert "table->last = global_var_supply->FreshGlobal(name, false);" in source
    assert "return Define(&table_, name, global_var_supply_); }" in source
    done = subprocess.run(
        [
            *("c++", "-std=c++17", "-fsyntax-only", f"-I{STUBS}"),
            *(f"-I{root / 'include'}", str(root / "src" / "table.cc")),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("storage", ["static ", "thread_local ", ""])
def test_a_call_in_a_static_local_s_initializer_stops_the_change(
    tmp_path: Path, storage: str
) -> None:
    # A static local is made at the first call: passing that call's supply would name the
    # global for the modules of every later call, which know nothing of it.
    made = 'GlobalVar MakeMain() {\n  return GlobalVar("main");\n}\n'
    use = f"void Use(IRModule mod, const PrimFunc& f) {{\n  {storage}GlobalVar gv = MakeMain();\n"
    use += "  mod->Add(gv, f);\n}\n"
    root = gv101_project(tmp_path / "static", {"make.cc": made, "use.cc": use})
    result = run_fix(root, "--unsafe")
    if storage:
        assert "a call is in a static local's initializer, run once: use.cc:2" in result.stdout
        assert (root / "use.cc").read_text() == use
        assert (root / "make.cc").read_text() == made
    else:
        assert "  GlobalVar gv = MakeMain(GlobalVarSupply(mod));\n" in (root / "use.cc").read_text()


def test_a_caller_that_cannot_be_read_as_text_stops_the_change(project: Path) -> None:
    # A copy of build.cc that is not UTF-8: its calls of both functions would be left
    # without the new argument.
    (project / "src" / "build2.cc").write_bytes(
        (project / "src" / "build.cc").read_bytes() + b"// caf\xe9\n"
    )
    before = _texts(project)
    result = run_fix(project, "--unsafe")
    assert "build2.cc names ScheduleToModule, and cannot be read as text" in result.stdout
    assert "build2.cc names Lower, and cannot be read as text" in result.stdout
    assert _texts(project) == before
