"""The C++ shape gate (lintgv/helpers/cpp_shape_gate.py) reads the braces of a file where
only the loose shape triggers matched, and has tree-sitter parse it only when a top-level
declaration a trigger matches in holds the words the shape rules (GV201 to GV204) need.
It must never say no where they find something: every C++ example of every rule, copies
written out inside namespaces, classes and preprocessor branches, and generated files
that hide braces in comments, strings and macros check that; code like TVM's, where a
`return` builds a string from a call, checks that it says no."""

import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lintgv.config import Config
from lintgv.engine import check
from lintgv.helpers import cpp_shape_gate
from lintgv.helpers.cpp_shape_gate import top_level_declarations
from lintgv.model import FileResult, Language, SourceFile
from lintgv.registry import all_rules

ROOT = Path("/project")
CONFIG = Config(root=ROOT)


def _check(text: str, gated: bool, monkeypatch: pytest.MonkeyPatch) -> FileResult:
    with monkeypatch.context() as patch:
        if not gated:
            patch.setattr(cpp_shape_gate, "may_hold_shapes", lambda text, shapes: True)
        return check(SourceFile(ROOT / "gen.cc", Language.CPP, text), CONFIG)


def _outcome(result: FileResult) -> tuple[object, ...]:
    findings = [(f.code, f.span, f.message) for f in result.findings]
    return findings, result.errors, result.defined_helpers, result.thin_helpers


def _same_with_and_without_gate(text: str, monkeypatch: pytest.MonkeyPatch) -> FileResult:
    gated = _check(text, True, monkeypatch)
    assert _outcome(gated) == _outcome(_check(text, False, monkeypatch))
    return gated


