"""`check` parses Python partially (the lines near a trigger), `fix` and quick fixes parse
whole files: both must give the same findings, messages, fixes and errors.

The partial parse rests on a hand-written logical-line scanner; it is checked against
Python's own tokenizer on generated texts.
"""

import ast
import io
import tokenize
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.one_analysis import both, outcome
from lintgv.model import Language
from lintgv.parsing.python_lines import line_offsets, logical_lines
from lintgv.registry import all_rules

ROOT = Path(__file__).parent.parent


def test_partial_and_whole_parses_agree_on_lintgv_own_tree_and_examples() -> None:
    folders = ["lintgv", "server", "examples", "tests/fixtures", "benchmarks"]
    files = sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))
    assert len(files) > 100
    differ = []
    for path in files:
        partial, whole = both(path, path.read_text(encoding="utf-8"), ROOT)
        if outcome(partial) != outcome(whole):
            differ.append(path.relative_to(ROOT))
    assert differ == []


def test_partial_and_whole_parses_agree_on_every_rule_example() -> None:
    # The rule examples are the TVM-shaped corpus: each is a site, or a look-alike, of a
    # real tree, with the settings it is checked under.
    compared = 0
    for rule in all_rules():
        if rule.LANGUAGE != Language.PYTHON:
            continue
        for example in [*rule.VALID, *rule.INVALID]:
            partial, whole = both(Path("/example-project/example.py"), example.code, ROOT)
            assert outcome(partial) == outcome(whole), example.code
            compared += 1
    assert compared > 50


def test_a_module_level_site_gets_the_whole_parse_reason_in_both_modes() -> None:
    text = 'from tvm import relay\n\n\ndef f():\n    pass\n\n\nADD = relay.GlobalVar("add")\n'
    partial, whole = both(Path("/p/ops.py"), text, Path("/p"))
    assert outcome(partial) == outcome(whole)
    [finding] = partial.findings
    assert "at module level, with no GlobalVarSupply or IRModule" in finding.message


def test_a_syntax_error_is_reported_at_its_real_line() -> None:
    text = 'import tvm\nx = tvm.ir.GlobalVar("a")\ndef g(:\n    pass\n'
    partial, whole = both(Path("/p/a.py"), text, Path("/p"))
    for result in (partial, whole):
        [error] = result.errors
        assert (error.line, error.column) == (3, 7)
        assert "syntax" in error.message


# --- The logical-line scanner against Python's tokenizer -------------------------------

# Complete statements (some spanning lines), so that generated files are Python.
_STATEMENTS = [
    "x = 1",
    "",
    "# a comment with 'quotes' and \"more\" and (brackets",
    "y = (1,\n     2)",
    "z = [\n    'a',  # comment ] inside\n]",
    "s = 'it''s' + \"a \\\" quote\"",
    'doc = """first\nsecond \' " line\n"""',
    "t = '''one''' + '''two\nthree'''",
    "w = 1 + \\\n    2",
    'f = f"{x!r} and {y}"',
    "u = r'\\d+' + b'\\x00'",
    "def g(a,\n      b):\n    return {a: b,\n            'k': (a)}",
    "if x:\n    pass\nelse:\n    z = 2",
    "gv = tvm.ir.GlobalVar('main')",
    "s2 = 'back\\\nslash'",
    "class C:\n    def m(self, mod):\n        return tvm.ir.GlobalVar('m')",
    "while name in used:\n    name = f'{hint}_{i}'",
]
# Lines that break the file: a check must still agree with a whole parse.
_BROKEN = ["y = (1,", "def h(:", "'''open", "]"]


def _tokenized_lines(text: str) -> list[tuple[int, int]]:
    """Return (first, last) 0-based physical lines of each logical line, by tokenize."""
    lines = []
    first = None
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            continue
        if token.type == tokenize.ENDMARKER:
            break
        if first is None:
            first = token.start[0] - 1
        if token.type == tokenize.NEWLINE:
            lines.append((first, token.start[0] - 1))
            first = None
    return lines


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_STATEMENTS), min_size=1, max_size=12))
def test_logical_line_scanner_matches_pythons_tokenizer(chosen: list[str]) -> None:
    text = "\n".join(chosen) + "\n"
    ast.parse(text)  # the statements make a Python file, whatever their order
    scanned = logical_lines(text, line_offsets(text))
    assert scanned is not None, "the scanner gave up on plain Python"
    assert [(line.first, line.last) for line in scanned] == _tokenized_lines(text)


