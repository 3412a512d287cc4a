"""GV203: a call of a private unique-name helper."""

from __future__ import annotations

import re

import tree_sitter

from lintgv.config import Config
from lintgv.helpers import cpp_body_walk, cpp_shape, python_shape
from lintgv.helpers.cpp_calls import call_candidates
from lintgv.helpers.names import (
    CPP_SHAPE_TRIGGERS,
    PYTHON_SHAPE_TRIGGERS,
    Catalogue,
    Verdict,
    call_message,
    catalogue,
    is_known_name,
    judge,
    name_triggers,
)
from lintgv.identities import bare_name, bare_names, cpp_identity, python_identity
from lintgv.model import Language, Message, Severity
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.cpp import ParsedCpp, node_cursor
from lintgv.parsing.python import ParsedPython
from lintgv.records import frozen
from lintgv.rules._base import (
    CppRule,
    Invalid,
    MigrationPhase,
    PythonRule,
    RuleContext,
    RuleMeta,
    Valid,
)

Node = tree_sitter.Node
META = RuleMeta(
    code="GV203",
    phase=MigrationPhase.UNIQUE_NAME_HELPERS,
    makes_names=True,
    across_files=True,
    finds_helpers=True,
    name="unique-name-helper-call",
    severity=Severity.WARNING,
    message=Message(
        "call of a private unique-name helper",
        "ask a NameSupply instead (`name_supply_->FreshName(name)`, Python "
        "`supply.fresh_name(name)`)",
    ),
)

_DOC = """A private unique-name helper is called: each call site is its own piece of code.

    ## Why it matters
    Every call of a copy (GV201) hands out a name that no `NameSupply` knows about, so a
    later `FreshName` can return the same name. A call whose result is thrown away
    (`GetUniqueName("extern");`) is really a reservation: the name is taken so nothing
    else gets it. It becomes `ReserveName`, not `FreshName`, and the message says so.

    Calls are reported for known helper names (`GetUniqueName`, `_GetUniqueName`,
    `get_unique_name`, `GetUniqueBufferName`, ...; more with
    `extra-unique-name-helpers`), for helpers this file defines, and for helpers found by
    their structure in any file of the run (a second pass looks for their names). Not
    reported: the recursive call inside a helper, calls of a name whose only definition
    in this file is a thin wrapper around a NameSupply, calls on an object whose name
    says it is a supply, and, in Python, calls of a known name on some other object
    (`builder.get_unique_name(x)`: Relax's `BlockBuilder.get_unique_name` asks its
    NameSupply) unless this file defines that helper.

    A helper found by its structure is known by identity: `Class::Method` (C++), or its
    module and name (Python). A C++ call counts when it resolves to it: `F(x)` or
    `this->F(x)` inside a method of that class, `Class::F(x)`, `obj->F(x)` where `obj` is
    declared in the function, or as a member of the class around it, with that class as
    its type, or `F(x)` of a free helper. A Python call counts when its name resolves,
    through the imports, to the helper's module (`from pkg.labels import make_label`), or
    when it is a bare or `self` call in the helper's own file. A same-named method of
    another class is never reported.

    ## Fix
    Unsafe (`lintgv fix --unsafe`), as part of GV201's change that replaces the copy
    with a supply: the call becomes `name_supply_->FreshName(name)`, or
    `name_supply_->ReserveName(name)` where the result is dropped (Python
    `self.name_supply.fresh_name(name)`, `reserve_name(name)`). A call of a copy that
    change cannot replace is left (the summary says why).

    ## Known limits
    A call through a member declared in another file (a method defined out of its
    class), through an expression (`GetExtractor().NameFor(x)`) or a subclass is not
    resolved, so it is not reported unless the helper's name is a known one. In Python,
    a call of a helper found by its structure in the same file is found by that second
    pass, so `lintgv check` reports it but a single-file check (the language server) may
    not. A call of a known name (`GetUniqueName`) is reported outside the file that
    defines it even when that definition is a thin wrapper around a NameSupply (as
    `lintgv fix --unsafe` leaves a copy that returns a `Doc`).

    ## See also
    GV201 (the definition), GV202 (its declaration); `NameSupply::FreshName` and
    `ReserveName` (TVM 0.10 to 0.24), `UniqueNameSupply` (TVM 0.25).
    """


