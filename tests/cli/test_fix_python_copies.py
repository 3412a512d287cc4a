"""`lintgv fix --unsafe` as a subprocess on a Python unique-name copy."""

from pathlib import Path

import libcst as cst

from tests.cli.conftest import run_lintgv

PRINTER = """class Printer:
    def __init__(self):
        self.names = {}

    def get_unique_name(self, prefix):
        name, n = prefix, 0
        while name in self.names:
            n += 1
            name = prefix + str(n)
        self.names[name] = 1
        return name

    def emit(self, var):
        return self.get_unique_name(var)
"""

FIXED = """from tvm.ir.supply import NameSupply
class Printer:
    def __init__(self):
        self.name_supply = NameSupply("")

    def emit(self, var):
        return self.name_supply.fresh_name(var)
"""


def test_unsafe_fix_replaces_a_python_copy_once(tmp_path: Path) -> None:
    source = tmp_path / "printer.py"
    source.write_bytes(PRINTER.replace("\n", "\r\n").encode())

    safe = run_lintgv("fix", "--no-cache", ".", cwd=tmp_path)
    assert source.read_bytes() == PRINTER.replace("\n", "\r\n").encode()
    assert "apply with --unsafe" in safe.stdout

    first = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "Replaced 1 unique-name copy with a supply (1 call site)" in first.stdout
    after = source.read_bytes()
    assert after == FIXED.replace("\n", "\r\n").encode()
    cst.parse_module(after.decode())

    second = run_lintgv("fix", "--unsafe", "--no-cache", ".", cwd=tmp_path)
    assert source.read_bytes() == after
    assert second.returncode == 0
    check = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert "GV2" not in check.stdout, check.stdout
