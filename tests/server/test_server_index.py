"""The helper index: built in the background when a session starts, so that calls and
declarations of a unique-name helper defined in another file are reported in an open
document without a workspace check; kept current on save and on watched-file changes."""

from pathlib import Path

import pytest
from lsprotocol import types
from server_client import Client, Start

pytestmark = pytest.mark.filterwarnings("ignore:Unknown progress token")

HELPER = """#include <string>
#include <unordered_map>

namespace tvm {

std::unordered_map<std::string, int> used_names;

std::string NameFor(std::string name) {
  if (used_names.find(name) == used_names.end()) {
    used_names[name] = 1;
    return name;
  }
  used_names[name] = used_names[name] + 1;
  return name + std::to_string(used_names[name]);
}

}  // namespace tvm
"""
NOT_A_HELPER = """#include <string>

namespace tvm {

std::string NameFor(std::string name) { return name + "_v"; }

}  // namespace tvm
"""
CALLER = """#include <string>

namespace tvm {

std::string NameFor(std::string name);

std::string Lower(std::string prefix) {
  return NameFor(prefix + "_lowered");
}

}  // namespace tvm
"""


def _project(root: Path) -> tuple[Path, Path]:
    (root / "src").mkdir()
    (root / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    helper, caller = root / "src" / "names.cc", root / "src" / "lower.cc"
    helper.write_text(HELPER)
    caller.write_text(CALLER)
    return helper, caller


async def _codes(client: Client, uri: str, wanted: list[str]) -> list[str]:
    """Wait until the latest diagnostics of `uri` have exactly the codes `wanted`."""

    def latest() -> tuple[list[str]] | None:  # a tuple: true even when no code is wanted
        for params in reversed(client.published):
            if params.uri == uri:
                codes = sorted(str(d.code) for d in params.diagnostics)
                return (codes,) if codes == wanted else None
        return None

    (codes,) = await client.until(latest)
    return codes


def _indexing(client: Client) -> list[types.WorkDoneProgressEnd]:
    """The end reports of the index's progress."""
    ends = []
    for values in client.progress_reports.values():
        first = values[0] if values else None
        if isinstance(first, types.WorkDoneProgressBegin) and "indexing" in first.title:
            ends += [v for v in values if isinstance(v, types.WorkDoneProgressEnd)]
    return ends


async def test_a_helper_in_a_closed_file_is_known_without_a_workspace_check(
    tmp_path: Path, start: Start
) -> None:
    _, caller = _project(tmp_path)
    client = await start(tmp_path)
    uri = client.open(caller)
    # Only the index can tell that NameFor, defined in a file never opened, is a helper.
    assert await _codes(client, uri, ["GV202", "GV203"])
    (end,) = await client.until(lambda: _indexing(client))
    assert end.message == "1 unique-name helper"
    # The server asked to be told about source files, not only config files.
    (registration,) = await client.until(lambda: client.registrations)
    options = registration.register_options
    assert isinstance(options, dict)
    globs = {w["globPattern"] for w in options["watchers"]}
    assert {"**/lintgv.toml", "**/*.py", "**/*.cc", "**/*.h"} <= globs


async def test_the_index_finds_helpers_with_whichever_rule_the_config_runs(
    tmp_path: Path, start: Start
) -> None:
    # The index checks each file with the first rule that finds helpers: GV203 when
    # GV201 is ignored, since GV203 finds the same helpers.
    _, caller = _project(tmp_path)
    (tmp_path / "lintgv.toml").write_text('tvm-version = "0.16"\nignore = ["GV201"]\n')
    client = await start(tmp_path)
    uri = client.open(caller)
    (end,) = await client.until(lambda: _indexing(client))
    assert end.message == "1 unique-name helper"
    assert await _codes(client, uri, ["GV202", "GV203"])


async def test_without_a_rule_that_finds_helpers_nothing_is_indexed(
    tmp_path: Path, start: Start
) -> None:
    _, caller = _project(tmp_path)
    (tmp_path / "lintgv.toml").write_text('tvm-version = "0.16"\nignore = ["GV201", "GV203"]\n')
    client = await start(tmp_path)
    uri = client.open(caller)
    (end,) = await client.until(lambda: _indexing(client))
    assert end.message == "0 unique-name helpers"
    assert await _codes(client, uri, []) == []


async def test_watched_file_changes_update_the_index(tmp_path: Path, start: Start) -> None:
    helper, caller = _project(tmp_path)
    client = await start(tmp_path)
    uri = client.open(caller)
    assert await _codes(client, uri, ["GV202", "GV203"])

    helper.write_text(NOT_A_HELPER)
    changed = types.FileEvent(uri=helper.as_uri(), type=types.FileChangeType.Changed)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([changed]))
    assert await _codes(client, uri, []) == []

    helper.unlink()
    moved = tmp_path / "src" / "naming.cc"
    moved.write_text(HELPER)
    events = [
        types.FileEvent(uri=helper.as_uri(), type=types.FileChangeType.Deleted),
        types.FileEvent(uri=moved.as_uri(), type=types.FileChangeType.Created),
    ]
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(events))
    assert await _codes(client, uri, ["GV202", "GV203"])

    moved.unlink()
    gone = types.FileEvent(uri=moved.as_uri(), type=types.FileChangeType.Deleted)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams([gone]))
    assert await _codes(client, uri, []) == []


