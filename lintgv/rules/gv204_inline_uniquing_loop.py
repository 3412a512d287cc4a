"""GV204: a loop that makes a name unique by hand, inside a function that is not a helper."""

from __future__ import annotations

from functools import cached_property

from lintgv.config import Config
from lintgv.edits import offsets_of
from lintgv.helpers import cpp_loops, python_loops, python_shape
from lintgv.helpers.names import (
    CPP_RETRY_TRIGGERS,
    CPP_SHAPE_TRIGGERS,
    PYTHON_SHAPE_TRIGGERS,
    Verdict,
    judge,
    loop_message,
    loop_remedy,
)
from lintgv.lines import LineIndex
from lintgv.model import Applicability, Edit, Fix, Language, Message, Severity, Span
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.python import ParsedPython
from lintgv.rules._base import (
    CppRule,
    Invalid,
    MigrationPhase,
    PythonRule,
    RuleContext,
    RuleMeta,
    Valid,
)

META = RuleMeta(
    code="GV204",
    phase=MigrationPhase.UNIQUING_LOOPS,
    makes_names=True,
    name="inline-uniquing-loop",
    severity=Severity.WARNING,
    message=Message(
        "inline uniquing loop",
        "ask a NameSupply instead (`name_supply_->FreshName(name)`, Python "
        "`supply.fresh_name(name)`)",
    ),
    fix=Applicability.DISPLAY,
)

_DOC = """A loop makes a name unique by hand: while it is taken, append a counter or ask again.

    ## Why it matters
    It is a private copy of `GetUniqueName` (GV201) written inline, in a function that does
    something else: a pass that names a new buffer, a builder that adds a function to a
    module. Like every copy it numbers collisions its own way and knows only the names of
    one container, so two such loops, or one loop and a `NameSupply`, hand out the same
    name. TVM has them too (a block builder's retry loop when it adds a function to a
    module; printers' and pattern matchers' loops).

    A loop is reported when it asks a map, a set or a module whether a name is taken
    (`used.count(name)`, `m.find(name) != m.end()`, `mod->ContainGlobalVar(name)`,
    `name in used`, `used.get(name)`) and
    - rebuilds that name in its body from a counter (`name = hint + "_" +
      std::to_string(++i)`, `f"{hint}_{i}"`, `StrCat(hint, "_", i)`), appends a fixed
      suffix (`name += "_a"`) or asks a naming function again
      (`name = GetUniqueName(hint)`), or
    - builds the candidate in the condition itself (`used.count(p + std::to_string(++n))`),
      or from a suffix its body numbers (`while (used.count(name + suffix))` with
      `suffix = "_" + std::to_string(++i)`, Python `while name + suffix in used:`), or
    - is endless or counting (`while (true)`, `for i in itertools.count()`) and leaves once
      a candidate it built is free (`if (!used.count(c)) break;`, `if c not in used: break`).

    A loop inside a function that GV201 reports is part of that helper and is not
    reported again.

    ## Fix
    Display only: the finding shows the loop replaced by one supply call
    (`name = name_supply_->FreshName(hint);`, Python `name = supply.fresh_name(hint)`); for
    a module (`ContainGlobalVar`, `name in mod`) the module's `GlobalVarSupply`
    (`FreshGlobal`). It is never applied: the supply has to be created or passed in, and
    whoever adds names to the container has to ask the same supply, which only a person
    can see. A loop that builds the candidate in its condition has no suggestion.

    ## Known limits
    A loop whose candidate is built by a helper call other than a naming function
    (`name = Mangle(hint, i)`), or that asks a container through a function of its own
    (`while (IsTaken(name))`), is not reported. A loop that appends a random number
    (`prefix + std::to_string(Random())`) makes keys, not names, and is not reported.

    ## See also
    GV201 (the same algorithm as a function of its own); TVM RFC 0077.
    """


