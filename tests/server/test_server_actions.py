"""Code actions, hover, lintgv.fixFile and lintgv.fixWorkspaceFiles: the fixes `lintgv fix`
makes, offered in the editor, and the rule's explanation on hover."""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from lintgv_server.commands import PlannedFix
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from server_client import (
    PYTHON_SITE,
    UNPRIVILEGED_SERVER,
    Client,
    Start,
    apply_text_edits,
    cpp_file,
    edits_of,
    python_file,
    write_project,
)

from lintgv.model import Applicability, Language
from lintgv.registry import rule_codes
from lintgv.rules._base import Invalid

# A Python unique-name copy lintgv rewrites (GV201): a method keeping a dict from __init__.
_NAMER = (
    "class Namer:\n    def __init__(self):\n        self.name_count = {}\n\n"
    "    def get_unique_name(self, name):\n        if name in self.name_count:\n"
    "            self.name_count[name] += 1\n"
    "            return name + str(self.name_count[name])\n"
    "        self.name_count[name] = 0\n        return name\n\n"
    "    def run(self, n):\n        return self.get_unique_name(n)\n"
)


def _fixable_examples() -> list[tuple[str, Language, Invalid]]:
    return [
        (code, rule.LANGUAGE, example)
        for code, rules in rule_codes().items()
        for rule in rules
        for example in rule.INVALID
        if example.fixed is not None
        and not example.path
        and rule.LANGUAGE is not None
        # A display-only fix is a suggestion in the message, never an edit to apply.
        and rule.META.fix != Applicability.DISPLAY
    ]


