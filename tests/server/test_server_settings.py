"""Configuration: the nearest config file per document, reloaded when it changes; client
settings from initializationOptions, didChangeConfiguration and workspace/configuration;
each root of a multi-root workspace with its own."""

from collections.abc import Callable
from pathlib import Path

from lsprotocol import types
from server_client import Client, Start, cpp_file, python_file, write_project


async def _codes(client: Client, uri: str, version: int | None = None) -> list[str]:
    return [str(d.code) for d in await client.diagnostics_for(uri, version)]


def _changed_settings(client: Client, settings: object) -> int:
    count = len(client.published)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"lintgv": settings})
    )
    return count


Check = Callable[[list[types.Diagnostic]], bool]


async def _until(client: Client, uri: str, after: int, check: Check) -> list[types.Diagnostic]:
    """Wait until the newest push for `uri`, after the `after`th push, passes `check`."""

    def ready() -> list[types.Diagnostic] | None:
        pushed = [list(p.diagnostics) for p in client.published[after:] if p.uri == uri]
        return pushed[-1] if pushed and check(pushed[-1]) else None

    await client.until(lambda: ready() is not None)
    return ready() or []


def _severities(*wanted: types.DiagnosticSeverity) -> Check:
    return lambda found: [d.severity for d in found] == list(wanted)


def _empty(found: list[types.Diagnostic]) -> bool:
    return not found


async def test_a_changed_config_file_is_read_again(tmp_path: Path, start: Start) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    uri = client.open(cpp_file(root))
    assert await _codes(client, uri, 1) == ["GV101"]
    (root / "lintgv.toml").write_text('tvm-version = "0.16"\nignore = ["GV101"]\n')
    count = len(client.published)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(
                    uri=(root / "lintgv.toml").as_uri(), type=types.FileChangeType.Changed
                )
            ]
        )
    )
    await _until(client, uri, count, _empty)
    await client.log_containing("configuration changed")


async def test_a_broken_config_file_is_reported_on_the_document(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path, config="select = 3\n")
    client = await start(root)
    uri = client.open(cpp_file(root))
    (diagnostic,) = await client.diagnostics_for(uri, 1)
    assert diagnostic.code == "config-error"
    assert "select" in diagnostic.message


async def test_client_settings_select_ignore_severity_and_enable(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root, options={"ignore": ["GV1"]})
    uri = client.open(python_file(root))
    assert await _codes(client, uri, 1) == []
    count = _changed_settings(client, {"ignore": None, "severity": {"GV1": "error"}})
    await _until(client, uri, count, _severities(types.DiagnosticSeverity.Error))
    count = _changed_settings(client, {"severity": {"GV1": "error", "GV101": "info"}})
    await _until(client, uri, count, _severities(types.DiagnosticSeverity.Information))
    count = _changed_settings(client, {"select": ["GV2"]})
    await _until(client, uri, count, _empty)
    count = _changed_settings(client, {"select": None})
    await _until(client, uri, count, _severities(types.DiagnosticSeverity.Information))
    count = _changed_settings(client, {"enable": False})
    await _until(client, uri, count, _empty)


async def test_the_tvm_version_setting_changes_the_advice(tmp_path: Path, start: Start) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    uri = client.open(python_file(root))
    (before,) = await client.diagnostics_for(uri, 1)
    count = _changed_settings(client, {"tvmVersion": "0.26"})
    await _until(client, uri, count, lambda d: len(d) == 1 and "UniqueNameSupply" in d[0].message)
    assert "GlobalVarSupply" in before.message


async def test_a_bad_setting_is_shown_and_the_others_still_apply(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root, options={"select": "GV1", "severity": {"GV101": "error"}})
    uri = client.open(python_file(root))
    (diagnostic,) = await client.diagnostics_for(uri, 1)
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    await client.until(lambda: any("lintgv.select" in m.message for m in client.messages))


async def test_each_root_of_a_multi_root_workspace_keeps_its_config_and_settings(
    tmp_path: Path, start: Start
) -> None:
    first = write_project(tmp_path / "first")
    second = write_project(tmp_path / "second", config='ignore = ["GV101"]\n')
    third = write_project(tmp_path / "third")
    client = await start(
        first,
        folders=[first, second, third],
        configuration={third.as_uri(): {"severity": {"GV101": "error"}}},
    )
    uris = [client.open(cpp_file(root)) for root in (first, second, third)]
    diagnostics = [await client.diagnostics_for(uri, 1) for uri in uris]
    await _until(client, uris[2], 0, _severities(types.DiagnosticSeverity.Error))
    assert [d.severity for d in diagnostics[0]] == [types.DiagnosticSeverity.Warning]
    assert diagnostics[1] == []