class UniqueNameHelperCallPython(python_shape.ScanVisits, PythonRule):
    __doc__ = _DOC

    META = META
    VALID = [
        # Relax's BlockBuilder asks its NameSupply.
        Valid(
            "def _try_unique_name(name):\n    block_builder = relax.BlockBuilder.current()\n"
            "    return block_builder.get_unique_name(name)\n"
        ),
        Valid(
            "class Builder:\n    def get_unique_name(self, name):\n"
            "        return self._supply.fresh_name(name)\n\n"
            "    def emit(self, name):\n        return self.get_unique_name(name)\n"
        ),
        Valid("name = supply.fresh_name('x')\nsupply.reserve_name('main')\n"),
    ]
    INVALID = [
        Invalid(
            "class Printer:\n    def print_var(self, var):\n"
            "        return self.get_unique_name(var.name_hint)\n",
            span=(3, 16, 3, 51),
            message=call_message(Config(), Language.PYTHON, "get_unique_name", False),
        ),
        # The result is dropped: a reservation.
        Invalid(
            "class Printer:\n    def reserve_keywords(self):\n"
            '        self.get_unique_name("def")\n',
            span=(3, 9, 3, 36),
            message=call_message(Config(), Language.PYTHON, "get_unique_name", True),
        ),
        Invalid(
            "from .utils import get_unique_name\n\nfn = get_unique_name('main')\n",
            span=(3, 6, 3, 29),
        ),
        # Defined here: any receiver counts.
        Invalid(
            "class Namer:\n    def get_unique_name(self, prefix):\n"
            "        return prefix + str(len(self.names))\n\n\n"
            "def use(namer):\n    return namer.get_unique_name('x')\n",
            span=(7, 12, 7, 38),
        ),
        Invalid(
            "x = uniquify('main')\n",
            span=(1, 5, 1, 21),
            config={"extra-unique-name-helpers": ["uniquify"], "tvm-version": "0.26"},
            message="call of private unique-name helper `uniquify`; ask a UniqueNameSupply "
            "instead (`names.fresh_name(name)`)",
        ),
    ]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        # Names join the function triggers: one alternation fewer to scan every file with.
        return (), name_triggers(config) + PYTHON_SHAPE_TRIGGERS

    def __init__(self, context: RuleContext, parsed: ParsedPython) -> None:
        super().__init__(context, parsed)
        self._classes: list[str] = []
        self._functions: list[str] = []
        # (bare name, name in its module: `Printer.name_for`, verdict) of each function.
        self._verdicts: list[tuple[str, str, Verdict | None]] = []
        self._dropped: set[int] = set()  # id() of calls that are whole statements
        self._calls: list[_PythonCall] = []
        self._scan = python_shape.FunctionScan()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node.name.value)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node.name.value)
        self._scan.enter()

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        name = self._functions.pop()
        owner = self._classes[-1] + "." if self._classes else ""
        verdict = self._scan.leave(original_node, self.config)
        self._verdicts.append((name, owner + name, verdict))

    def visit_Expr(self, node: cst.Expr) -> None:
        self._dropped.add(id(node.value))

    def visit_Call(self, node: cst.Call) -> None:
        self._scan.see(node)
        name = python_shape.called_name(node)
        if not name or (self._functions and self._functions[-1] == name):
            return  # the helper's own recursion is part of its definition
        self._calls.append(_PythonCall(node, name, _is_own(node.func), id(node) in self._dropped))

    def leave_Module(self, original_node: cst.Module) -> None:
        defined = catalogue((name, verdict) for name, _, verdict in self._verdicts)
        remote = self.context.helper_names
        remote_names = bare_names(remote)
        for call in self._calls:
            if self._is_helper_call(call, defined, remote, remote_names):
                message = call_message(self.config, Language.PYTHON, call.name, call.dropped)
                self.report(call.node, message, subject=call.name)
        module = self.parsed.module_name
        self.defined_helpers.update(
            python_identity(module, qualified)
            for _, qualified, verdict in self._verdicts
            if verdict is Verdict.BY_STRUCTURE
        )

    def _is_helper_call(
        self, call: _PythonCall, defined: Catalogue, remote: frozenset[str], names: frozenset[str]
    ) -> bool:
        """Tell whether `call` calls a copy: one defined here (by a bare or self call, or
        through any object when its name is a known helper's), a known helper called
        bare or on self, or a helper of another module that the call resolves to."""
        known = is_known_name(call.name, self.config)
        if call.name in defined.copies:
            return call.own or known
        if known and call.name not in defined.thin and call.own:
            return True
        if call.name in names:
            return bool(self.qualified_names(call.node.func) & remote)
        return False


