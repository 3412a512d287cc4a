"""Two threads parse C++ at once, as the language server's event loop (a quick fix's check
of a comment) and its lint thread do: each gets the tree of its own text."""

from concurrent.futures import ThreadPoolExecutor

from lintgv.parsing.cpp import parse_cpp

SMALL = 'void f(IRModule mod) {\n  GlobalVar gv("a");\n  mod->Add(gv, f);\n}\n'
BIG = "".join(
    f'void g{i}(IRModule mod) {{ GlobalVar gv("x{i}"); mod->Add(gv, f); }}\n' for i in range(5000)
)


def test_threads_parsing_at_once_each_get_their_own_tree() -> None:
    with ThreadPoolExecutor(max_workers=1) as lint:
        big = lint.submit(lambda: [parse_cpp(BIG + f"// {k}\n") for k in range(4)])
        small = []
        while not big.done():
            small.append(parse_cpp(SMALL))
        bigs = big.result()
    assert small
    assert all(p.root.child_count == 1 and not p.root.has_error for p in small)
    assert all(p.root.child_count == 5001 and not p.root.has_error for p in bigs)
