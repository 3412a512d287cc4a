"""Reading for fixing and writing back: same bytes format, atomic, never half-written."""

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lintgv.fixing.files import (
    ChangedOnDisk,
    Tree,
    digest_of,
    interrupts_deferred,
    stored_text,
    write_atomically,
)
from lintgv.lines import split_lines
from lintgv.reading import BOM


def _roundtrip(data: bytes, edit: tuple[str, str]) -> bytes:
    text = data[len(BOM) :].decode() if data.startswith(BOM) else data.decode()
    stored = stored_text(text, data)
    return stored.encode(stored.text.replace(*edit))


def test_crlf_files_are_edited_as_lf_and_written_as_crlf() -> None:
    data = b"a = 1\r\nb = 2\r\n"
    stored = stored_text(data.decode(), data)
    assert stored.text == "a = 1\nb = 2\n"
    assert stored.encode("a = 1\nc = 3\nb = 2\n") == b"a = 1\r\nc = 3\r\nb = 2\r\n"


def test_a_bom_and_a_missing_final_newline_are_kept() -> None:
    assert _roundtrip(BOM + b"x = 1\r\ny = 2", ("y", "z")) == BOM + b"x = 1\r\nz = 2"


def test_mixed_line_ends_are_left_as_they_are() -> None:
    data = b"a\r\nb\nc\r\n"
    stored = stored_text(data.decode(), data)
    assert stored.newline == "\n"
    assert stored.encode(stored.text) == data


def test_a_lone_cr_before_a_crlf_keeps_both_line_breaks() -> None:
    data = b"a\r\r\nb\r\n"  # three lines: "a", "", "b"
    stored = stored_text(data.decode(), data)
    assert stored.newline == "\n"
    assert split_lines(stored.text) == ("a", "", "b", "")


@given(st.lists(st.sampled_from(["x", "\r", "\n", "\r\n"]), max_size=12).map("".join))
def test_stored_text_keeps_the_lines_and_the_bytes(text: str) -> None:
    data = text.encode()
    stored = stored_text(text, data)
    assert split_lines(stored.text) == split_lines(text)
    assert stored.encode(stored.text) == data


def test_cr_only_files_are_edited_as_lf_and_written_with_cr() -> None:
    data = b"a = 1\rb = 2\r"
    stored = stored_text(data.decode(), data)
    assert stored.text == "a = 1\nb = 2\n"
    assert stored.encode("a = 1\nc = 3\nb = 2\n") == b"a = 1\rc = 3\rb = 2\r"


def test_a_write_replaces_the_content_and_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "a.cc"
    target.write_bytes(b"old\n")
    target.chmod(0o751)
    write_atomically(target, b"new\n", digest_of(b"old\n"), Tree.of([tmp_path]))
    assert target.read_bytes() == b"new\n"
    assert target.stat().st_mode & 0o777 == 0o751
    assert os.listdir(tmp_path) == ["a.cc"]


def test_a_file_changed_since_it_was_read_is_not_overwritten(tmp_path: Path) -> None:
    target = tmp_path / "a.cc"
    target.write_bytes(b"edited by someone else\n")
    with pytest.raises(ChangedOnDisk):
        write_atomically(target, b"new\n", digest_of(b"old\n"), Tree.of([tmp_path]))
    assert target.read_bytes() == b"edited by someone else\n"
    assert os.listdir(tmp_path) == ["a.cc"]


def test_ctrl_c_during_a_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "a.cc"
    target.write_bytes(b"old\n")

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, b"new\n", digest_of(b"old\n"), Tree.of([tmp_path]))
    assert target.read_bytes() == b"old\n"
    assert os.listdir(tmp_path) == ["a.cc"]


def test_a_symlink_stays_a_link_to_the_written_file(tmp_path: Path) -> None:
    real = tmp_path / "real.cc"
    real.write_bytes(b"old\n")
    link = tmp_path / "link.cc"
    link.symlink_to(real)
    write_atomically(link, b"new\n", digest_of(b"old\n"), Tree.of([tmp_path]))
    assert link.is_symlink()
    assert real.read_bytes() == b"new\n"


@pytest.fixture
def sigint(request: pytest.FixtureRequest) -> Iterator[None]:
    """Give the test the SIGINT handler it asks for, whatever the suite was started with
    (a suite started in the background inherits Ctrl-C ignored)."""
    previous = signal.signal(signal.SIGINT, request.param)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("sigint", [signal.default_int_handler], indirect=True)
@pytest.mark.usefixtures("sigint")
def test_ctrl_c_is_held_until_the_block_ends() -> None:
    finished = []
    with pytest.raises(KeyboardInterrupt), interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        finished.append(True)
    assert finished == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("sigint", [signal.SIG_IGN], indirect=True)
@pytest.mark.usefixtures("sigint")
def test_an_ignored_ctrl_c_stays_ignored() -> None:
    finished = []
    with interrupts_deferred():
        os.kill(os.getpid(), signal.SIGINT)
        finished.append(True)
    assert finished == [True]
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