async def test_saving_a_file_updates_the_index(tmp_path: Path, start: Start) -> None:
    helper, caller = _project(tmp_path)
    helper.write_text(NOT_A_HELPER)
    client = await start(tmp_path)
    uri = client.open(caller)
    await client.until(lambda: _indexing(client))
    assert await _codes(client, uri, []) == []
    helper_uri = client.open(helper)
    client.replace_all(helper_uri, 2, HELPER)
    helper.write_text(HELPER)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(helper_uri))
    )
    assert await _codes(client, uri, ["GV202", "GV203"])


async def test_without_the_index_a_workspace_check_brings_the_helpers_in(
    tmp_path: Path, start: Start
) -> None:
    _, caller = _project(tmp_path)
    client = await start(tmp_path, options={"indexWorkspace": False})
    uri = client.open(caller)
    assert await _codes(client, uri, []) == []
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.checkWorkspace")
    )
    # The open document is checked again with the helpers the check found.
    assert await _codes(client, uri, ["GV202", "GV203"])
    assert _indexing(client) == []


async def test_a_large_workspace_is_indexed_all_the_same(tmp_path: Path, start: Start) -> None:
    # Past scan.WORKERS_FROM unchecked closed files, the first pass runs in worker
    # processes (on a machine with more than one core); the index must not differ.
    _, caller = _project(tmp_path)
    for index in range(260):
        (tmp_path / "src" / f"f{index}.cc").write_text(
            f'GlobalVar F{index}(IRModule mod) {{ return GlobalVar("f{index}"); }}\n'
        )
    client = await start(tmp_path)
    uri = client.open(caller)
    (end,) = await client.until(lambda: _indexing(client))
    assert end.message == "1 unique-name helper"
    assert await _codes(client, uri, ["GV202", "GV203"])
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.checkWorkspace")
    )
    assert answer == {"files": 262, "findings": 263, "cancelled": 0}


async def test_a_workspace_check_finds_calls_of_a_method_helper_in_closed_files(
    tmp_path: Path, start: Start
) -> None:
    # The helper is known as `Extractor::NameFor`; its call says only `e->NameFor(...)`.
    (tmp_path / "src").mkdir()
    (tmp_path / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    (tmp_path / "src" / "names.cc").write_text(
        "#include <string>\n#include <unordered_map>\n\n"
        "class Extractor {\n public:\n  std::string NameFor(std::string name);\n"
        "  std::unordered_map<std::string, int> names_;\n};\n\n"
        "std::string Extractor::NameFor(std::string name) {\n"
        "  if (names_.find(name) == names_.end()) {\n    names_[name] = 1;\n    return name;\n"
        "  }\n  names_[name] = names_[name] + 1;\n"
        "  return name + std::to_string(names_[name]);\n}\n"
    )
    (tmp_path / "src" / "lower.cc").write_text(
        "#include <string>\n\nclass Extractor;\n\n"
        "std::string Lower(Extractor* e, std::string prefix) {\n"
        '  return e->NameFor(prefix + "_lowered");\n}\n'
    )
    client = await start(tmp_path, options={"indexWorkspace": False})
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.checkWorkspace")
    )
    # As `lintgv check` reports: GV201 at the copy, GV202 at its declaration, GV203 at the call.
    assert answer == {"files": 2, "findings": 3, "cancelled": 0}
    lower = (tmp_path / "src" / "lower.cc").as_uri()
    assert await _codes(client, lower, ["GV203"])


WRAPPER_HEADER = """#include <string>

class RelayTextPrinter {
 public:
  Doc GetUniqueName(const std::string& prefix);
  NameSupply name_supply_;
};
"""
WRAPPER = """#include "printer.h"

Doc RelayTextPrinter::GetUniqueName(const std::string& prefix) {
  return Doc::Text(name_supply_->FreshName(prefix));
}
"""


# With GV201 ignored, GV203 finds the helpers but only GV202 notes thin wrappers: an index
# that ran GV203 alone reported the declaration of a wrapper that `check` does not.
@pytest.mark.parametrize("config", ["", 'ignore = ["GV201"]\n'])
async def test_a_header_declaring_a_wrapper_defined_in_a_closed_file_is_cleared_by_the_index(
    tmp_path: Path, start: Start, config: str
) -> None:
    (tmp_path / "lintgv.toml").write_text('tvm-version = "0.16"\n' + config)
    header = tmp_path / "printer.h"
    header.write_text(WRAPPER_HEADER)
    (tmp_path / "printer.cc").write_text(WRAPPER)
    client = await start(tmp_path)
    uri = client.open(header)
    # Known by its name until the index finds its definition a thin wrapper: the latest
    # diagnostics, once indexed, hold none.
    (end,) = await client.until(lambda: _indexing(client))
    assert end.message == "0 unique-name helpers"
    assert await _codes(client, uri, []) == []
