"""Pushed diagnostics: on open, change, save and close; never for a stale version;
positions in UTF-16 and with CRLF line ends; one diagnostic for a file that does not parse."""

import sys
from pathlib import Path

from lsprotocol import types
from server_client import (
    PYTHON_SITE,
    Start,
    cpp_file,
    engine_findings,
    python_file,
    summary,
    write_project,
)


async def test_open_python_and_cpp_files_get_the_findings_of_lintgv_check(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    for path in (python_file(root), cpp_file(root)):
        uri = client.open(path)
        diagnostics = await client.diagnostics_for(uri, 1)
        assert summary(diagnostics) == engine_findings(path)
        first = diagnostics[0]
        assert (first.source, first.code) == ("lintgv", "GV101")
        assert first.severity == types.DiagnosticSeverity.Warning
        assert first.code_description is not None
        assert first.code_description.href.endswith("GV101.md")


async def test_an_incremental_change_is_checked_and_only_the_newest_version_published(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    path = python_file(root)
    client = await start(root)
    uri = client.open(path)
    await client.diagnostics_for(uri, 1)
    texts = {1: PYTHON_SITE}
    # Three edits in a row: a second site appears, then the first one goes away.
    lines = PYTHON_SITE.split("\n")
    edits = [
        (types.Position(9, 0), types.Position(9, 0), "other = tvm.ir.GlobalVar('g')\n"),
        (types.Position(6, 9), types.Position(6, 31), "supply.fresh_global(name)"),
        (types.Position(0, 0), types.Position(0, 0), "# edited\n"),
    ]
    text = PYTHON_SITE
    for version, (begin, end, new) in enumerate(edits, 2):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=begin, end=end), text=new
                    )
                ],
            )
        )
        lines = text.split("\n")
        offset = sum(len(x) + 1 for x in lines[: begin.line])
        text = text[: offset + begin.character] + new + text[offset + end.character :]
        texts[version] = text
    final = await client.diagnostics_for(uri, 4)
    path.write_text(texts[4])
    assert summary(final) == engine_findings(path)
    assert [d.range.start.line for d in final] == [10]
    versions = [p.version for p in client.published if p.uri == uri]
    assert versions == sorted(versions), "an older version was published after a newer one"
    for params in client.published:
        path.write_text(texts[params.version or 1])
        assert summary(list(params.diagnostics)) == engine_findings(path)


async def test_closing_a_document_clears_its_diagnostics_and_saving_checks_again(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    uri = client.open(cpp_file(root))
    assert await client.diagnostics_for(uri, 1)
    before = len(client.published)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await client.until(lambda: len(client.published) > before)
    assert client.published[-1].diagnostics
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await client.until(
        lambda: client.published[-1].uri == uri and not client.published[-1].diagnostics
    )


async def test_columns_are_counted_in_utf16_code_units(tmp_path: Path, start: Start) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    # "😀" is one code point, two UTF-16 code units; "é" is one of each.
    text = 'import tvm\nnames = ["é😀"]; gv = tvm.ir.GlobalVar("😀")\n'
    uri = client.open(python_file(root), text)
    (diagnostic,) = await client.diagnostics_for(uri, 1)
    line = text.split("\n")[1]
    start_units = len(line[: line.index("tvm.ir")].encode("utf-16-le")) // 2
    end_units = len(line.encode("utf-16-le")) // 2
    assert diagnostic.range == types.Range(
        start=types.Position(1, start_units), end=types.Position(1, end_units)
    )


async def test_crlf_documents_get_the_same_positions(tmp_path: Path, start: Start) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    uri_lf = client.open(cpp_file(root))
    crlf_path = cpp_file(root).with_name("lower_crlf.cc")
    crlf_path.write_bytes(cpp_file(root).read_bytes().replace(b"\n", b"\r\n"))
    uri_crlf = client.open(crlf_path)
    lf = await client.diagnostics_for(uri_lf, 1)
    crlf = await client.diagnostics_for(uri_crlf, 1)
    assert [d.range for d in crlf] == [d.range for d in lf]
    assert summary(crlf) == engine_findings(crlf_path)


async def test_a_file_that_does_not_parse_gets_one_clear_diagnostic(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    uri = client.open(python_file(root), "import tvm\ngv = tvm.ir.GlobalVar('f'\n")
    (diagnostic,) = await client.diagnostics_for(uri, 1)
    assert diagnostic.code == "parse-error"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.message.startswith("lintgv could not check this file:")
    client.replace_all(uri, 2, "import tvm\ngv = tvm.ir.GlobalVar('f')\n")
    (fixed,) = await client.diagnostics_for(uri, 2)
    assert fixed.code == "GV101"


async def test_lines_split_only_at_newlines_in_incremental_changes(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    # A form feed (page break) is a line break for str.splitlines, not for LSP or lintgv.
    text = "import tvm\n\x0c\ngv = tvm.ir.GlobalVar('a')\n"
    uri = client.open(python_file(root), text)
    assert [d.range.start.line for d in await client.diagnostics_for(uri, 1)] == [2]
    where = types.Position(3, 0)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=where, end=where),
                    text="other = tvm.ir.GlobalVar('b')\n",
                )
            ],
        )
    )
    diagnostics = await client.diagnostics_for(uri, 2)
    assert [(d.range.start.line, d.range.start.character) for d in diagnostics] == [(2, 5), (3, 8)]


