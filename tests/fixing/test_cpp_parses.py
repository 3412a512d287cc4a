"""CppParses: supply threading plans again after every change; a C++ file's parse is
kept for as long as its text is the same, and made again when it changes."""

from pathlib import Path

from lintgv.holding import CppParses


def test_a_cpp_parse_is_kept_for_its_text_and_made_again_for_a_new_one() -> None:
    parses = CppParses()
    path = Path("src/a.cc")
    first = parses.of(path, "int f() { return 1; }\n")
    # An equal text read again (a new object) is the same text.
    assert parses.of(path, "".join(["int f() { return 1; }\n", ""])) is first
    changed = parses.of(path, "int f(int x) { return x; }\n")
    assert changed is not first
    assert changed.text(changed.tree.root_node).startswith("int f(int x)")
    assert parses.of(Path("src/b.cc"), "int f() { return 1; }\n") is not first