async def _actions(
    client: Client, uri: str, where: types.Range, diagnostics: list[types.Diagnostic]
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=where,
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


async def _copy_changes(client: Client, uri: str) -> list[types.CodeAction]:
    """Return the multi-file changes offered on the document's first GV201 finding."""
    diagnostics = [d for d in await client.diagnostics_for(uri, 1) if d.code == "GV201"]
    actions = await _actions(client, uri, diagnostics[0].range, diagnostics)
    return [a for a in actions if a.title.endswith("files)")]


def _applied(edit: types.WorkspaceEdit) -> dict[str, str]:
    """Return each file a multi-file edit touches (by name) as the edit leaves it."""
    touched = {}
    for document_change in edit.document_changes or []:
        assert isinstance(document_change, types.TextDocumentEdit)
        file_uri = document_change.text_document.uri
        path = Path(file_uri.removeprefix("file://"))
        touched[path.name] = apply_text_edits(path.read_text(), edits_of(edit, file_uri))
    return touched


def _example_project(root: Path, code: str, language: Language, example: Invalid) -> Path:
    """Write `example` as the only file of a project configured as its rule's tests are."""
    root.mkdir()
    settings = {**example.config, "select": [code], "extend-select": ["GV9"]}
    (root / "lintgv.toml").write_text(
        "".join(f"{k} = {json.dumps(v)}\n" for k, v in settings.items())
    )
    path = root / ("example.py" if language == Language.PYTHON else "example.cc")
    path.write_text(example.code)
    return path


async def test_quick_fixes_applied_one_by_one_give_each_rule_examples_fixed_text(
    tmp_path: Path, start: Start
) -> None:
    examples = _fixable_examples()
    paths = [_example_project(tmp_path / f"e{i}", *e) for i, e in enumerate(examples)]
    client = await start(tmp_path, folders=[p.parent for p in paths])
    for path, (code, _, example) in zip(paths, examples, strict=True):
        uri = client.open(path)
        text, version = example.code, 1
        while True:
            found = [d for d in await client.diagnostics_for(uri, version) if d.code == code]
            actions = await _actions(client, uri, found[0].range, found) if found else []
            fixes = [a for a in actions if a.kind == "quickfix" and a.title.endswith(f"({code})")]
            if not fixes:
                break
            assert fixes[0].edit is not None
            text = apply_text_edits(text, edits_of(fixes[0].edit, uri))
            version += 1
            client.replace_all(uri, version, text)
        assert text == example.fixed, f"{code} {path}"
        assert version > 1


async def test_ignore_on_this_line_inserts_a_comment_that_silences_the_finding(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    for path in (python_file(root), cpp_file(root)):
        uri = client.open(path)
        diagnostics = await client.diagnostics_for(uri, 1)
        actions = await _actions(client, uri, diagnostics[0].range, diagnostics)
        (ignore,) = [a for a in actions if a.title == "Ignore GV101 on this line"]
        assert ignore.edit is not None
        text = apply_text_edits(path.read_text(), edits_of(ignore.edit, uri))
        marker = "# lintgv: ignore[GV101]" if path.suffix == ".py" else "// lintgv: ignore[GV101]"
        assert marker in text.split("\n")[diagnostics[0].range.start.line]
        client.replace_all(uri, 2, text)
        assert await client.diagnostics_for(uri, 2) == []


async def test_a_second_code_joins_an_existing_ignore_comment(tmp_path: Path, start: Start) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    text = "import tvm\ngv = tvm.ir.GlobalVar('f')  # lintgv: ignore[GV201]\n"
    uri = client.open(python_file(root), text)
    diagnostics = [d for d in await client.diagnostics_for(uri, 1) if d.code == "GV101"]
    actions = await _actions(client, uri, diagnostics[0].range, diagnostics)
    (ignore,) = [a for a in actions if a.title == "Ignore GV101 on this line"]
    assert ignore.edit is not None
    fixed = apply_text_edits(text, edits_of(ignore.edit, uri))
    assert fixed.split("\n")[1].endswith("# lintgv: ignore[GV201, GV101]")


async def test_quick_fixes_of_a_crlf_document_insert_crlf_lines(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    text = cpp_file(root).read_text().replace("\n", "\r\n")
    uri = client.open(cpp_file(root), text)
    diagnostics = await client.diagnostics_for(uri, 1)
    actions = await _actions(client, uri, diagnostics[0].range, diagnostics)
    fix = next(a for a in actions if "FreshGlobal" in a.title or "Global" in a.title)
    assert fix.edit is not None
    fixed = apply_text_edits(text, edits_of(fix.edit, uri))
    assert "FreshGlobal" in fixed
    assert fixed.count("\n") == fixed.count("\r\n")


async def test_fix_all_offers_only_safe_fixes_and_resolves_its_edit(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    uri = client.open(python_file(root))
    await client.diagnostics_for(uri, 1)
    everything = types.Range(start=types.Position(0, 0), end=types.Position(10, 0))
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=everything,
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.lintgv"]),
        )
    )
    (action,) = [a for a in result or [] if isinstance(a, types.CodeAction)]
    assert action.kind == "source.fixAll.lintgv"
    resolved = await client.code_action_resolve_async(action)
    # GV101's fix is unsafe (it may change generated names): fix-all leaves it alone.
    assert resolved.edit is not None
    assert edits_of(resolved.edit, uri) == []


async def test_fix_file_applies_the_unsafe_fixes_when_asked(tmp_path: Path, start: Start) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    path = cpp_file(root)
    uri = client.open(path)
    await client.diagnostics_for(uri, 1)
    safe = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.fixFile", arguments=[uri])
    )
    assert safe == {"applied": False, "fixes": 0}
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.fixFile", arguments=[uri, {"unsafe": True}])
    )
    assert answer == {"applied": True, "fixes": 1}
    (edit,) = client.applied
    fixed = apply_text_edits(path.read_text(), edits_of(edit, uri))
    assert "GlobalVar gv = global_var_supply->FreshGlobal(name, false);" in fixed
    assert "#include <tvm/ir/global_var_supply.h>" in fixed


async def test_hover_on_a_finding_explains_the_rule(tmp_path: Path, start: Start) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    uri = client.open(python_file(root))
    (diagnostic,) = await client.diagnostics_for(uri, 1)
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=diagnostic.range.start,
        )
    )
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.kind == types.MarkupKind.Markdown
    value = hover.contents.value
    assert "GV101" in value
    assert "Why it matters" in value
    assert value.count(diagnostic.message) == 1  # the message once, not again from the page
    assert value.index("## Python") < value.index("## C++")  # the document's language first
    assert hover.range == diagnostic.range
    nothing = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 0)
        )
    )
    assert nothing is None


async def test_a_unique_name_copy_is_replaced_in_every_file_by_one_code_action(
    tmp_path: Path, start: Start
) -> None:
    fixtures = Path(__file__).parent.parent / "fixtures"
    root = tmp_path / "project"
    shutil.copytree(fixtures / "fix_unique_names", root)
    source = root / "src" / "codegen_base.cc"
    client = await start(root)
    uri = client.open(source)
    (change,) = await _copy_changes(client, uri)
    assert change.edit is not None and change.edit.document_changes
    touched = _applied(change.edit)
    expected = fixtures / "fix_unique_names_fixed" / "src"
    assert touched == {name: (expected / name).read_text() for name in touched}
    assert len(touched) > 1


