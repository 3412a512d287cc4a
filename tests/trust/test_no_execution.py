"""No default command and no editor request runs code of the analysed tree: a hostile tree
whose unique-name copies create a marker file when run is checked, fixed every way,
baselined and served, and the marker never appears."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile import HANG_SECONDS, hostile_tree, run_lintgv
from lsprotocol import types
from server_client import Start

COMMANDS = {
    "check": ("check", "--no-cache"),
    "fix": ("fix", "--no-cache"),
    "fix-diff": ("fix", "--no-cache", "--diff"),
    "fix-unsafe": ("fix", "--no-cache", "--unsafe"),
    "fix-unsafe-diff": ("fix", "--no-cache", "--unsafe", "--diff"),
    "baseline": ("baseline", "-o", "baseline.json"),
}


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_no_command_runs_code_of_the_tree(tmp_path: Path, command: tuple[str, ...]) -> None:
    marker = tmp_path / "marker"
    root = hostile_tree(tmp_path / "tree", marker)
    result = run_lintgv(*command, ".", cwd=root)
    assert result.returncode in (0, 1), result.stderr
    # It saw the copy (baseline writes its findings to a file instead).
    assert "GetUniqueName" in result.stdout + result.stderr or command[0] == "baseline"
    assert not marker.exists(), f"`lintgv {' '.join(command)}` ran a copy of the tree"


@pytest.mark.system("c++", "bwrap")
def test_the_copies_do_run_when_asked_in_the_sandbox(tmp_path: Path) -> None:
    """The control: the hostile C++ copy compiles and runs (so the test above means
    something); with --prove-names it runs in the sandbox, where the marker's folder does
    not exist, and its names prove the rewrite safe."""
    marker = tmp_path / "marker"
    root = hostile_tree(tmp_path / "tree", marker)
    result = run_lintgv("fix", "--no-cache", "--prove-names", "--diff", ".", cwd=root)
    assert "Would replace 1 unique-name copy with a supply" in result.stderr, result.stderr
    assert "+  NameSupply name_supply_" in result.stdout
    assert not marker.exists()


async def test_no_editor_request_runs_code_of_the_tree(tmp_path: Path, start: Start) -> None:
    marker = tmp_path / "marker"
    root = hostile_tree(tmp_path / "tree", marker)
    client = await start(root)
    source = root / "src" / "printer.cc"
    uri = client.open(source)
    diagnostics = await client.diagnostics_for(uri, 1)
    assert "GV201" in {d.code for d in diagnostics}
    document = types.TextDocumentIdentifier(uri=uri)
    everything = types.Range(start=types.Position(0, 0), end=types.Position(60, 0))
    quick = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=document,
            range=everything,
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    titles = [a.title for a in quick or [] if isinstance(a, types.CodeAction)]
    assert any("NameSupply" in t for t in titles), titles  # the rewrite was planned
    fix_all = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=document,
            range=everything,
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.lintgv"]),
        )
    )
    for action in fix_all or []:
        if isinstance(action, types.CodeAction):
            await client.code_action_resolve_async(action)
    for options in ({}, {"unsafe": True}):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="lintgv.fixFile", arguments=[uri, options])
        )
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.checkWorkspace", arguments=[])
    )
    assert not marker.exists(), "a request of the editor ran a copy of the tree"


_PROBES = {
    # The language server's workers: new interpreters, started by spawn.
    "server-workers": (
        "from lintgv.config import Config\n"
        "from lintgv.discovery import Candidate\n"
        "from lintgv.model import Language\n"
        "from lintgv.checking import Workers\n"
        "path = pathlib.Path('m0.py').resolve()\n"
        "candidate = Candidate(path, Language.PYTHON, Config(root=path.parent), 'm0')\n"
        "workers = Workers(1)\n"
        "done = list(workers.check([candidate]))\n"
        "workers.close()\n"
        "print(len(done), 'checked')\n"
    ),
    # `lintgv check` where Python's default start method is not fork (macOS; Linux
    # from Python 3.14): the forkserver is a new interpreter too.
    "check-forkserver": (
        "import multiprocessing\n"
        "from lintgv.cli import main\n"
        "multiprocessing.set_start_method('forkserver', force=True)\n"
        "code = main(['check', '--no-cache', '-j', '2', '.'])\n"
        "print(code, 'checked')\n"
    ),
}


@pytest.mark.parametrize("probe", _PROBES.values(), ids=_PROBES.keys())
def test_no_worker_imports_from_the_folder_it_starts_in(tmp_path: Path, probe: str) -> None:
    """A worker started as a new interpreter runs `python -c`, which puts the current
    folder, here the hostile tree, first on its import path: the tree's `multiprocessing`
    would run before any of lintgv. The caller is a script outside the tree, started
    without -P, as the `lintgv` command and an editor's `lintgv server` are."""
    marker = tmp_path / "marker"
    tree = tmp_path / "tree"
    (tree / "multiprocessing").mkdir(parents=True)
    (tree / "multiprocessing" / "__init__.py").write_text(
        f"open({str(marker)!r}, 'a').write('ran')\n"
    )
    for index in range(45):  # enough files for `check` to start its workers
        (tree / f"m{index}.py").write_text(f"x{index} = {index}\n")
    script = tmp_path / "probe" / "probe.py"
    script.parent.mkdir()
    # Under a main guard: a spawned worker imports the main module again.
    body = "".join(f"    {line}\n" for line in probe.splitlines())
    script.write_text(f"import pathlib\nif __name__ == '__main__':\n{body}")
    # Not inherited from this process, which may have started workers of its own.
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tree,
        env=environment,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
        check=False,
    )
    assert not marker.exists(), "a worker imported the tree's multiprocessing"
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "checked", done.stdout