def _remedy(
    config: Config, language: Language, loop: python_loops.InlineLoop | cpp_loops.InlineLoop
) -> tuple[Message, str | None, str | None]:
    """Return a loop's message, the line its display fix shows instead of it, and why
    there is none when there is no one-line replacement."""
    message = loop_message(config, language, loop.container, loop.base, loop.module)
    if loop.module:
        return message, None, _MODULE_LOOP
    if not loop.variable:
        return message, None, _NO_VARIABLE
    _, call = loop_remedy(config, language, loop.base, None)
    line = f"{loop.variable} = {call}" + (";" if language == Language.CPP else "")
    return message, line, None


# Why a loop gets no display fix (an inline loop is never rewritten: see the docs above).
_MODULE_LOOP = (
    "the loop names a module's functions: a GlobalVar comes from the module's "
    "GlobalVarSupply, created or passed in by hand"
)
_NO_VARIABLE = (
    "the loop builds its candidate in its condition: no variable holds the name to give "
    "a supply's answer to; replace the loop by hand"
)


def _display(edit: Edit) -> Fix:
    return Fix(f"Replace the loop with `{edit.text}`", Applicability.DISPLAY, (edit,))


class InlineUniquingLoopPython(PythonRule):
    __doc__ = _DOC

    META = META
    VALID = [
        # A loop over a set that rebuilds nothing.
        Valid("def drain(queue, seen):\n    while queue in seen:\n        queue = seen.pop()\n"),
        # The loop is GV201's helper itself.
        Valid(
            "def fresh(hint, used):\n    name = hint\n    i = 0\n    while name in used:\n"
            '        i += 1\n        name = f"{hint}_{i}"\n    used.add(name)\n    return name\n'
        ),
        # Numbering without asking whether the name is taken.
        Valid('def names(n):\n    for i in range(n):\n        yield f"arg_{i}"\n'),
        # A random or hashed suffix, no counter: keys unlikely to clash, not names.
        Valid(
            "import uuid\n\ndef tagged(cache, key):\n    tag = ''\n"
            "    while key + tag in cache:\n        tag = '_' + str(uuid.uuid4())\n"
            "    return key + tag\n"
        ),
    ]
    INVALID = [
        Invalid(
            "def add_buffer(self, hint):\n    name = hint\n    i = 0\n"
            "    while name in self.used:\n        i += 1\n"
            '        name = f"{hint}_{i}"\n    self.buffers.append(Buffer(name))\n',
            span=(4, 5, 6, 29),
            message=loop_message(Config(), Language.PYTHON, "self.used", "hint", False),
            fixed="def add_buffer(self, hint):\n    name = hint\n    i = 0\n"
            "    name = supply.fresh_name(hint)\n    self.buffers.append(Buffer(name))\n",
        ),
        # A retry loop against a module (a block builder adding a function).
        Invalid(
            "def add_func(self, func, hint):\n    name = hint\n"
            "    while name in self.mod:\n        name = self.get_unique_name(hint)\n"
            "    self.mod[GlobalVar(name)] = func\n",
            span=(3, 5, 4, 42),
            message=loop_message(Config(), Language.PYTHON, "self.mod", "hint", True),
        ),
        # The candidate built in the condition.
        Invalid(
            "def add(names, base_name):\n    i = 1\n"
            '    while f"{base_name}_{i}" in names:\n        i += 1\n'
            '    names.add(f"{base_name}_{i}")\n',
            span=(3, 5, 4, 15),
            message=loop_message(Config(), Language.PYTHON, "names", "base_name", False),
        ),
        # The condition asks about a sum whose suffix the body numbers (a tensor renamer).
        Invalid(
            "def rename(tensor, used):\n    suffix = ''\n    i = 0\n"
            "    while tensor.name + suffix in used:\n        i += 1\n"
            '        suffix = "_rename_" + str(i)\n    used.add(tensor.name + suffix)\n',
            span=(4, 5, 6, 37),
            message=loop_message(Config(), Language.PYTHON, "used", "tensor.name", False),
        ),
        # A counting loop that leaves when its candidate is free.
        Invalid(
            "import itertools\n\ndef rename(node, used):\n"
            "    for i in itertools.count(1):\n"
            '        candidate = node.name + "_" + str(i)\n'
            "        if candidate not in used:\n            break\n"
            "    node.name = candidate\n",
            span=(4, 5, 7, 18),
        ),
        Invalid(
            "def add_buffer(self, hint):\n    name = hint\n"
            "    while self.used.get(name):\n        name = hint + str(len(self.used))\n"
            "    self.buffers.append(name)\n",
            span=(3, 5, 4, 42),
            config={"tvm-version": "0.26"},
            message="inline uniquing loop over `self.used`; ask a UniqueNameSupply instead "
            "(`names.fresh_name(hint)`)",
        ),
    ]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return (), PYTHON_SHAPE_TRIGGERS

    def __init__(self, context: RuleContext, parsed: ParsedPython) -> None:
        super().__init__(context, parsed)
        # Per open function: the loops found in it, reported when it turns out not to be
        # a helper; the outermost entry holds the module's own loops.
        self._loops: list[list[python_loops.InlineLoop]] = [[]]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._loops.append([])

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        loops = self._loops.pop()
        if not loops:
            return
        # Past the module's entry, another open function encloses this one.
        facts = python_shape.facts_of(original_node, self.config, nested=len(self._loops) > 1)
        verdict = judge(original_node.name.value, facts, self.config)
        if verdict not in (Verdict.BY_NAME, Verdict.BY_STRUCTURE):
            self._report_all(loops)

    def leave_Module(self, original_node: cst.Module) -> None:
        self._report_all(self._loops[0])

    def visit_While(self, node: cst.While) -> None:
        self._see(node)

    def visit_For(self, node: cst.For) -> None:
        self._see(node)

    def _see(self, node: cst.While | cst.For) -> None:
        loop = python_loops.inline_loop(node)
        if loop is not None:
            self._loops[-1].append(loop)

    def _report_all(self, loops: list[python_loops.InlineLoop]) -> None:
        for loop in loops:
            message, suggestion, reason = _remedy(self.config, Language.PYTHON, loop)
            fix = _display(self._replace(loop.node, suggestion)) if suggestion else None
            self.report(loop.node, message, fix=fix, reason=reason)

    def _replace(self, node: cst.CSTNode, text: str) -> Edit:
        """Return the edit replacing `node` by `text`, carrying the text it replaces."""
        where = self.parsed.positions[node]
        parsed_span = Span(where.start.line, where.start.column, where.end.line, where.end.column)
        code = self._code.text
        start, end = offsets_of(self._code, parsed_span)
        return Edit(self.span_of(node), text, code[start:end])

    @cached_property
    def _code(self) -> LineIndex:
        # The parsed text, generated once however many loops the file holds.
        return LineIndex(self.parsed.module.code)