def _is_own(func: cst.BaseExpression) -> bool:
    """Tell whether a callee is a bare name or a method of self/cls."""
    if isinstance(func, cst.Name):
        return True
    return (
        isinstance(func, cst.Attribute)
        and isinstance(func.value, cst.Name)
        and func.value.value in ("self", "cls")
    )


@frozen
class _PythonCall:
    node: cst.Call
    name: str
    own: bool  # a bare name, or a method of self/cls
    dropped: bool


class UniqueNameHelperCallCpp(CppRule):
    __doc__ = _DOC

    META = META
    QUERY = ""  # `run` walks the calls itself
    VALID = [
        # The only definition here is a thin wrapper around the builder's NameSupply.
        Valid(
            "class BlockBuilderImpl {\n"
            "  Var Emit(const std::string& hint) { return Var(GetUniqueName(hint)); }\n"
            "  std::string GetUniqueName(const std::string& prefix) {\n"
            "    return name_supply_->FreshName(prefix, false, false);\n  }\n};\n"
        ),
        # Recursion belongs to the definition.
        Valid(
            "std::string _GetUniqueName(const std::string& name) {\n"
            "  if (!name_map_.count(name)) {\n    name_map_[name] = 1;\n    return name;\n  }\n"
            "  auto index = name_map_[name];\n  name_map_[name] += 1;\n"
            "  return _GetUniqueName(name + std::to_string(index));\n}\n"
        ),
        Valid('std::string n = name_supply_->FreshName("x");\n'),
        # A same-named method of another class: Extractor::NameFor is the helper, the
        # printer's own NameFor is not.
        Valid(
            "std::string Extractor::NameFor(std::string name) {\n"
            "  if (names_.find(name) == names_.end()) {\n    names_[name] = 1;\n"
            "    return name;\n  }\n  names_[name] = names_[name] + 1;\n"
            "  return name + std::to_string(names_[name]);\n}\n"
            "void Printer::Print(Printer* other, const Var& v) {\n"
            "  os_ << NameFor(v) << other->NameFor(v) << this->NameFor(v);\n}\n"
        ),
        # A macro-prefixed member declaration that tree-sitter misreads is GV202's.
        Valid(
            "class CodeGenBase {\n  TVM_DLL std::string GetUniqueName(std::string prefix);\n};\n"
        ),
    ]
    INVALID = [
        Invalid(
            "std::string CodeGenC::AllocVarID(const VarNode* v) {\n"
            "  std::string vid = GetUniqueName(v->name_hint);\n  return vid;\n}\n",
            span=(2, 21, 2, 48),
            message=call_message(Config(), Language.CPP, "GetUniqueName", False),
        ),
        # The result is dropped: a reservation.
        Invalid(
            'void CodeGenC::ReserveKeywords() {\n  GetUniqueName("extern");\n}\n',
            span=(2, 3, 2, 26),
            message=call_message(Config(), Language.CPP, "GetUniqueName", True),
        ),
        Invalid(
            'void Reserve() {\n  (void)GetUniqueName("int");\n}\n',
            span=(2, 9, 2, 29),
            message=call_message(Config(), Language.CPP, "GetUniqueName", True),
        ),
        # Through an object, and qualified.
        Invalid('String gv_name = mod->GetUniqueName("main");\n', span=(1, 18, 1, 44)),
        Invalid("auto n = relay::backend::GetUniqueName(name, &name_map_);\n", span=(1, 10, 1, 57)),
        # A renamed copy, found by its structure, and a lambda, called in the same file.
        Invalid(
            "std::string Extractor::NameFor(std::string name) {\n"
            "  if (names_.find(name) == names_.end()) {\n    names_[name] = 1;\n"
            "    return name;\n  }\n  names_[name] = names_[name] + 1;\n"
            "  return name + std::to_string(names_[name]);\n}\n"
            "void Extractor::Visit(const AllocateNode* op) {\n"
            "  infos_.push_back(BufferInfo(NameFor(op->buffer_var->name_hint)));\n}\n",
            span=(10, 31, 10, 65),
            message=call_message(Config(), Language.CPP, "NameFor", False),
        ),
        Invalid(
            "void Rename(std::vector<std::string>* names, std::set<std::string> used) {\n"
            "  auto fresh = [&](const std::string& hint) {\n    std::string name = hint;\n"
            "    for (int i = 1; used.count(name); ++i) {\n"
            '      name = hint + "_" + std::to_string(i);\n    }\n'
            "    used.insert(name);\n    return name;\n  };\n"
            "  for (auto& s : *names) s = fresh(s);\n}\n",
            span=(10, 30, 10, 38),
        ),
    ]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return name_triggers(config), CPP_SHAPE_TRIGGERS

    def run(self) -> None:
        """Report each call of a helper, outside the helper's own body."""
        units = cpp_shape.units(self.parsed, self.config, self.context.mentions)
        verdicts = [(u, judge(u.name, u.facts, self.config)) for u in units]
        defined = catalogue((u.name, v) for u, v in verdicts)
        # Helpers found by their structure are known by identity (`Class::Method`): a
        # method of another class with the same name is not one of them. A named lambda
        # is called by its bare name, in this file only.
        structural = {cpp_identity(u.qualified) for u, v in verdicts if v is Verdict.BY_STRUCTURE}
        self.defined_helpers.update(
            cpp_identity(u.qualified)
            for u, v in verdicts
            if v is Verdict.BY_STRUCTURE and not u.is_lambda
        )
        helpers = structural | self.context.helper_names
        wanted = {bare_name(h) for h in helpers}
        names = tuple(re.escape(n) for n in sorted(defined.copies | wanted))
        if not self.context.mentions(name_triggers(self.config) + names):
            return
        cursor = node_cursor()
        for call in cursor.captures(self.parsed.root).get("call", []):
            name = cpp_body_walk.call_name(self.parsed, call)
            if not name:
                continue
            by_name = is_known_name(name, self.config) and (
                name not in defined.thin or name in defined.copies
            )
            if by_name and self.context.thin_names and name not in defined.copies:
                # A method another file of the run defines as a thin wrapper (GV202's too).
                called = {cpp_identity(c) for c in call_candidates(self.parsed, call, self.config)}
                by_name = not called & self.context.thin_names or bool(called & helpers)
            if not by_name and (
                name not in wanted
                or not {cpp_identity(c) for c in call_candidates(self.parsed, call, self.config)}
                & helpers
            ):
                continue
            if _owner(units, call) == name:
                continue  # the helper's own recursion is part of its definition
            if _in_misread_declaration(call):
                continue  # `TVM_DLL T F(T x);` in a class, misread as a bit-field (GV202's)
            if "supply" in cpp_body_walk.receiver_of(self.parsed, call).lower():
                continue
            self.report(
                call,
                call_message(self.config, Language.CPP, name, _is_dropped(self.parsed, call)),
                subject=name,
            )


def _owner(units: list[cpp_shape.CppUnit], node: Node) -> str:
    """Return the name of the innermost function or named lambda around `node`."""
    around = [
        u
        for u in units
        if u.node.start_byte <= node.start_byte and node.end_byte <= u.node.end_byte
    ]
    return max(around, key=lambda u: u.node.start_byte).name if around else ""


def _in_misread_declaration(call: Node) -> bool:
    parent = call.parent
    return parent is not None and parent.type == "bitfield_clause"


def _is_dropped(parsed: ParsedCpp, call: Node) -> bool:
    """Tell whether a call's result is thrown away (`F(x);`, `(void)F(x);`)."""
    holder = next(
        (
            p
            for p in parsed.ancestors(call)
            if p.type not in ("parenthesized_expression", "cast_expression")
        ),
        None,
    )
    return holder is not None and holder.type == "expression_statement"
