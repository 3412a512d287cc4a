"""The shape gate (lintgv/helpers/python_shape_gate.py) reads CPython's ast of what the
Python shape triggers matched and asks libcst's rules (GV201, GV203, GV204) only when
they may find something. It must never say no where they find a copy, a helper or an
inline loop: the rules' examples, every shape written out here, and generated functions
that mix lookups, built names, loops and returns check that; the code that made it worth
having (a `while True:` with an f-string near it, a loop over a range that asks a list)
checks that it says no."""

import ast
import re
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lintgv.config import Config
from lintgv.engine import check
from lintgv.helpers.names import NAME_TRIGGER
from lintgv.helpers.python_shape_gate import may_hold_shapes
from lintgv.model import FileResult, Language, ProjectFacts, SourceFile
from tests.rule_texts import example_params

ROOT = Path("/project")
CONFIG = Config(root=ROOT)
SHAPE_CODES = {"GV201", "GV203", "GV204"}


def _check(text: str, whole: bool) -> FileResult:
    return check(SourceFile(ROOT / "gen.py", Language.PYTHON, text, "gen"), CONFIG, whole=whole)


def _partial(text: str) -> FileResult:
    """Check `text` as `lintgv check` does: partially, then again knowing the helpers
    its first pass found, whose calls in the same file the first pass did not parse."""
    first = _check(text, whole=False)
    if not first.defined_helpers:
        return first
    facts = ProjectFacts(first.defined_helpers, first.thin_helpers)
    source = SourceFile(ROOT / "gen.py", Language.PYTHON, text, "gen")
    return check(source, CONFIG, facts)


def _shapes(result: FileResult) -> list[tuple[str, int, int]]:
    found = [(f.code, f.span.start_line, f.span.start_col) for f in result.findings]
    return [f for f in found if f[0] in SHAPE_CODES]


def _found_by_libcst(text: str) -> bool:
    """Tell whether the shape rules, over the whole text, find anything in it."""
    result = _check(text, whole=True)
    return bool(_shapes(result) or result.defined_helpers or result.thin_helpers)


def _gate(text: str) -> bool:
    return may_hold_shapes(ast.parse(text))


EXAMPLES = example_params(Language.PYTHON)

SHAPES = {
    "loop over a counter": """
        def unique(name, used):
            i = 0
            candidate = name
            while candidate in used:
                i += 1
                candidate = f"{name}_{i}"
            return candidate
    """,
    "loop, name built with +": """
        def unique(self, name):
            i = 0
            while name + str(i) in self.used:
                i += 1
            return name + str(i)
    """,
    "loop, %-formatting of bytes": """
        def unique(self, name):
            i = 0
            key = b"%s_%d" % (name, i)
            while key in self.used:
                i += 1
                key = b"%s_%d" % (name, i)
            return key
    """,
    "loop, .format and a copy": """
        def unique(self, name):
            i = 0
            built = "{}_{}".format(name, i)
            candidate = built
            while self.used.get(candidate):
                i += 1
                built = "{}_{}".format(name, i)
                candidate = built
            return candidate
    """,
    "recursion": """
        class Printer:
            def get_name(self, name):
                if name not in self.names:
                    return name
                return self.get_name(name + "_" + str(len(self.names)))
    """,
    "counter kept in the map": """
        def label(self, name):
            if name in self.count:
                self.count[name] += 1
            else:
                self.count[name] = 0
            return f"{name}_{self.count[name]}"
    """,
    "async helper": """
        async def fresh(self, hint):
            n = 0
            out = hint
            while out in self.taken:
                n += 1
                out = hint + "_" + str(n)
            return out
    """,
    "inline loop, retry": """
        def add(mod, func, hint):
            name = hint
            while name in mod:
                name = make_name(hint)
            mod[name] = func
    """,
    "inline loop, endless": """
        def add(used, hint):
            i = 0
            while True:
                candidate = f"{hint}_{i}"
                if candidate not in used:
                    break
                i += 1
            used.add(candidate)
    """,
    "inline loop, counting": """
        import itertools
        def add(used, hint):
            for i in itertools.count(1):
                candidate = hint + "_" + str(i)
                if not used.get(candidate):
                    break
            used.add(candidate)
    """,
    "inline loop, suffix rebuilt": """
        def add(used, hint):
            i = 0
            suffix = ""
            while hint + suffix in used:
                i += 1
                suffix = "_" + str(i)
            used.add(hint + suffix)
    """,
    "inline loop at module level": """
        used = set()
        name = "x"
        while name in used:
            name += "_"
    """,
    "helper called in its file": """
        class Printer:
            def fresh(self, name):
                i = 0
                while f"{name}{i}" in self.used:
                    i += 1
                return f"{name}{i}"

            def emit(self):
                return self.fresh("x")
    """,
    # Where the two trees differ (found by a review): an argument libcst reads without
    # its star, and first in the order written; `None`, `True` and `False`, which are
    # names to libcst; f-strings written side by side, which ast merges into one.
    "lookup of a starred argument": """
        def pick(base, used):
            name = base
            i = 0
            while used.get(*name):
                i += 1
                name = f"{base}_{i}"
            return name
    """,
    "keyword written before a starred argument": """
        def pick(base, used):
            name = base
            i = 0
            while used.get(key=name, *()):
                i += 1
                name = f"{base}_{i}"
            return name
    """,
    "join of a starred list": """
        def pick(base, used):
            i = 0
            while True:
                i += 1
                cand = "_".join(*[base, str(i)])
                if cand not in used:
                    return cand
    """,
    "None looked up and returned": """
        def f(base, used, n):
            i = 0
            while i < n:
                i += 1
                if f"{base}_{i}" in used or None in used:
                    return None
    """,
    "True looked up and returned": """
        def taken(base, flags, n):
            for i in range(n):
                if f"{base}_{i}" in flags:
                    return True in flags
    """,
    "f-strings side by side, one of a name with rand in it": """
        def fresh(base, used, operand):
            for i in range(100):
                if (f"{base}_{i}" f"_{operand.dtype}") not in used:
                    return f"{base}_{i}" f"_{operand.dtype}"


        def lower(ops, used):
            return [fresh(op.name, used, op) for op in ops]
    """,
}