# Lines whose brackets close more than they open, or open and close in either order.
_BRACKETS = ["]", ") + (", "a = f(b)[c]) + (", "x = {[()]}", "))((", "y = (1,", "    z = [1]}"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_STATEMENTS + _BROKEN + _BRACKETS), min_size=1, max_size=12))
def test_a_line_without_strings_is_scanned_as_token_by_token(chosen: list[str]) -> None:
    """A line holding no string, comment or continuation has its brackets counted
    together; a comment at its end has it scanned token by token, with the same lines."""
    text = "\n".join(chosen) + "\n"
    commented = "".join(
        line if line.endswith("\\\n") else line[:-1] + "  #\n"
        for line in text.splitlines(keepends=True)
    )
    scanned = logical_lines(text, line_offsets(text))
    assert scanned == logical_lines(commented, line_offsets(commented))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_STATEMENTS + _BROKEN), min_size=1, max_size=10))
def test_partial_and_whole_parses_agree_on_generated_files(chosen: list[str]) -> None:
    text = "import tvm\n" + "\n".join(chosen) + "\ngv = tvm.ir.GlobalVar('main')\n"
    partial, whole = both(Path("/p/gen.py"), text, Path("/p"))
    assert outcome(partial) == outcome(whole)


def test_a_fix_adds_its_import_where_the_leading_imports_end_in_both_modes() -> None:
    body = (
        '\n\ndef build(mod, f):\n    gv = relay.GlobalVar("g1")\n    mod[gv] = f\n    return mod\n'
    )
    ends = {
        "a call": 'pytest.importorskip("ethosu.vela")\n',
        "a function": "def helper():\n    x = 1\n    return x\n",
        "a decorated class": "@dataclass\nclass Options:\n    x: int = 1\n",
        # Too long to be kept whole as a block of imports.
        "a long try statement": "try:\n    import vela\n"
        + "".join(f"    x{i} = {i}\n" for i in range(50))
        + "except ImportError:\n    vela = None\n",
    }
    for name, end in ends.items():
        text = f'"""Tests."""\n\nimport pytest\n\n{end}\nfrom tvm import relay\n{body}'
        partial, whole = both(Path("/p/test_x.py"), text, Path("/p"))
        assert outcome(partial) == outcome(whole), name
        [finding] = whole.findings
        assert finding.fix is not None
        [line] = [e.span.start_line for e in finding.fix.edits if "import" in e.text]
        assert text.splitlines()[line - 2] == "import pytest", name


# Starts of files that decide where the leading imports end, each followed by late imports
# and a site: (start, the line the import goes before).
STARTS = {
    "a docstring and a decorated class": ('"""Doc."""\n@dec\n@dec2(1)\nclass C:\n    x = 1\n', 2),
    "a decorated class": ("@dec\n@dec2(1)\nclass C:\n    x = 1\n", 1),
    # Comments above the first statement are the module's header: the import goes below.
    "a comment above a decorated def": ("# about f\n@dec\ndef f():\n    pass\n", 2),
    "a string that is no docstring": ('"%s" % 1\n', 1),
    "a docstring in parentheses": ('("doc")\ndef h():\n    pass\n', 2),
    "a docstring then a comment": ('"""Doc."""\n# c\nX = 1\n', 2),
    "a comment above a statement": ("# c\n\n# d\nX = 1\n", 4),
    "two strings": ('"""Doc."""\nb"more"\n', 2),
    "an import with no space before its dot": ("from.a import b\nx = 1\n", 2),
    "a form feed before an import": ("import os\n\fimport sys\nx = 1\n", 3),
    "a docstring in parentheses after a comment": ('(  # the doc\n    "doc"\n)\nx = 1\n', 4),
    # `from __future__` imports must come first, however the line goes on.
    "a __future__ import with more on its line": (
        "from __future__ import annotations; X = 1\n",
        2,
    ),
    "a docstring and a __future__ import on one line": (
        '"""Doc."""; from __future__ import annotations\n',
        2,
    ),
}


@pytest.mark.parametrize("start", STARTS, ids=list(STARTS))
def test_the_import_a_fix_adds_goes_to_one_place_that_parses_in_both_modes(start: str) -> None:
    head, before = STARTS[start]
    site = '\n\ndef build(mod, f):\n    gv = relay.GlobalVar("g1")\n    mod[gv] = f\n'
    for imports in ("from tvm import relay\nimport tvm\n", ""):
        text = (
            head
            + imports
            + (site if imports else site.replace("    gv", "    from tvm import relay\n    gv"))
        )
        partial, whole = both(Path("/p/x.py"), text, Path("/p"))
        assert outcome(partial) == outcome(whole), imports
        [finding] = whole.findings
        assert finding.fix is not None
        [edit] = [e for e in finding.fix.edits if "import" in e.text]
        assert edit.span.start_line == before
        lines = text.splitlines(keepends=True)
        fixed = "".join([*lines[: before - 1], edit.text, *lines[before - 1 :]])
        compile(fixed, "fixed.py", "exec")  # only compiled (a __future__ import's place)