async def test_fix_workspace_is_one_edit_of_open_and_closed_files(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    python, cpp = python_file(root), cpp_file(root)
    # Open with unsaved text: the edit is made against that version, not the disk.
    unsaved = PYTHON_SITE + "unused = 1  # lintgv: ignore[GV101]\n"
    python_uri = client.open(python, unsaved, version=3)
    await client.diagnostics_for(python_uri, 3)

    safe = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.fixWorkspaceFiles", arguments=[])
    )
    assert safe == {"applied": True, "fixes": 1, "files": [python_uri], "cancelled": False}
    (edit,) = client.applied
    assert edit.document_changes is not None
    (change,) = edit.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.version == 3
    fixed = apply_text_edits(unsaved, edits_of(edit, python_uri))
    assert fixed == PYTHON_SITE + "unused = 1\n"

    unsafe = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.fixWorkspaceFiles", arguments=[{"unsafe": True}])
    )
    assert unsafe["applied"] is True
    assert sorted(unsafe["files"]) == sorted([python_uri, cpp.as_uri()])
    edit = client.applied[-1]
    versions = {
        c.text_document.uri: c.text_document.version
        for c in edit.document_changes or []
        if isinstance(c, types.TextDocumentEdit)
    }
    assert versions == {python_uri: 3, cpp.as_uri(): None}  # one edit, both files
    assert "tvm.ir.GlobalVar(name)" not in apply_text_edits(unsaved, edits_of(edit, python_uri))
    fixed_cpp = apply_text_edits(cpp.read_text(), edits_of(edit, cpp.as_uri()))
    assert "GlobalVar gv = global_var_supply->FreshGlobal(name, false);" in fixed_cpp


async def test_fix_workspace_rejects_options_it_does_not_know(tmp_path: Path, start: Start) -> None:
    client = await start(write_project(tmp_path))
    with pytest.raises(JsonRpcInvalidParams, match="unsafe must be true or false"):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command="lintgv.fixWorkspaceFiles", arguments=[{"unsafe": 1}]
            )
        )
    assert client.applied == []


async def test_server_commands_do_not_collide_with_the_vscode_extension_s(
    tmp_path: Path, start: Start
) -> None:
    # vscode-languageclient registers each server command as a VS Code command: one with
    # the name of a command the extension contributes stops the client from starting.
    client = await start(write_project(tmp_path))
    assert client.initialized_with is not None
    provider = client.initialized_with.capabilities.execute_command_provider
    assert provider is not None
    served = set(provider.commands)
    assert {"lintgv.fixFile", "lintgv.checkWorkspace", "lintgv.fixWorkspaceFiles"} <= served
    manifest = Path(__file__).parents[2] / "vscode-extension" / "package.json"
    contributed = {
        c["command"] for c in json.loads(manifest.read_text())["contributes"]["commands"]
    }
    assert "lintgv.fixWorkspace" in contributed
    assert served.isdisjoint(contributed)


def test_a_fix_planned_on_a_closed_file_is_dropped_once_the_file_changes(tmp_path: Path) -> None:
    # An edit of a file that is not open carries no version the client could check: the
    # server makes sure the file still holds the text the edit was planned on.
    path = tmp_path / "a.py"
    path.write_text("x = 1\n")
    closed = PlannedFix(path.as_uri(), None, "x = 1\n", [], 1)
    opened = PlannedFix(path.as_uri(), 3, "x = 1\n", [], 1)
    assert closed.still_current()
    path.write_text("x = 2\n")
    assert not closed.still_current()
    assert opened.still_current()  # the client checks the version itself
    path.unlink()
    assert not closed.still_current()


