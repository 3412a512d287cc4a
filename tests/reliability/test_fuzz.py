"""Bad input for `check` and `fix`: no crash, no hang, and each bad file reported precisely.

Each kind of bad file sits in one project, run once as a subprocess (a native crash in a
parser kills the process, which only a subprocess shows); generated inputs go through the
engine and the fix loop in-process.
"""

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lintgv.config import Config
from lintgv.engine import check
from lintgv.fixing.settle import settle
from lintgv.model import FileResult, Language, SourceFile
from lintgv.reading import decode

CPP_SITE = 'void F(IRModule mod) {\n  GlobalVar gv("f");\n  mod->Add(gv, x);\n}\n'
PY_SITE = (
    "import tvm\n\n\ndef f(mod: tvm.IRModule, func):\n"
    '    gv = tvm.ir.GlobalVar("f")\n    mod[gv] = func\n'
)
LintgvRunner = Callable[..., subprocess.CompletedProcess[str]]
TEN_MB = 10 * 1024 * 1024

# name → (content, the error message expected for it, or None when it must check cleanly)
BAD_FILES: dict[str, tuple[bytes, str | None]] = {
    "nul.cc": (CPP_SITE.encode() + b"\0tail\n", "nul.cc:5: error: binary file (NUL byte)"),
    "invalid_utf8.py": (
        b"# caf\xe9\n" + PY_SITE.encode(),
        "invalid_utf8.py:1:6: error: not valid UTF-8 (byte 0xe9 at offset 5)",
    ),
    "ten_mb.cc": (b"// x\n" * (TEN_MB // 5), "ten_mb.cc: error: file is 10,485,760 bytes"),
    "parens.py": (
        b"import tvm\nx = " + b"(" * 5000 + b'tvm.ir.GlobalVar("a")' + b")" * 5000 + b"\n",
        "parens.py:2: error: Python syntax error: too many nested parentheses",
    ),
    "unary.py": (
        b"import tvm\nx = " + b"not " * 20000 + b'tvm.ir.GlobalVar("a")\n',
        "unary.py: error: Python nesting too deep to parse",
    ),
    "lambdas.py": (
        b"import tvm\nx = " + b"lambda: " * 20000 + b'tvm.ir.GlobalVar("a")\n',
        "lambdas.py: error: Python nesting too deep to parse",
    ),
    "truncated.py": (PY_SITE.encode()[:-5], "truncated.py:6:"),
    "bom.cc": (b"\xef\xbb\xbf" + CPP_SITE.encode(), None),
    "crlf.py": (PY_SITE.replace("\n", "\r\n").encode(), None),
    "mixed.cc": (b"int a;\r\nint b;\n" + CPP_SITE.replace("\n", "\r\n", 1).encode(), None),
    "tabs.py": (PY_SITE.replace("    ", "\t").encode(), None),
    "deep.cc": (
        b"int x = " + b"(" * 20000 + b"1" + b")" * 20000 + b";\n" + CPP_SITE.encode(),
        None,
    ),
    "long_line.py": (b'x = "' + b"a" * 3_000_000 + b'"\n' + PY_SITE.encode(), None),
    "truncated.cc": (CPP_SITE.encode()[:30], None),
}


@pytest.fixture
def bad_project(tmp_path: Path) -> Path:
    # max-file-size just under 10 MB: the 3 MB line is checked, the 10 MB file is refused.
    (tmp_path / "lintgv.toml").write_text("max-file-size = 10000000\n")
    for name, (data, _) in BAD_FILES.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


def test_check_reports_each_bad_file_and_checks_the_rest(
    bad_project: Path, lintgv: LintgvRunner
) -> None:
    result = lintgv("check", "--no-cache", ".", cwd=bad_project)
    assert result.returncode == 3, result.stderr  # findings (1) and unchecked files (2)
    for name, (_, expected) in BAD_FILES.items():
        if expected is not None:
            assert expected in result.stdout, name
    found = {line.split(":")[0] for line in result.stdout.splitlines() if " GV101 " in line}
    assert found == {"bom.cc", "crlf.py", "mixed.cc", "tabs.py", "deep.cc", "long_line.py"}


def test_fix_leaves_bad_files_alone_and_fixes_the_rest(
    bad_project: Path, lintgv: LintgvRunner
) -> None:
    result = lintgv("fix", "--unsafe", "--no-cache", ".", cwd=bad_project)
    assert result.returncode & 2, result.stdout + result.stderr
    for name, (data, expected) in BAD_FILES.items():
        after = (bad_project / name).read_bytes()
        if expected is not None:
            assert after == data, f"{name} was changed"
            assert name in result.stdout, name
        elif b"GlobalVar gv" in data or b"GlobalVar(" in data:
            assert b"supply" in after, f"{name} was not fixed"
    assert (bad_project / "bom.cc").read_bytes().startswith(b"\xef\xbb\xbf")
    assert b"\r\n" in (bad_project / "crlf.py").read_bytes()
    assert b"\n\n" not in (bad_project / "crlf.py").read_bytes().replace(b"\r\n", b"")
    second = lintgv("fix", "--unsafe", "--no-cache", ".", cwd=bad_project)
    assert "Fixed nothing." in second.stdout


# --- generated input, in-process ------------------------------------------------------

CONFIG = Config(root=Path("/project"))


def _check(text: str, language: Language) -> FileResult:
    path = Path("/project") / ("gen.py" if language == Language.PYTHON else "gen.cc")
    return check(SourceFile(path, language, text), CONFIG, whole=True)


@given(st.binary(max_size=2000), st.sampled_from(list(Language)))
def test_random_bytes_are_checked_or_refused_with_a_reason(data: bytes, language: Language) -> None:
    loaded = decode(Path("gen"), data, CONFIG.max_file_size)
    if hasattr(loaded, "message"):
        assert loaded.message
        return
    result = _check(loaded.text, language)
    assert all(e.message for e in result.errors)


@given(st.integers(0, len(PY_SITE)), st.integers(0, len(CPP_SITE)))
def test_truncated_files_check_and_fix_without_crashing(py_cut: int, cpp_cut: int) -> None:
    for text, language in ((PY_SITE[:py_cut], Language.PYTHON), (CPP_SITE[:cpp_cut], Language.CPP)):
        settled = settle(text, language, lambda t, lang=language: _check(t, lang), unsafe=True)
        for finding in settled.applied:
            assert finding.code == "GV101"


@given(
    st.text(alphabet=st.sampled_from(list("()[]{};\"'#/*\\\n\r\t x=GlobalVar")), max_size=300),
    st.sampled_from(list(Language)),
)
def test_punctuation_soup_never_crashes_the_fix_loop(text: str, language: Language) -> None:
    settle(
        PY_SITE + text if language == Language.PYTHON else CPP_SITE + text,
        language,
        lambda t: _check(t, language),
        unsafe=True,
    )