class InlineUniquingLoopCpp(CppRule):
    __doc__ = _DOC

    META = META
    QUERY = ""  # `run` finds the loops itself
    VALID = [
        # The loop is part of a helper that GV201 reports.
        Valid(
            "std::string Fresh(const std::string& hint) {\n  std::string name = hint;\n"
            "  int i = 0;\n  while (used_.count(name)) {\n"
            '    name = hint + "_" + std::to_string(++i);\n  }\n  used_.insert(name);\n'
            "  return name;\n}\n"
        ),
        # A substring search in a loop, and a loop that walks a chain.
        Valid(
            "void Replace(std::string* s) {\n  size_t pos;\n"
            '  while ((pos = s->find("{}")) != std::string::npos) {\n'
            "    s->replace(pos, 2, std::to_string(pos));\n  }\n}\n"
        ),
        Valid(
            "int Root(std::map<int, int>& parent, int x) {\n"
            "  while (parent.count(x)) {\n    x = parent[x];\n  }\n  return x;\n}\n"
        ),
    ]
    INVALID = [
        Invalid(
            "void FuseTIR::AddBuffer(const Buffer& buffer) {\n"
            "  std::string unique_name = buffer->name;\n  size_t unique_id = 0;\n"
            "  while (names_.find(unique_name) != names_.end()) {\n"
            '    unique_name = buffer->name + "_" + std::to_string(++unique_id);\n  }\n'
            "  buffers_.push_back(WithName(buffer, unique_name));\n}\n",
            span=(4, 3, 6, 4),
            message=loop_message(Config(), Language.CPP, "names_", "buffer->name", False),
            fixed="void FuseTIR::AddBuffer(const Buffer& buffer) {\n"
            "  std::string unique_name = buffer->name;\n  size_t unique_id = 0;\n"
            "  unique_name = name_supply_->FreshName(buffer->name);\n"
            "  buffers_.push_back(WithName(buffer, unique_name));\n}\n",
        ),
        # A fixed suffix appended until the name is free (a partitioner's loop).
        Invalid(
            "Partitioner(const IRModule& module) {\n  for (auto f : module->functions) {\n"
            "    std::string f_name = f.first->name_hint;\n"
            "    while (func_names.find(f_name) != func_names.end()) {\n"
            '      f_name += "_a";\n    }\n    func_names.insert(f_name);\n  }\n}\n',
            span=(4, 5, 6, 6),
        ),
        # A block builder's retry loop when it adds a function to a module.
        Invalid(
            "GlobalVar BlockBuilderImpl::AddFunction(const BaseFunc& func, String hint) {\n"
            "  String func_name = hint;\n"
            "  while (context_mod_->ContainGlobalVar(func_name)) {\n"
            "    func_name = GetUniqueName(hint);\n  }\n"
            "  GlobalVar gvar(func_name);\n  context_mod_->Add(gvar, func);\n  return gvar;\n}\n",
            span=(3, 3, 5, 4),
            message=loop_message(Config(), Language.CPP, "context_mod_", "hint", True),
        ),
        # The candidate built in the condition, the counter bumped in the body.
        Invalid(
            "void SetExprName::Visit(const Expr& e) {\n  int cnt = 0;\n"
            '  while (setted_names_.count(expr_name + "_" + std::to_string(cnt))) {\n'
            "    cnt++;\n  }\n"
            '  Name(e, expr_name + "_" + std::to_string(cnt));\n}\n',
            span=(3, 3, 5, 4),
        ),
        # The condition asks about a sum whose suffix the body numbers (a realize renamer).
        Invalid(
            "void Rename(std::string name, const std::string& ext) {\n"
            "  std::string str;\n  do {\n"
            '    str = "_rename" + std::to_string(++m_);\n'
            "  } while (attr_name_.count(name + str + ext) != 0);\n"
            "  attr_name_.insert(name + str + ext);\n}\n",
            span=(3, 3, 5, 53),
            message=loop_message(Config(), Language.CPP, "attr_name_", "name + ext", False),
        ),
        # An endless loop that leaves when its candidate is free.
        Invalid(
            "void Rename(Node* node, const std::set<std::string>& used) {\n  int i = 0;\n"
            "  while (true) {\n"
            '    std::string candidate = node->name + "_" + std::to_string(i++);\n'
            "    if (!used.count(candidate)) {\n      node->name = candidate;\n      break;\n"
            "    }\n  }\n}\n",
            span=(3, 3, 9, 4),
        ),
    ]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return CPP_SHAPE_TRIGGERS + CPP_RETRY_TRIGGERS, ()

    def run(self) -> None:
        """Report every inline uniquing loop outside the file's unique-name helpers."""
        for loop in cpp_loops.inline_loops(self.parsed, self.config):
            message, suggestion, reason = _remedy(self.config, Language.CPP, loop)
            fix = _display(self.parsed.replace(loop.node, suggestion)) if suggestion else None
            self.report(loop.node, message, fix=fix, reason=reason)