async def test_a_supply_is_threaded_by_one_code_action_as_lintgv_fix_threads_it(
    tmp_path: Path, start: Start
) -> None:
    passes = (
        "import tvm\n\n\ndef make_global(name):\n    return tvm.ir.GlobalVar(name)\n\n\n"
        "def lower(mod):\n    return make_global('main')\n"
    )
    driver = (
        "from pkg.passes import make_global\n\n\ndef build(mod):\n    return make_global('f')\n"
    )
    roots = []
    for name in ("editor", "cli"):
        package = tmp_path / name / "python" / "pkg"
        package.mkdir(parents=True)
        (tmp_path / name / "lintgv.toml").write_text('tvm-version = "0.16"\n')
        (package / "__init__.py").write_text("")
        (package / "passes.py").write_text(passes)
        (package / "driver.py").write_text(driver)
        roots.append(tmp_path / name)
    editor, cli = roots
    subprocess.run(
        [sys.executable, "-m", "lintgv", "fix", "--unsafe", "--no-cache", "."],
        cwd=cli,
        capture_output=True,
        check=False,
        timeout=300,
    )

    client = await start(editor)
    source = editor / "python" / "pkg" / "passes.py"
    uri = client.open(source)
    diagnostics = [d for d in await client.diagnostics_for(uri, 1) if d.code == "GV101"]
    actions = await _actions(client, uri, diagnostics[0].range, diagnostics)
    (change,) = [a for a in actions if a.title.startswith("Pass a GlobalVarSupply into")]
    assert change.title.endswith("(2 files)")
    assert change.edit is not None and change.edit.document_changes
    touched = _applied(change.edit)
    package = cli / "python" / "pkg"
    assert touched == {name: (package / name).read_text() for name in ("passes.py", "driver.py")}
    assert "global_var_supply=GlobalVarSupply(mod)" in touched["driver.py"]


async def test_a_cpp_supply_is_threaded_into_header_source_and_callers_by_one_action(
    tmp_path: Path, start: Start
) -> None:
    root = tmp_path / "thread_project"
    shutil.copytree(Path(__file__).parent.parent / "fixtures" / "thread_project", root)
    client = await start(root)
    uri = client.open(root / "src" / "driver_api.cc")
    diagnostics = [d for d in await client.diagnostics_for(uri, 1) if d.code == "GV101"]
    (first,) = [d for d in diagnostics if d.range.start.line == 4]
    actions = await _actions(client, uri, first.range, [first])
    (change,) = [a for a in actions if a.title.startswith("Pass a GlobalVarSupply into")]
    assert "ScheduleToModule" in change.title
    assert change.edit is not None and change.edit.document_changes
    touched = _applied(change.edit)
    assert set(touched) == {"driver_api.h", "driver_api.cc", "build.cc"}
    assert "GlobalVarSupply global_var_supply, bool simple = false);" in touched["driver_api.h"]
    assert "global_var_supply->FreshGlobal(name, false)" in touched["driver_api.cc"]