# What the shape triggers matched in TVM and mlc-llm, where no rule finds anything.
NEAR_MISSES = {
    "endless loop reading input": """
        def ask(backends):
            while True:
                answer = input(f"{backends[0]}?")
                if answer in ["yes", "y"]:
                    print(f"{answer} {backends}")
                    break
    """,
    "polling with requests.get": """
        def wait(url, timeout):
            attempts = 0
            while attempts < timeout:
                response = requests.get(f"{url}/models", timeout=2)
                if response.status_code == 200:
                    break
                attempts += 1
    """,
    "range over indices that asks a list": """
        def extract(args):
            for i in range(3, 18):
                if i in [13, 14, 17]:
                    continue
                assert isinstance(args[i], int), f"args[{i}] is {type(args[i])}"
    """,
    "counter looked up, not a name": """
        def keep(cover, ranks):
            keep = 0
            while keep + 1 in cover:
                keep += 1
            return keep
    """,
    "message built with +": """
        def tune(self, trials):
            if self.tags.get(trials):
                print("Stop early after " + str(trials) + " trials")
    """,
}


@pytest.mark.parametrize("text", EXAMPLES)
def test_the_gate_passes_every_example_the_rules_report(text: str) -> None:
    partial, whole = _partial(text), _check(text, whole=True)
    assert _shapes(partial) == _shapes(whole)
    assert partial.defined_helpers == whole.defined_helpers
    # A helper's known name is a trigger of its own, which the gate is not asked about.
    if not re.search(NAME_TRIGGER, text):
        assert not _found_by_libcst(text) or _gate(text)


@pytest.mark.parametrize("name", SHAPES)
def test_the_gate_passes_every_shape(name: str) -> None:
    text = textwrap.dedent(SHAPES[name])
    assert _found_by_libcst(text), "not a shape the rules find: the case tests nothing"
    assert _gate(text)
    assert _shapes(_partial(text)) == _shapes(_check(text, whole=True))


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_the_gate_stops_what_only_looks_like_a_shape(name: str) -> None:
    text = textwrap.dedent(NEAR_MISSES[name])
    assert not _found_by_libcst(text)
    assert not _gate(text)


# --- Generated functions: pieces of the shapes, in any order and nesting ----------------

_SIMPLE = [
    "i = 0",
    "i += 1",
    "n = len(used)",
    "candidate = name",
    'candidate = f"{name}_{i}"',
    'candidate = f"{name}"',
    "candidate = name + str(i)",
    'candidate = "arg_" + str(i)',
    'candidate = "%s_%d" % (name, i)',
    'candidate = "{}_{}".format(name, i)',
    'candidate = "_".join([name, str(i)])',
    "candidate += str(i)",
    'candidate += "_"',
    "candidate = self.fresh_name(name)",
    "copy = candidate",
    "used.add(candidate)",
    "used[name] += 1",
    "used[name] = used[name] + 1",
    "x = used.get(candidate)",
    "x = used.count(candidate)",
    "x = candidate in used",
    "print(candidate)",
]
_RETURNS = [
    "return candidate",
    "return copy",
    "return name",
    'return name + "_" + str(used[name])',
    'return f"{name}_{used[name]}"',
    "return NAME(name + str(i))",
    "return self.NAME(name, i + 1)",
    "return None",
]
_HEADERS = [
    "while candidate in used:",
    "while name + str(i) in used:",
    "while not used.get(candidate):",
    "while True:",
    "while i < 10:",
    "for i in range(10):",
    "for i in itertools.count(1):",
    "for x in used:",
    "if candidate not in used:",
    "if name in used:",
    "if used.get(candidate):",
]
_LEAVES = ["break", "continue", "return candidate"]


@st.composite
def _block(draw: st.DrawFn, depth: int) -> list[str]:
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 9))
        if kind < 5:
            lines.append(draw(st.sampled_from(_SIMPLE)))
        elif kind < 7 and depth < 2:
            lines.append(draw(st.sampled_from(_HEADERS)))
            lines.extend("    " + line for line in draw(_block(depth + 1)))
        elif kind < 8:
            lines.append(draw(st.sampled_from(_LEAVES)))
        else:
            lines.append(draw(st.sampled_from(_RETURNS)))
    return lines


@st.composite
def _functions(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(["unique", "label", "emit", "fresh"]))
    method = draw(st.booleans())
    body = draw(_block(0))
    header = f"def {name}(self, name):" if method else f"def {name}(name, used):"
    lines = [header, *("    " + line for line in body)]
    if method:
        lines = ["class Namer:", *("    " + line for line in lines)]
    caller = draw(st.booleans())
    if caller:
        lines.append(f"x = {name}('a')" if not method else "x = Namer().emit('a')")
    return "\n".join(lines).replace("NAME", name) + "\n"


@settings(max_examples=400, deadline=None)
@given(_functions())
def test_the_gate_never_stops_a_generated_shape(text: str) -> None:
    if _found_by_libcst(text):
        assert _gate(text)
    assert _shapes(_partial(text)) == _shapes(_check(text, whole=True))
