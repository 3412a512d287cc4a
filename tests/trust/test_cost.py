"""Cost as an attack: sites and nesting that once made a check take a minute.

Times are measured by benchmarks/linear_cost.py, never asserted here; these tests check
that such files get their full answer (the hang guard of run_lintgv ends a run that does
not), and that the parent lookups that keep deep nesting linear answer as tree-sitter does.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest
import tree_sitter
from hostile import run_lintgv
from hypothesis import given, settings
from hypothesis import strategies as st

from lintgv.errors import ParseError
from lintgv.parsing.cpp import parse_cpp

DEPTH = 4000


def _nested_cpp(depth: int) -> str:
    call = 'GlobalVar("x")'
    for _ in range(depth):
        call = f"Wrap({call})"
    return f"void F(IRModule mod) {{\n  auto x = {call};\n}}\n"


def _every_node(root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


PIECES = ["f(", ")", "{", "}", "(", "x", ";", "#define M(a) a\n", "if (x) ", "\n", "[]{", "<"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_parent_answers_as_tree_sitter_does(pieces: list[str]) -> None:
    # Every node, ERROR and MISSING ones included, in any order of asking.
    text = "void g() { " + "".join(pieces) + " }\n"
    try:
        parsed = parse_cpp(text)
    except ParseError:
        return  # nothing left to check: no rule asks
    nodes = list(_every_node(parsed.root))
    for node in reversed(nodes):
        assert parsed.parent(node) == node.parent, (text, node)


def test_a_call_nested_thousands_deep_is_checked_and_fixed(tmp_path: Path) -> None:
    path = tmp_path / "deep.cc"
    text = _nested_cpp(DEPTH)
    path.write_text(text)
    parsed = parse_cpp(text)
    start = text.index('GlobalVar("x")')
    deepest = parsed.root.named_descendant_for_byte_range(start, start + len('GlobalVar("x")'))
    assert deepest is not None
    assert len(list(parsed.ancestors(deepest))) > DEPTH

    checked = run_lintgv("check", "--no-cache", "--format", "json", path.name, cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr
    assert checked.stdout.count('"code": "GV101"') == 1

    fixed = run_lintgv("fix", "--unsafe", "--no-cache", path.name, cwd=tmp_path)
    assert fixed.returncode in (0, 1), fixed.stderr
    assert "Traceback" not in fixed.stderr
    after = path.read_text()
    assert "GlobalVarSupply global_var_supply = GlobalVarSupply(mod);" in after
    assert 'global_var_supply->FreshGlobal("x", false)' in after
    assert after.count("Wrap(") == DEPTH


def test_a_function_with_thousands_of_sites_is_checked_and_fixed(tmp_path: Path) -> None:
    body = "".join(
        f"    gv{i} = tvm.ir.GlobalVar('f{i}')\n    mod[gv{i}] = f\n" for i in range(DEPTH)
    )
    path = tmp_path / "many.py"
    path.write_text(f"import tvm\n\n\ndef build(mod, f):\n{body}    return mod\n")

    checked = run_lintgv("check", "--no-cache", "--format", "json", path.name, cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr
    assert checked.stdout.count('"code": "GV101"') == DEPTH

    fixed = run_lintgv("fix", "--unsafe", "--no-cache", path.name, cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    after = path.read_text()
    assert after.count(".fresh_global(") == DEPTH
    assert "GlobalVar(" not in after.replace("GlobalVarSupply(", "")


# tree-sitter's error recovery takes minutes on a few tens of kilobytes of these.
UNTERMINATED_COMMENTS = 'void f() { GlobalVar g("x"); }\n' + "/*\n" * 20000


def test_a_parse_that_runs_past_its_budget_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    import lintgv.parsing.cpp as cpp

    monkeypatch.setattr(cpp, "PARSE_SECONDS", 0.2)
    try:
        parse_cpp(UNTERMINATED_COMMENTS)
    except ParseError as error:
        assert "within 0.2 s of CPU time" in str(error)
    else:
        raise AssertionError("a parse past its budget gave a tree")
    # The parser given up starts afresh: a parse that resumed the abandoned one would
    # find nothing but errors here.
    assert not parse_cpp("int x;\n").root.has_error


def test_a_file_tree_sitter_cannot_parse_in_time_is_reported_and_the_rest_checked(
    tmp_path: Path,
) -> None:
    (tmp_path / "slow.cc").write_text(UNTERMINATED_COMMENTS)
    (tmp_path / "fine.cc").write_text('void g() { GlobalVar h("y"); }\n')

    checked = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert checked.returncode == 3, checked.stdout + checked.stderr
    assert "slow.cc:1:1: error: C++ could not be parsed: tree-sitter gave no tree" in checked.stdout
    assert "fine.cc:1:12: GV101" in checked.stdout


class _InterruptedText(bytes):
    """A C++ text whose length the parser's read callback asks once per read: the second
    read is interrupted, as by a Ctrl-C landing there."""

    reads = 0

    def __len__(self) -> int:
        self.reads += 1
        if self.reads == 2:
            raise KeyboardInterrupt
        return super().__len__()


def test_a_ctrl_c_inside_a_parse_ends_the_run_as_an_interrupt() -> None:
    import lintgv.parsing.cpp as cpp

    # The binding keeps the interrupt pending and parses on; without care the next call
    # into Python fails with a SystemError, and the run reports a file it could not parse.
    text = _InterruptedText(b'void f() { GlobalVar g("x"); }\n' * 2000)
    try:
        cpp._bounded_parse(text, None)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the interrupt was lost")
    assert text.reads == 2
    assert not parse_cpp("int x;\n").root.has_error


def test_a_ctrl_c_in_the_parse_budgets_check_leaves_the_next_parse_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time
    import types

    import lintgv.parsing.cpp as cpp

    calls = 0

    def monotonic() -> float:
        nonlocal calls
        calls += 1
        if calls == 3:  # the first is the parse's own; then the budget's checks
            raise KeyboardInterrupt
        return time.monotonic()

    clock = types.SimpleNamespace(monotonic=monotonic, thread_time=time.thread_time)
    monkeypatch.setattr(cpp, "time", clock)
    with pytest.raises(KeyboardInterrupt):
        parse_cpp('void f() { GlobalVar g("x"); }\n' * 2000)
    assert calls == 3  # interrupted inside the parse, by its budget's check
    monkeypatch.undo()
    # A parser left halted would resume the interrupted parse here.
    after = parse_cpp("int main() { return 0; }\n")
    assert after.root.end_byte == len("int main() { return 0; }\n")
    assert not after.root.has_error