async def test_a_python_unique_name_copy_is_replaced_by_one_code_action(
    tmp_path: Path, start: Start
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    source = root / "namer.py"
    source.write_text(_NAMER)
    client = await start(root)
    uri = client.open(source)
    (change,) = await _copy_changes(client, uri)
    assert change.edit is not None
    after = _applied(change.edit)["namer.py"]
    assert 'self.name_supply = NameSupply("")' in after
    assert "return self.name_supply.fresh_name(n)" in after
    assert "def get_unique_name" not in after


def _gv201_saying(client: Client, uri: str, text: str) -> list[types.Diagnostic] | None:
    """Return the newest GV201 diagnostics of `uri` when their message holds `text`."""
    pushed = [p.diagnostics for p in client.published if p.uri == uri]
    found = [d for d in pushed[-1] if d.code == "GV201"] if pushed else []
    return found if found and text in found[0].message else None


def _cli_fixed(root: Path, tvm_version: str) -> dict[str, str]:
    """Return the files `lintgv fix --unsafe` changes in a copy of `root` on `tvm_version`."""
    command = ["fix", "--unsafe", "--no-cache", "--tvm-version", tvm_version, "."]
    subprocess.run(
        [sys.executable, "-m", "lintgv", *command],
        cwd=root,
        capture_output=True,
        check=False,
        timeout=300,
    )
    return {p.name: p.read_text() for p in (root / "src").iterdir()}


@pytest.mark.parametrize("version", ["0.8", "0.25"])
@pytest.mark.parametrize("how", ["initialization", "folder"])
async def test_multi_file_changes_follow_the_editor_s_tvm_version_setting(
    tmp_path: Path, start: Start, how: str, version: str
) -> None:
    fixtures = Path(__file__).parent.parent / "fixtures"
    root = tmp_path / "project"
    shutil.copytree(fixtures / "fix_unique_names", root)
    settings = {"tvmVersion": version}
    client = await (
        start(root, options=settings)
        if how == "initialization"
        else start(root, configuration={root.as_uri(): settings})
    )
    uri = client.open(root / "src" / "codegen_base.cc")
    # A folder's settings may arrive after the first diagnostics: wait for the
    # diagnostic of the release set (before 0.10 there is no NameSupply to offer).
    said = "no automatic fix" if version == "0.8" else "UniqueNameSupply"
    diagnostics = await client.until(lambda: _gv201_saying(client, uri, said))
    actions = await _actions(client, uri, diagnostics[0].range, diagnostics)
    changes = [a for a in actions if a.title.endswith("files)")]
    if version == "0.8":
        assert changes == []
        return
    (change,) = changes
    assert change.edit is not None
    touched = _applied(change.edit)
    cli = tmp_path / "cli"
    shutil.copytree(fixtures / "fix_unique_names", cli)
    fixed = _cli_fixed(cli, version)
    assert touched == {name: fixed[name] for name in touched}
    assert any("UniqueNameSupply" in text for text in touched.values())


async def test_a_python_copy_gets_no_multi_file_change_on_a_release_without_supplies(
    tmp_path: Path, start: Start
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    source = root / "namer.py"
    source.write_text(_NAMER)
    client = await start(root, options={"tvmVersion": "0.8"})
    uri = client.open(source)
    assert [a.title for a in await _copy_changes(client, uri)] == []
    assert source.read_text().count("get_unique_name") == 2


async def test_no_multi_file_change_is_offered_when_part_of_the_folder_cannot_be_read(
    tmp_path: Path, start: Start
) -> None:
    root = tmp_path / "project"
    package = root / "python" / "pkg"
    (package / "sub").mkdir(parents=True)
    (root / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    for init in (package / "__init__.py", package / "sub" / "__init__.py"):
        init.write_text("")
    source = package / "passes.py"
    source.write_text("import tvm\n\n\ndef make_global(name):\n    return tvm.ir.GlobalVar(name)\n")
    # One caller is in a readable folder, one in a folder whose config is broken: a
    # threaded parameter would update the first and leave the second behind.
    (package / "driver.py").write_text(
        "from pkg.passes import make_global\n\n\ndef build(mod):\n    return make_global('g')\n"
    )
    (package / "sub" / "lintgv.toml").write_text("tvm-version = [\n")
    (package / "sub" / "driver.py").write_text(
        "from pkg.passes import make_global\n\n\ndef build(mod):\n    return make_global('f')\n"
    )
    client = await start(root)
    uri = client.open(source)
    diagnostics = [d for d in await client.diagnostics_for(uri, 1) if d.code == "GV101"]
    actions = await _actions(client, uri, diagnostics[0].range, diagnostics)
    assert [a.title for a in actions if a.title.startswith("Pass a GlobalVarSupply")] == []
    logged = await client.log_containing("multi-file changes not offered")
    assert logged.message.endswith("python/pkg/sub could not be read")


async def test_no_multi_file_change_is_offered_when_a_file_of_the_folder_cannot_be_read(
    start: Start,
) -> None:
    with tempfile.TemporaryDirectory(prefix="lintgv-unreadable-") as shared:
        root = Path(shared) / "project"
        shutil.copytree(Path(__file__).parent.parent / "fixtures" / "fix_unique_names", root)
        (root / "lintgv.toml").write_text('tvm-version = "0.16"\n')
        locked = root / "src" / "codegen_x.cc"
        locked.write_text('#include "codegen_c.h"\nvoid CodeGenX::Emit() { GetUniqueName("x"); }\n')
        # Every user may enter the folders and read the files, but no one `locked`.
        for path in [Path(shared), *Path(shared).rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        locked.chmod(0o000)
        client = await start(root, command=UNPRIVILEGED_SERVER)
        uri = client.open(root / "src" / "codegen_base.cc")
        assert [a.title for a in await _copy_changes(client, uri)] == []
        logged = await client.log_containing("multi-file changes not offered")
        assert logged.message.endswith("src/codegen_x.cc could not be read")


def _copy_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(Path(__file__).parent.parent / "fixtures" / "fix_unique_names", root)
    (root / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    return root


def _touched(change: types.CodeAction, root: Path) -> list[str]:
    assert change.edit is not None
    return sorted(
        str(Path(c.text_document.uri.removeprefix("file://")).relative_to(root))
        for c in change.edit.document_changes or []
        if isinstance(c, types.TextDocumentEdit)
    )


async def test_a_change_reaches_the_calls_in_a_nested_folder_that_disables_lintgv(
    tmp_path: Path, start: Start
) -> None:
    root = _copy_project(tmp_path)
    inner = root / "src" / "backend"
    inner.mkdir()
    caller = inner / "codegen_x.cc"
    caller.write_text('#include "../codegen_c.h"\nvoid CodeGenC::Emit() { GetUniqueName("x"); }\n')
    disabled = {inner.as_uri(): {"enable": False}}
    client = await start(root, folders=[root, inner], configuration=disabled)
    # The nested folder's settings are in force once its file's findings are gone.
    inner_uri = client.open(caller)
    await client.until(lambda: _latest(client, inner_uri) == [])
    uri = client.open(root / "src" / "codegen_base.cc")
    (change,) = await _copy_changes(client, uri)
    assert "src/backend/codegen_x.cc" in _touched(change, root)


async def test_a_change_from_a_nested_folder_reaches_the_calls_in_the_outer_one(
    tmp_path: Path, start: Start
) -> None:
    root = _copy_project(tmp_path)
    client = await start(root, folders=[root, root / "src"])
    uri = client.open(root / "src" / "codegen_base.cc")
    diagnostics = [d for d in await client.diagnostics_for(uri, 1) if d.code == "GV201"]
    outer = root / "caller.cc"
    outer.write_text('#include "src/codegen_c.h"\nvoid CodeGenC::Emit() { GetUniqueName("y"); }\n')
    actions = await _actions(client, uri, diagnostics[0].range, diagnostics)
    (change,) = [a for a in actions if a.title.endswith("files)")]
    assert "caller.cc" in _touched(change, root)


async def test_a_change_is_planned_over_its_project_not_a_folder_that_holds_it(
    tmp_path: Path, start: Start
) -> None:
    # A home folder opened beside a project in it: a folder there whose config is broken
    # hides nothing the project calls, and its files are not walked for the change.
    home = tmp_path / "home"
    home.mkdir()
    root = _copy_project(home)
    unrelated = home / "notes"
    unrelated.mkdir()
    (unrelated / "lintgv.toml").write_text("tvm-version = [\n")
    (unrelated / "old.cc").write_text('void Old() { GetUniqueName("o"); }\n')
    client = await start(root, folders=[home, root])
    uri = client.open(root / "src" / "codegen_base.cc")
    (change,) = await _copy_changes(client, uri)
    assert "notes/old.cc" not in _touched(change, home)


async def test_a_config_file_in_the_home_folder_marks_no_project(
    tmp_path: Path, start: Start
) -> None:
    # Defaults kept in ~/lintgv.toml: the project is the repository, not the home folder,
    # and a call of the same name in another repository there is not the project's.
    home = tmp_path / "home"
    home.mkdir()
    (home / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    root = home / "project"
    shutil.copytree(Path(__file__).parent.parent / "fixtures" / "fix_unique_names", root)
    (root / ".git").mkdir()
    other = home / "other"
    other.mkdir()
    (other / "other.cc").write_text('void CodeGenC::Other() { GetUniqueName("o"); }\n')
    command = ["env", f"HOME={home}", sys.executable, "-m", "lintgv", "server"]
    client = await start(root, folders=[home, root], command=command)
    uri = client.open(root / "src" / "codegen_base.cc")
    (change,) = await _copy_changes(client, uri)
    touched = _touched(change, home)
    assert touched and all(name.startswith("project/") for name in touched), touched


async def test_no_copy_change_is_offered_when_an_excluded_file_names_the_copy(
    tmp_path: Path, start: Start
) -> None:
    root = _copy_project(tmp_path)
    (root / "lintgv.toml").write_text('tvm-version = "0.16"\nextend-exclude = ["src/gen"]\n')
    (root / "src" / "gen").mkdir()
    (root / "src" / "gen" / "codegen_y.h").write_text(
        '#include "../codegen_c.h"\nvoid CodeGenC::Emit() { GetUniqueName("y"); }\n'
    )
    client = await start(root)
    uri = client.open(root / "src" / "codegen_base.cc")
    assert [a.title for a in await _copy_changes(client, uri)] == []


@pytest.mark.parametrize("link", ["loop", "dangling"])
async def test_a_link_the_walk_reports_does_not_stop_multi_file_changes(
    tmp_path: Path, start: Start, link: str
) -> None:
    root = _copy_project(tmp_path)
    if link == "loop":
        (root / "src" / "up").symlink_to("..")
    else:
        (root / "src" / "gone.cc").symlink_to("missing.cc")
    client = await start(root)
    uri = client.open(root / "src" / "codegen_base.cc")
    assert [a.title for a in await _copy_changes(client, uri) if a.title.endswith("(3 files)")]


def _latest(client: Client, uri: str) -> list[types.Diagnostic] | None:
    pushed = [p.diagnostics for p in client.published if p.uri == uri]
    return list(pushed[-1]) if pushed else None
