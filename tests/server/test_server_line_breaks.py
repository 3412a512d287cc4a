"""The editor and the server agree on lines whatever breaks a document uses: a lone `\\r`
ends a line for both, so an editor's change lands where it was made and a fix-all edits
only what it fixes (it once deleted code on another line)."""

from pathlib import Path

from lsprotocol import types
from server_client import Start

LINES = [f"value_{k} = compute(argument_one_{k}, argument_two_{k})" for k in range(8)]
# Lines 1-3 end in a lone `\r`, the others in `\n`.
MIXED = "\r".join(LINES[:3]) + "\r" + "\n".join(LINES[3:]) + "\n"
SUPPRESSED = "extra = 1  # lintgv: ignore[GV101]"


async def test_a_change_after_lone_returns_lands_on_the_line_the_editor_changed(
    tmp_path: Path, start: Start
) -> None:
    path = tmp_path / "mixed.py"
    path.write_bytes(MIXED.encode())
    client = await start(tmp_path)
    uri = client.open(path, MIXED)
    inserted = SUPPRESSED + "\r"
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(start=types.Position(1, 0), end=types.Position(1, 0)),
                    text=inserted,
                )
            ],
        )
    )
    diagnostics = await client.diagnostics_for(uri, 2)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("GV902", 1)]
    edited = LINES[0] + "\r" + inserted + MIXED[len(LINES[0]) + 1 :]
    fixed = await client.fix_all(uri, edited)
    assert fixed == edited.replace(SUPPRESSED, "extra = 1")


async def test_a_document_of_lone_returns_gets_its_findings_on_their_lines(
    tmp_path: Path, start: Start
) -> None:
    text = "import tvm\r\rdef f(mod):\r    gv = tvm.ir.GlobalVar('a')\r    mod[gv] = 1\r"
    text += "x = 1  # lintgv: ignore[GV101]\r"
    path = tmp_path / "cr.py"
    path.write_bytes(text.encode())
    client = await start(tmp_path)
    uri = client.open(path, text)
    diagnostics = await client.diagnostics_for(uri, 1)
    found = [(d.code, d.range.start.line, d.range.start.character) for d in diagnostics]
    assert found == [("GV101", 3, 9), ("GV902", 5, 9)]
    fixed = await client.fix_all(uri, text)
    assert fixed == text.replace("x = 1  # lintgv: ignore[GV101]", "x = 1")
