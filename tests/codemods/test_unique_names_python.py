"""GV2xx in Python: a copy of get_unique_name becomes a NameSupply (before/after)."""

from pathlib import Path

import libcst as cst

from lintgv.codemods.unique_name_copies import Skipped
from lintgv.codemods.unique_names import plan_changes
from lintgv.codemods.unique_names_python import PythonChange, plan_python_changes
from lintgv.config import Config
from lintgv.engine import check
from lintgv.model import Applicability, Language, SourceFile
from lintgv.release import Release

PATH = Path("python/tvm_ext/printer.py")

METHOD = '''"""A printer."""
import os


class Printer:
    def __init__(self):
        self.names = {}  # names taken so far
        self.lines = []

    # Make `prefix` unique among the names handed out.
    def get_unique_name(self, prefix):
        name, n = prefix, 0
        while name in self.names:
            n += 1
            name = prefix + str(n)
        self.names[name] = 1
        return name

    def emit(self, var):
        if var not in self.names:
            self.get_unique_name("reserved")  # keep this comment
        return self.get_unique_name(
            var,  # the variable's own name
        )
'''

METHOD_FIXED = '''"""A printer."""
import os
from tvm.ir.supply import NameSupply


class Printer:
    def __init__(self):
        self.name_supply = NameSupply("")  # names taken so far
        self.lines = []

    def emit(self, var):
        if not self.name_supply.contains_name(var):
            self.name_supply.reserve_name("reserved")  # keep this comment
        return self.name_supply.fresh_name(
            var,  # the variable's own name
        )
'''

MODULE = """_used = set()


def fresh(base):
    name, i = base, 0
    while name in _used:
        i += 1
        name = f"{base}_{i}"
    _used.add(name)
    return name


def make(kind):
    # Arguments first.
    first = fresh("arg") if "arg" not in _used else None
    return first, fresh(kind)
"""

MODULE_FIXED = """from tvm.ir.supply import NameSupply
name_supply = NameSupply("")


def make(kind):
    # Arguments first.
    first = name_supply.fresh_name("arg") if not name_supply.contains_name("arg") else None
    return first, name_supply.fresh_name(kind)
"""


def _plan(text: str, config: Config | None = None) -> tuple[list[PythonChange], list[Skipped]]:
    return plan_python_changes([PATH], {PATH: text}.get, lambda _: config or Config())


def _fixed(text: str, config: Config | None = None) -> str:
    planned, skipped = _plan(text, config)
    assert not skipped
    assert len(planned) == 1
    return planned[0].text


def _flagged(text: str) -> list[str]:
    result = check(SourceFile(PATH, Language.PYTHON, text), Config())
    return [f.code for f in result.findings if f.code.startswith("GV2")]


def _proved(before: str, after: str) -> None:
    cst.parse_module(after)  # re-parses
    assert _flagged(before)
    assert _flagged(after) == []
    assert _plan(after) == ([], [])  # a second run changes nothing


def test_a_method_copy_becomes_a_name_supply_member() -> None:
    after = _fixed(METHOD)
    assert after == METHOD_FIXED
    _proved(METHOD, after)


def test_a_module_level_copy_becomes_a_module_supply() -> None:
    after = _fixed(MODULE)
    assert after == MODULE_FIXED
    _proved(MODULE, after)


def test_tvm_025_targets_unique_name_supply() -> None:
    after = _fixed(METHOD, Config(release=Release(25, "0.25")))
    assert "from tvm.ir.supply import UniqueNameSupply\n" in after
    assert "self.name_supply = UniqueNameSupply()  # names taken so far" in after


def test_crlf_text_is_rewritten_with_its_line_ends(tmp_path: Path) -> None:
    source = tmp_path / "printer.py"
    source.write_bytes(METHOD.replace("\n", "\r\n").encode())
    text = source.read_bytes().decode()
    changes, skipped = plan_changes([source], lambda p: text, frozenset())
    assert not skipped
    assert [c.applicability for c in changes] == [Applicability.UNSAFE]
    assert changes[0].texts[source] == METHOD_FIXED.replace("\n", "\r\n")


def test_a_copy_whose_table_is_used_otherwise_has_no_fix() -> None:
    text = METHOD + "\n    def dump(self):\n        return sorted(self.names)\n"
    planned, skipped = _plan(text)
    assert planned == []
    assert len(skipped) == 1
    assert skipped[0].helper == "Printer.get_unique_name"
    assert "the table `self.names` is also used at" in skipped[0].reason
    assert "sorted(self.names)" in skipped[0].reason


def test_a_copy_taking_its_table_from_callers_has_no_fix() -> None:
    text = (
        "def pick(base, used):\n    if base not in used:\n        return base\n"
        "    for i in range(1, 1000):\n"
        '        candidate = "{}_{}".format(base, i)\n'
        "        if candidate not in used:\n            return candidate\n"
        "    raise RuntimeError(base)\n"
    )
    planned, skipped = _plan(text)
    assert planned == []
    assert [s.reason for s in skipped] == [
        "it takes other arguments than one name; replace it by hand"
    ]


def test_a_copy_called_from_another_file_has_no_fix(tmp_path: Path) -> None:
    other = tmp_path / "use.py"
    texts = {PATH: MODULE, other: "from printer import fresh\nfresh('a')\n"}
    changes, skipped = plan_changes([PATH, other], texts.get, frozenset())
    assert changes == []
    assert len(skipped) == 1
    assert f"`fresh` is also named in {other}" in skipped[0].reason


def test_a_copy_named_in_a_file_that_is_not_text_has_no_fix(tmp_path: Path) -> None:
    # Not UTF-8: the file is no text to parse, but a call of the copy may be there.
    other = tmp_path / "use.py"
    other.write_bytes(b"from printer import fresh\n# caf\xe9\nfresh('a')\n")
    plain = tmp_path / "plain.py"
    plain.write_bytes(b"# caf\xe9\n")
    texts: dict[Path, str | None] = {PATH: MODULE, other: None, plain: None}
    changes, skipped = plan_changes([PATH, plain], texts.get, frozenset())
    assert len(changes) == 1 and skipped == []
    changes, skipped = plan_changes([PATH, plain, other], texts.get, frozenset())
    assert changes == []
    assert [s.reason for s in skipped] == ["use.py names fresh, and cannot be read as text"]