async def test_a_document_whose_uri_has_escapes_is_checked_and_served(
    tmp_path: Path, start: Start
) -> None:
    # pygls keeps documents by their URI with escapes decoded: `a%20b.py` is open as
    # `a b.py`, and must be found by the URI the client sends.
    root = write_project(tmp_path)
    path = root / "a b.py"
    path.write_text(PYTHON_SITE)
    client = await start(root)
    uri = client.open(path)
    assert uri.endswith("/a%20b.py")
    diagnostics = await client.diagnostics_for(uri, 1)
    assert summary(diagnostics) == engine_findings(path)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diagnostics[0].range,
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    assert any(a.title == "Ignore GV101 on this line" for a in actions or [])


async def test_a_rule_that_could_not_check_the_document_says_so_on_its_line(
    tmp_path: Path, start: Start
) -> None:
    # GV301 and GV302 read CPython's parse; Python 3.11's parser refuses a type parameter
    # list (Python 3.12), which libcst reads. Each rule's error is shown where it stopped,
    # under its own code; GV101, which reads libcst's parse, still reports.
    root = write_project(tmp_path)
    client = await start(root)
    text = (
        "import tvm\n\n"
        "def rename[T](func: T) -> T:\n"
        '    gv = tvm.ir.GlobalVar("f")\n'
        '    return func.with_attr("global_symbol", "f")  # lintgv: ignore[GV301]\n'
    )
    uri = client.open(python_file(root), text)
    diagnostics = await client.diagnostics_for(uri, 1)
    codes = sorted(str(d.code) for d in diagnostics)
    if sys.version_info >= (3, 12):  # this Python reads it: the comment silences GV301
        assert codes == ["GV101"]
        return
    assert codes == ["GV101", "GV301", "GV302"]  # and no GV902: the comment is not judged
    for diagnostic in diagnostics:
        if diagnostic.code != "GV101":
            assert diagnostic.message.startswith(f"{diagnostic.code} could not check the code")
            assert diagnostic.severity == types.DiagnosticSeverity.Error
            assert diagnostic.range.start.line == 2


async def test_a_document_holding_a_surrogate_gets_one_clear_diagnostic(
    tmp_path: Path, start: Start
) -> None:
    # A JSON string may hold a lone surrogate (`\udcff`), which an editor sends as it is;
    # no UTF-8 file holds one, and neither parser can read it.
    root = write_project(tmp_path)
    client = await start(root)
    uri = client.open(
        python_file(root), 'import tvm\nname = "\udcff"\ngv = tvm.ir.GlobalVar("f")\n'
    )
    (diagnostic,) = await client.diagnostics_for(uri, 1)
    assert diagnostic.code == "parse-error"
    assert diagnostic.message == (
        "lintgv could not check this file: holds U+DCFF, a surrogate code point UTF-8 "
        "cannot hold; not checked"
    )
    assert diagnostic.range.start == types.Position(1, 8)
    client.replace_all(uri, 2, 'import tvm\nname = "x"\ngv = tvm.ir.GlobalVar("f")\n')
    (fixed,) = await client.diagnostics_for(uri, 2)
    assert fixed.code == "GV101"