def _gate_says(text: str, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Tell whether the gate was asked about `text` and let it through."""
    answers = []
    real = cpp_shape_gate.may_hold_shapes

    def spy(text: str, shapes: object) -> bool:
        answers.append(real(text, shapes))  # type: ignore[arg-type]
        return answers[-1]

    with monkeypatch.context() as patch:
        patch.setattr(cpp_shape_gate, "may_hold_shapes", spy)
        check(SourceFile(ROOT / "gen.cc", Language.CPP, text), CONFIG)
    assert answers, "the gate was not asked: a trigger other than a shape's matched"
    return answers[-1]


EXAMPLES = [
    pytest.param(example.code, id=f"{rule.META.code}-{kind}-{i}")
    for rule in all_rules()
    if rule.LANGUAGE == Language.CPP
    for kind, examples in (("valid", rule.VALID), ("invalid", rule.INVALID))
    for i, example in enumerate(examples)
    if not example.config
]


@pytest.mark.parametrize("code", EXAMPLES)
def test_every_cpp_example_is_checked_the_same(code: str, monkeypatch) -> None:
    _same_with_and_without_gate(code, monkeypatch)


# A copy found by its structure, in the places TVM keeps them.
COPY = """\
std::string Printer::Fresh(const std::string& hint) {
  std::string name = hint;
  int i = 0;
  while (used_.count(name)) {
    name = hint + "_" + std::to_string(++i);
  }
  used_.insert(name);
  return name;
}
"""
RECURSION = """\
std::string OpName(const std::string& name) {
  if (!name_map_.count(name)) {
    name_map_[name] = 1;
    return name;
  }
  auto index = name_map_[name];
  name_map_[name] += 1;
  return OpName(name + std::to_string(index));
}
"""
INLINE_LOOP = """\
void Rename(Node* node, const std::set<std::string>& used) {
  int i = 0;
  while (true) {
    std::string candidate = node->name + "_" + std::to_string(i++);
    if (!used.count(candidate)) {
      node->name = candidate;
      break;
    }
  }
}
"""
PLACES = {
    "at the top": "{}",
    "in namespaces": "namespace tvm {{\nnamespace codegen {{\n{}}}  // namespace codegen\n}}\n",
    "in an anonymous namespace": "namespace {{\n{}}}\n",
    "in extern C": 'extern "C" {{\n{}}}\n',
    "as a method in a class": "class Printer : public Base {{\n public:\n{}}};\n",
    "in a nested struct": "namespace a {{\nstruct Outer {{\n  struct Inner {{\n{}  }};\n}};\n}}\n",
    "in a preprocessor branch": "#if defined(X)\n{}#else\nint y;\n#endif\n",
    "after braces in comments and strings": (
        "// }} }} {{\n/* {{ */ const char* s = \"}}{{\";\nchar c = '{{';\n"
        'auto r = R"x( }} " )x";\nint big = 1\'000;\n#define OPEN {{\n{}'
    ),
}


@pytest.mark.parametrize("place", PLACES.values(), ids=list(PLACES))
@pytest.mark.parametrize(
    "copy", [COPY, RECURSION, INLINE_LOOP], ids=["loop", "recursion", "inline"]
)
def test_a_copy_anywhere_is_let_through_and_found(place: str, copy: str, monkeypatch) -> None:
    text = place.format(copy)
    result = _same_with_and_without_gate(text, monkeypatch)
    assert {f.code for f in result.findings} & {"GV201", "GV204"}
    assert _gate_says(text, monkeypatch)


def test_a_match_that_begins_in_a_comment_before_a_copy_lets_it_through(monkeypatch) -> None:
    # The trigger's match starts at the comment's `return` and runs on past the copy's
    # own, which the search then does not find: the declaration it runs into counts.
    text = (
        "int kBefore = 0;\n// return Next(\n"
        "std::string Fresh(const std::string& n) {\n"
        '  return names_.count(n) ? Fresh(n + "_" + std::to_string(names_[n]++)) : n;\n}\n'
    )
    result = _same_with_and_without_gate(text, monkeypatch)
    assert [f.code for f in result.findings] == ["GV201"]
    assert _gate_says(text, monkeypatch)


def test_a_comment_after_the_signature_makes_no_class_of_the_function(monkeypatch) -> None:
    text = COPY.replace(") {\n", ")  // the name it hands out; a struct keeps it\n{\n", 1)
    result = _same_with_and_without_gate(text, monkeypatch)
    assert [f.code for f in result.findings] == ["GV201"]
    assert _gate_says(text, monkeypatch)


# What made the gate worth having: TVM code the shape triggers match, holding no copy.
NEAR_MISSES = {
    "a string built from a call": """\
        std::string Describe(const Array<Integer>& dims) {
          return "DimsHW{" + std::to_string(dims[0]) + "," + std::to_string(dims[1]) + "}";
        }
        int Lookup(const Map<String, Integer>& m) { return m.count("x"); }
        """,
    "arithmetic on a call": """\
        PrimExpr Upper(const Range& r) { return Range::FromMinExtent(r->min, r->extent + 1); }
        bool Has(const std::set<int>& s) {
          for (int i = 0; i < 4; ++i) LOG(INFO) << s.count(i);
          return false;
        }
        """,
    "a loop over a set, with a stream in another function": """\
        void Collect(const std::set<std::string>& names) {
          for (const auto& name : names) {
            out_.push_back(name);
          }
        }
        void Print(std::ostream& os) { os << std::to_string(names_.size()); }
        bool Has(const std::string& n) { return names_.find(n) != names_.end(); }
        """,
}


@pytest.mark.parametrize("code", NEAR_MISSES.values(), ids=list(NEAR_MISSES))
def test_code_without_a_copy_is_stopped(code: str, monkeypatch) -> None:
    text = textwrap.dedent(code)
    assert not _gate_says(text, monkeypatch)
    _same_with_and_without_gate(text, monkeypatch)


@pytest.mark.parametrize(
    ("text", "declarations"),
    [
        ("void f() { }\nvoid g() { if (a) { } }\n", ["{ }", "{ if (a) { } }"]),
        ("namespace a {\nvoid f() { }\n}\n", ["{ }"]),
        ('extern "C" {\nint x[] = {1};\n}\n', ["{1}"]),
        ("struct S {\n  int f() { return 1; }\n  int x{0};\n};\n", ["{ return 1; }", "{0}"]),
        ("class A : public B<C> { void f() {} };", ["{}"]),
        # A function's head has parentheses: never a scope, whatever a comment says.
        ("void f() /* struct S */ {\n  int a;\n}\n", ["{\n  int a;\n}"]),
        ("void f()  // one; a struct\n{\n  int a;\n}\n", ["{\n  int a;\n}"]),
        (
            "int f() {\n  // }\n  const char* s = \"}\";\n  char c = '}';\n}\n",
            ["{\n  // }\n  const char* s = \"}\";\n  char c = '}';\n}"],
        ),
        ('int f() {\n  auto s = R"d( } )d";\n}\n', ['{\n  auto s = R"d( } )d";\n}']),
        (
            "int f() {\n  int n = 1'000'000;\n  return '{' == n;\n}\n",
            ["{\n  int n = 1'000'000;\n  return '{' == n;\n}"],
        ),
        (
            "int f() {\n  int n = 1'000; char c = '}';\n}\n",
            ["{\n  int n = 1'000; char c = '}';\n}"],
        ),
        ("#define OPEN {\nvoid f() { }\n", ["{ }"]),
        ("#define OPEN \\\n  {\nvoid f() { }\n", ["{ }"]),
        ("#define OPEN \\\r\n  {\r\nvoid f() { }\r\n", ["{ }"]),
        ("#if A\nvoid f() { }\n#else\nvoid g() { }\n#endif\n", ["{ }", "{ }"]),
    ],
)
def test_the_top_level_declarations_are_read_around_what_hides_braces(
    text: str, declarations: list[str]
) -> None:
    found = top_level_declarations(text)
    assert found is not None
    assert [text[start:end] for start, end in found] == declarations


@pytest.mark.parametrize(
    "text",
    [
        "namespace a {\nvoid f() { }\n",  # a scope a macro closes
        "void f() { } }\n",
        "#if A\nvoid f() {\n#else\nvoid f(int x) {\n#endif\n}\n",  # each branch opens one
        "void f() {\n#ifdef A\n}\n#endif\n",
        "void f() { } /* never closed\n",
        'void f() { auto s = R"x( never closed ); }\n',
    ],
)
def test_braces_that_cannot_be_trusted_let_the_file_through(text: str) -> None:
    assert top_level_declarations(text) is None


NOISE = [
    "// a comment with } and {\n",
    "/* a block { comment\n   over two lines } */\n",
    'const char* kOpen = "{ not a brace";\n',
    "const char kClose = '}';\n",
    'const char* kRaw = R"json({"a": [1, 2]})json";\n',
    "int kBig = 1'000'000;\n",
    "#define BEGIN {\n#define END }\n",
    "#if defined(A)\nint a = 1;\n#elif defined(B)\nint a = 2;\n#else\nint a = 3;\n#endif\n",
    "std::string Describe(int n) { return Name(n) + std::to_string(n + 1); }\n",
    "int Count(const std::set<int>& s) { return s.count(1); }\n",
    "void Log(std::ostream& os, int i) { for (int j = 0; j < i; ++j) os << j; }\n",
    "struct Plain { int x{0}; int Get() const { return x + 1; } };\n",
]
COPIES = [COPY, RECURSION, INLINE_LOOP]
WRAPPERS = [
    ("namespace tvm {\n", "}  // namespace tvm\n"),
    ("class Holder {\n public:\n", "};\n"),
    ('extern "C" {\n', "}\n"),
    ("#ifdef USE_IT\n", "#endif\n"),
    ("", ""),
]


@st.composite
def _files(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.sampled_from(NOISE), max_size=6))
    if draw(st.booleans()):
        parts.insert(draw(st.integers(0, len(parts))), draw(st.sampled_from(COPIES)))
    opening, closing = draw(st.sampled_from(WRAPPERS))
    return opening + "".join(parts) + closing


@settings(max_examples=150, deadline=None)
@given(_files())
def test_generated_files_are_checked_the_same(text: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        _same_with_and_without_gate(text, monkeypatch)
