"""GV201: a private unique-name helper ("if the name is taken, append a counter")."""

from __future__ import annotations

from lintgv.config import Config
from lintgv.helpers import cpp_shape, python_shape
from lintgv.helpers.names import (
    CPP_SHAPE_TRIGGERS,
    PYTHON_SHAPE_TRIGGERS,
    Verdict,
    helper_message,
    judge,
    name_triggers,
)
from lintgv.identities import cpp_identity, python_identity
from lintgv.model import Language, Message, Severity
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
    code="GV201",
    phase=MigrationPhase.UNIQUE_NAME_HELPERS,
    reports_callees=True,
    makes_names=True,
    across_files=True,
    finds_helpers=True,
    finds_thin_wrappers=True,
    reports_copies=True,
    name="unique-name-helper",
    severity=Severity.WARNING,
    message=Message(
        "private unique-name helper",
        "use a NameSupply (`name_supply_->FreshName(name)`, Python `supply.fresh_name(name)`)",
    ),
)

_DOC = """A function re-implements "if the name is taken, append a counter".

    ## Why it matters
    Before TVM RFC 0077 ("Name mangling in IRModules", PR 12066), TVM had about a dozen
    private copies of `GetUniqueName`, each numbering collisions its own way (`a1`,
    `a_1`, `a_2` after a reserved `a_1`, ...), none aware of the names the others hand
    out. A `NameSupply` (from TVM 0.25 on, `UniqueNameSupply`) is the one place that
    knows which names are taken, and the one algorithm every pass shares.

    A copy is found by its name (`GetUniqueName`, `_GetUniqueName`, `get_unique_name`,
    `GetUniqueBufferName`, `GenerateUniqueName`: a verb, "unique", an optional word,
    "name"; more with `extra-unique-name-helpers`) and by its structure, so a renamed
    copy is found too: it looks a name up in a map or set (`m.count(x)`, `m.find(x)`,
    `std::find`, `x in used`, `names.get(x)`) and builds a longer one from a counter
    (`x + std::to_string(i)`, `os << x << ++n` then `os.str()`, `StrCat(x, n)`,
    `f"{x}_{i}"`, `x + str(i)`, `"%s_%d" % (x, i)`, `"{}_{}".format(x, i)`), linked
    through a variable or by nesting, either in a loop, by recursion, or with the counter
    kept in the map (`return x + std::to_string(m[x])`), and it returns that name. The
    name must come from the function's input: a parameter (not `self`), a variable
    written from one (`const auto& base = var->name_hint`, `base, n = name, 0`, `base +=
    name`, `base.append(name)`, a loop or structured binding over one), or a stream
    written with one (`ss << expr; name = ss.str()`); a C++ lambda's captures and the
    names a nested Python function takes from the enclosing one count as input. A
    generator that numbers a
    prefix of its own (`prefix_ + std::to_string(n_++)`) takes no name and is no copy;
    its loop is GV204's.
    Methods, free functions, out-of-class definitions (`T C::GetUniqueName(...) {...}`)
    and lambdas stored in a variable are reported. A function that only hands the work to
    a NameSupply (`name_supply_->FreshName(x)`, `supply.fresh_name(x)`, or a method named
    in `extra-supply-names`), or whose body is one delegating call, is not a copy. The
    supply's own implementation is skipped by path (`supply-paths`).

    Helpers found only by their structure are remembered by identity (`Class::Method`,
    or a Python helper's module and name), so their declarations (GV202) and the calls
    that resolve to them (GV203) in other files are reported too.

    ## Fix
    Unsafe (`lintgv fix --unsafe`), one change across files: the copy and its name →
    counter table become one supply, `NameSupply name_supply_ = NameSupply("");` (from
    TVM 0.25 on, `UniqueNameSupply`). In C++, for a method whose table is a
    `std::unordered_map<std::string, int>` member: the method's declaration and
    definition go, the map makes way for the supply member, calls become
    `name_supply_->FreshName(x)` (`ReserveName(x)` where the result is dropped) and
    `map.count(x)` becomes `ContainsName(x)`, in the header and every .cc involved. A
    method that returns something made of the name (`return Doc::Text(unique_prefix);`,
    as TVM's text printers do) stays, as a wrapper: its body becomes `return
    Doc::Text(name_supply_->FreshName(prefix));` and its calls are left as they are; one
    that does more than unique the name (cleans it first) is left to a human. A free
    function that takes its map from each caller (`GetUniqueName(name, &name_map)`)
    goes, with its declarations: each caller's map, a local or a member, makes way for
    `NameSupply name_supply = NameSupply("");` (`name_supply_` for a member), each call
    becomes `name_supply->FreshName(x)` and the map's own mark of a taken name (`map[x] =
    1;`) `name_supply->ReserveName(x, false);`. IRModuleNode's own copy, unique among
    the module's functions (`global_var_map_`) and recording nothing, goes too: each call
    `mod->GetUniqueName(x)` becomes `GlobalVarSupply(mod)->FreshGlobal(x, false)->name_hint`
    (none from TVM 0.25 on, which has no GlobalVarSupply). In
    Python, for a method whose table is set to an empty dict or set in `__init__`, or a
    module-level function whose table is a module-level dict: the same, with
    `fresh_name`, `reserve_name` and `contains_name`. Unsafe because a copy numbers
    collisions its own way (`a1` rather than `a_1`), so generated names may change;
    `lintgv fix --prove-names` runs a C++ copy in a sandbox and calls the change safe
    when it names exactly as the configured release's `NameSupply`. Any other use of
    the table or the copy (iterated, passed around, a subclass, a call through an
    object of unknown type) stops the change, and the summary says why. The JSON and
    SARIF reports carry the change on every finding whose line it rewrites.

    ## Known limits
    The name flow does not follow `std::swap`, `except ... as`, `case` patterns or a
    nested function's `nonlocal`: a copy whose name comes only that way is GV204's loop.
    These are found by their name only, not by their structure: a loop that appends a
    fixed suffix (`name += "_a"`) or a random number (`std::to_string(Random())`, a key
    generator) rather than a counter; a name printed with `sprintf` into a buffer; a
    counter kept in the map but appended through a stream (`os << x << m[x]; return
    os.str();`). A counter kept in the map counts only when the function increments it.
    An inline loop in a function that does not return the name is not reported. A
    method defined inside a class whose head carries a macro (`class TVM_DLL X {...}`)
    is misread by tree-sitter and missed (its declarations there are still GV202's). In
    Python, only functions near a structural trigger are parsed: a `while` loop, a
    `for i in range(...)`/`itertools.count()` loop with a counter-append and a lookup in
    its first lines, a `return` that recurses with a longer name or returns one built from
    a subscript, or a `+= 1` on a subscript followed by a counter-append; a copy spelled
    otherwise is found only by its name.

    ## See also
    GV202 (its declaration), GV203 (its call sites); TVM RFC 0077, PR 12066 and
    `NameSupply::FreshName` (TVM 0.10 to 0.24), `UniqueNameSupply` (TVM 0.25).
    """

_PY_MESSAGE = helper_message(Config(), Language.PYTHON, "Printer.get_unique_name")
_CPP_MESSAGE = helper_message(Config(), Language.CPP, "CodeGenC::GetUniqueName")


class UniqueNameHelperPython(python_shape.ScanVisits, PythonRule):
    __doc__ = _DOC

    META = META
    VALID = [
        # A thin wrapper around a supply.
        Valid(
            "class Builder:\n    def get_unique_name(self, name):\n"
            "        return self._supply.fresh_name(name)\n"
        ),
        # A wrapper around the FFI (Relax's BlockBuilder.get_unique_name).
        Valid(
            "class BlockBuilder:\n    def get_unique_name(self, name_prefix: str) -> str:\n"
            '        """Generate a unique name with a specified prefix."""\n'
            "        return _ffi_api.BlockBuilderGetUniqueName(self, name_prefix)\n"
        ),
        # An abstract method.
        Valid(
            "class Namer:\n    def get_unique_name(self, name):\n"
            "        raise NotImplementedError\n"
        ),
        # Numbered names without a lookup, and a lookup without a counter.
        Valid(
            "def arg_names(n):\n    names = []\n    for i in range(n):\n"
            '        names.append(f"arg_{i}")\n    return names\n'
        ),
        Valid(
            "def check(key, cache):\n    while key in cache:\n"
            '        raise ValueError(f"{key} already in {cache}")\n    return key\n'
        ),
        Valid(
            "def get_unique_name(pool, name):\n    got = pool.take(name)\n    return got\n",
            config={"extra-supply-names": ["take"]},
        ),
        # A lookup that maps a name, with no counter kept or bumped.
        Valid(
            "def invert_flag(flag, prefixes):\n    if flag in prefixes:\n"
            '        return f"--{prefixes[flag]}-{flag}"\n    return flag\n'
        ),
        # A random suffix makes a key unlikely to clash; it names nothing in the IR.
        Valid(
            "def random_key(prefix, cmap):\n    while True:\n"
            "        key = prefix + str(random.random())\n        if key not in cmap:\n"
            "            return key\n"
        ),
        # A binder that names the parts of a value recursively (TVM's TIR parser) returns
        # the value, not the answer of the call with the longer name: no recursion of a copy.
        Valid(
            "def bind_value(self, var_name, value):\n"
            "    if self.var_table.contains(var_name):\n"
            "        self.report_error(var_name)\n"
            "    if isinstance(value, tuple):\n"
            "        for i, v in enumerate(value):\n"
            '            bind_value(self, f"{var_name}_{i}", v)\n'
            "        return value\n"
            "    IRBuilder.name(var_name, value)\n"
            "    return var_name\n"
        ),
        # A check that writes a computed entry into the map it asks (not a counter bumped)
        # and returns messages quoting it (TVM's CUDA dispatch): no copy.
        Valid(
            'def full_lanes(op, ctx):\n    full = {"laneid": 32}\n'
            '    full["warpid"] = int(ctx.extent) // 32\n'
            "    for axis, rng in ctx.intra.items():\n        if axis not in full:\n"
            '            return False, f"unsupported axis {axis!r}"\n'
            "        extent, offset = int(rng[0]), int(rng[1])\n"
            "        if extent != full[axis]:\n"
            '            return False, f"{axis}: {offset + extent} not {full[axis]}"\n'
            "    return True\n"
        ),
        # A generator numbering a prefix it keeps itself takes no name: no copy.
        Valid(
            "class Lowering:\n    def new_temp(self):\n        name = self.prefix\n"
            "        while name in self.used:\n            self.n += 1\n"
            '            name = f"{self.prefix}_{self.n}"\n        return name\n'
        ),
    ]
    INVALID = [
        # Recursion whose answer is returned through variables and an attribute.
        Invalid(
            "class Codegen:\n    def _unique(self, name):\n"
            "        if name not in self.name_map:\n            self.name_map[name] = 1\n"
            "            return name\n        index = self.name_map[name]\n"
            "        self.name_map[name] += 1\n"
            "        result = self._unique(name + str(index))\n"
            "        self.last = result\n        return self.last\n",
            span=(2, 9, 2, 16),
        ),
        # By name: a printer's own copy, with str().
        Invalid(
            "class Printer:\n    def get_unique_name(self, prefix):\n"
            "        name, n = prefix, 0\n        while name in self.names:\n"
            "            n += 1\n            name = prefix + str(n)\n"
            "        self.names.add(name)\n        return name\n",
            span=(2, 9, 2, 24),
            message=_PY_MESSAGE,
        ),
        # By structure: renamed, an f-string, the Relax NameTable's way.
        Invalid(
            "class NameTable:\n    def alloc(self, prefix):\n        name = prefix\n"
            "        i = 1\n        while name in self.taken:\n"
            '            name = f"{prefix}_{i}"\n            i += 1\n'
            "        self.taken.add(name)\n        return name\n",
            span=(2, 9, 2, 14),
            message=helper_message(Config(), Language.PYTHON, "NameTable.alloc"),
        ),
        # A for loop over a range, with format(); the name is tested in the loop body.
        Invalid(
            "def pick(base, used):\n    if base not in used:\n        return base\n"
            "    for i in range(1, 1000):\n"
            '        candidate = "{}_{}".format(base, i)\n'
            "        if candidate not in used:\n            return candidate\n"
            "    raise RuntimeError(base)\n",
            span=(1, 5, 1, 9),
        ),
        # A while True loop with %-formatting and names.get().
        Invalid(
            "def fresh(names, base):\n    n = 0\n    while True:\n"
            '        cand = "%s_%d" % (base, n)\n        if names.get(cand) is None:\n'
            "            names[cand] = 1\n            return cand\n        n += 1\n",
            span=(1, 5, 1, 10),
        ),
        # By structure: the name flows from the parameter by unpacking, in a closure.
        Invalid(
            "def make_namer(used):\n    def fresh(var):\n"
            "        base, n = var.name_hint, 0\n        cand = base\n"
            "        while cand in used:\n            n += 1\n"
            '            cand = f"{base}_{n}"\n        return cand\n    return fresh\n',
            span=(2, 9, 2, 14),
        ),
        Invalid(
            "def make_namer(prefix, used):\n    def fresh():\n        cand = prefix\n"
            "        i = 0\n        while cand in used:\n            i += 1\n"
            '            cand = f"{prefix}_{i}"\n        return cand\n    return fresh\n',
            span=(2, 9, 2, 14),
        ),
        # Recursion: _GetUniqueName's way.
        Invalid(
            "class Codegen:\n    def _unique(self, name):\n"
            "        if name not in self.name_map:\n            self.name_map[name] = 1\n"
            "            return name\n        index = self.name_map[name]\n"
            "        self.name_map[name] += 1\n"
            "        return self._unique(name + str(index))\n",
            span=(2, 9, 2, 16),
        ),
        # A counter kept in the map, no retry: GetUniqueBufferName's way.
        Invalid(
            "class Extractor:\n    def buffer_name(self, name):\n"
            "        if name not in self.buffer_names:\n"
            "            self.buffer_names[name] = 1\n            return name\n"
            "        self.buffer_names[name] += 1\n"
            '        return f"{name}{self.buffer_names[name]}"\n',
            span=(2, 9, 2, 20),
        ),
        # Named in the configuration.
        Invalid(
            "def uniquify(name, used):\n    used.add(name)\n    return name\n",
            span=(1, 5, 1, 13),
            config={"extra-unique-name-helpers": ["tools.uniquify"]},
            message=helper_message(Config(), Language.PYTHON, "uniquify"),
        ),
        Invalid(
            "class Printer:\n    def get_unique_name(self, prefix):\n"
            "        return prefix + str(len(self.names))\n",
            span=(2, 9, 2, 24),
            config={"tvm-version": "0.26"},
            message="private unique-name helper `Printer.get_unique_name`; use a "
            "UniqueNameSupply (`names.fresh_name(name)`)",
        ),
    ]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        # Names join the function triggers: one alternation fewer to scan every file with.
        return (), name_triggers(config) + PYTHON_SHAPE_TRIGGERS

    def __init__(self, context: RuleContext, parsed: ParsedPython) -> None:
        super().__init__(context, parsed)
        self._classes: list[str] = []
        self._scan = python_shape.FunctionScan()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node.name.value)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._scan.enter()

    def visit_Call(self, node: cst.Call) -> None:
        self._scan.see(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        verdict = self._scan.leave(original_node, self.config)
        if verdict not in (Verdict.BY_NAME, Verdict.BY_STRUCTURE):
            return
        name = original_node.name.value
        owner = self._classes[-1] + "." if self._classes else ""
        identity = python_identity(self.parsed.module_name, owner + name)
        message = helper_message(self.config, Language.PYTHON, owner + name)
        # The subject names the copy as its file does, as the planner names it too.
        self.report(original_node.name, message, subject=owner + name)
        if verdict is Verdict.BY_STRUCTURE:
            self.defined_helpers.add(identity)


class UniqueNameHelperCpp(CppRule):
    __doc__ = _DOC

    META = META
    QUERY = ""  # `run` walks the functions itself
    VALID = [
        # Relax's BlockBuilder: a thin wrapper around its NameSupply.
        Valid(
            "class BlockBuilderImpl {\n"
            "  std::string GetUniqueName(const std::string& prefix) {\n"
            "    return name_supply_->FreshName(prefix, false, false);\n  }\n"
            "  NameSupply name_supply_;\n};\n"
        ),
        # A printer that hands off to its base class's method of the same name, after a
        # map lookup and a string built with a stream: a call of Base::F is not recursion.
        Valid(
            "void MyCodeGen::VisitExpr_(const CallNode* op, std::ostream& os) {\n"
            "  auto it = intrinsics_.find(op->op);\n"
            "  if (it == intrinsics_.end()) {\n"
            "    std::ostringstream name;\n"
            '    name << "call_" << op->args.size();\n'
            "    CodeGenC::VisitExpr_(op, os);\n"
            "    return;\n  }\n"
            "  os << it->second;\n}\n"
        ),
        # The same, through `this->Base::F`.
        Valid(
            "void MyCodeGen::VisitStmt_(const ForNode* op) {\n"
            "  if (loops_.count(op->loop_var->name_hint)) {\n"
            "    this->CodeGenC::VisitStmt_(op);\n    return;\n  }\n"
            "  std::string v = op->loop_var->name_hint;\n"
            '  loops_[v] = v + "_" + std::to_string(n_);\n}\n'
        ),
        # A lookup by id, and numbered keys looked up in a loop: no name is made unique.
        Valid(
            "std::string CodeGenC::GetVarID(const VarNode* v) const {\n"
            "  auto it = var_idmap_.find(v);\n  ICHECK(it != var_idmap_.end());\n"
            '  return "v" + std::to_string(it->second);\n}\n'
            "int CountArgs(const Map<String, ObjectRef>& attrs) {\n  int found = 0;\n"
            "  for (int i = 0; i < 8; ++i) {\n"
            '    std::string key = "arg" + std::to_string(i);\n'
            "    if (attrs.count(key)) ++found;\n  }\n  return found;\n}\n"
        ),
        # A generator that numbers a prefix it keeps itself takes no name: the name it
        # returns does not come from its input, so it is no copy (its loop is GV204's).
        Valid(
            "std::string Lowering::NewTemp() {\n  std::string name = prefix_;\n"
            "  while (used_.count(name)) {\n"
            '    name = prefix_ + "_" + std::to_string(counter_++);\n  }\n'
            "  return name;\n}\n"
        ),
        # A declaration is GV202's.
        Valid("class CodeGenC {\n  std::string GetUniqueName(std::string prefix);\n};\n"),
        # A lookup that maps a name, with no counter bumped; a substring search in a loop.
        Valid(
            "std::string Alias(const std::string& name) {\n"
            "  if (aliases_.count(name)) return name + std::to_string(aliases_[name]);\n"
            "  return name;\n}\n"
            "std::string Render(std::string msg, int n) {\n"
            "  for (int i = 0; i < n; ++i) {\n"
            '    std::string src = "{" + std::to_string(i) + "}";\n'
            "    for (size_t pos; (pos = msg.find(src)) != std::string::npos;) {\n"
            '      msg.replace(pos, src.length(), "x");\n    }\n  }\n  return msg;\n}\n'
        ),
    ]
    INVALID = [
        # Recursion whose answer is returned through variables (one a reference), beside a
        # copy whose loop has the file's functions analysed.
        Invalid(
            "inline String PickName(std::string hint, const std::unordered_set<String>& used) {\n"
            "  std::string name = hint;\n"
            "  for (int i = 1; used.count(name) > 0; ++i) {\n"
            '    name = hint + "_" + std::to_string(i);\n  }\n  return name;\n}\n'
            "std::string GraphCodegen::OpName(const std::string& name) {\n"
            "  if (!name_map_.count(name)) {\n    name_map_[name] = 1;\n    return name;\n  }\n"
            "  auto index = name_map_[name];\n  name_map_[name] += 1;\n"
            "  const std::string& r = OpName(name + std::to_string(index));\n"
            "  auto out = r;\n  return out;\n}\n",
            span=(1, 15, 1, 23),
            also=((8, 13, 8, 33),),
        ),
        # By name: CodeGenSourceBase's copy, out of its class, with a string stream.
        Invalid(
            "std::string CodeGenC::GetUniqueName(std::string prefix) {\n"
            "  auto it = name_alloc_map_.find(prefix);\n"
            "  if (it != name_alloc_map_.end()) {\n    while (true) {\n"
            "      std::ostringstream os;\n      os << prefix << (++it->second);\n"
            "      std::string name = os.str();\n"
            "      if (name_alloc_map_.count(name) == 0) {\n        prefix = name;\n"
            "        break;\n      }\n    }\n  }\n  name_alloc_map_[prefix] = 0;\n"
            "  return prefix;\n}\n",
            span=(1, 13, 1, 36),
            message=_CPP_MESSAGE,
        ),
        # By structure: an inline method renamed, the lookup in the loop condition.
        Invalid(
            "struct CreateFuncInfo {\n  String AllocBlockName(const String& prefix) {\n"
            "    String unique_prefix = prefix;\n    auto it = name_count.find(prefix);\n"
            "    while (name_count.count(unique_prefix)) {\n"
            '      unique_prefix = prefix + "_" + std::to_string(++it->second);\n    }\n'
            "    name_count[unique_prefix] = 0;\n    return unique_prefix;\n  }\n"
            "  std::unordered_map<String, int> name_count;\n};\n",
            span=(2, 10, 2, 24),
            message=helper_message(Config(), Language.CPP, "CreateFuncInfo::AllocBlockName"),
        ),
        # A free function taking the map, assignment inside the lookup (NameTable's way).
        Invalid(
            "inline std::string MakeNameUnique(std::string prefix,\n"
            "                                  std::unordered_map<std::string, int>* m) {\n"
            "  std::string unique_prefix = prefix;\n  auto it = m->find(prefix);\n"
            "  if (it != m->end()) {\n"
            "    while (m->count(unique_prefix = prefix + std::to_string(++it->second)) > 0) {\n"
            "    }\n  }\n  (*m)[unique_prefix] = 0;\n  return unique_prefix;\n}\n",
            span=(1, 20, 1, 34),
        ),
        # A for loop with the lookup in its condition (GenerateUniqueName's way).
        Invalid(
            "inline String PickName(std::string hint, const std::unordered_set<String>& used) {\n"
            "  std::string name = hint;\n"
            "  for (int i = 1; used.count(name) > 0; ++i) {\n"
            '    name = hint + "_" + std::to_string(i);\n  }\n  return name;\n}\n',
            span=(1, 15, 1, 23),
        ),
        # Beside a copy, a binder that names the parts of a value recursively returns the
        # name it was given, not the answer of the call with the longer name: not a copy.
        Invalid(
            "inline String PickName(std::string hint, const std::unordered_set<String>& used) {\n"
            "  std::string name = hint;\n"
            "  for (int i = 1; used.count(name) > 0; ++i) {\n"
            '    name = hint + "_" + std::to_string(i);\n  }\n  return name;\n}\n'
            "std::string Bind(const std::string& name, const Array<Var>& parts) {\n"
            "  ICHECK(!bound_.count(name));\n"
            "  for (size_t i = 0; i < parts.size(); ++i) {\n"
            '    Bind(name + "_" + std::to_string(i), {parts[i]});\n  }\n'
            "  return name;\n}\n",
            span=(1, 15, 1, 23),
        ),
        # Recursion (_GetUniqueName's way), renamed.
        Invalid(
            "class GraphCodegen {\n  std::string OpName(const std::string& name) {\n"
            "    if (!name_map_.count(name)) {\n      name_map_[name] = 1;\n"
            "      return name;\n    }\n    auto index = name_map_[name];\n"
            "    name_map_[name] += 1;\n"
            "    return OpName(name + std::to_string(index));\n  }\n};\n",
            span=(2, 15, 2, 21),
        ),
        # The counter kept in the map, no retry (GetUniqueBufferName's way), renamed.
        Invalid(
            "std::string BufferInfoExtractor::NameFor(std::string name) {\n"
            "  if (buffer_names.find(name) == buffer_names.end()) {\n"
            "    buffer_names[name] = 1;\n    return name;\n  } else {\n"
            "    buffer_names[name] = buffer_names[name] + 1;\n"
            "    return name + std::to_string(buffer_names[name]);\n  }\n}\n",
            span=(1, 13, 1, 41),
        ),
        # A lambda stored in a variable, with StrCat.
        Invalid(
            "void Rename(std::vector<std::string>* names, std::set<std::string> used) {\n"
            "  auto fresh = [&](const std::string& hint) {\n    std::string name = hint;\n"
            "    int n = 0;\n    while (used.find(name) != used.end()) {\n"
            '      name = StrCat(hint, "_", ++n);\n    }\n    used.insert(name);\n'
            "    return name;\n  };\n  for (auto& s : *names) s = fresh(s);\n}\n",
            span=(2, 8, 2, 13),
            message=helper_message(Config(), Language.CPP, "fresh"),
        ),
        # By name, in a header: Relax's NameTable, an inline method of a utility class.
        Invalid(
            "class NameTable {\n public:\n"
            "  inline std::string GetUniqueName(std::string prefix) {\n"
            "    std::replace(prefix.begin(), prefix.end(), '.', '_');\n"
            "    std::string unique_prefix = prefix;\n    auto it = alloc_map_.find(prefix);\n"
            "    if (it != alloc_map_.end()) {\n"
            "      while (alloc_map_.count(unique_prefix = prefix + "
            "std::to_string(++it->second)) > 0) {\n      }\n    }\n"
            "    alloc_map_[unique_prefix] = 0;\n    return unique_prefix;\n  }\n\n"
            " private:\n  std::unordered_map<std::string, int> alloc_map_;\n};\n",
            span=(3, 22, 3, 35),
            message=helper_message(Config(), Language.CPP, "NameTable::GetUniqueName"),
            path="include/tvm/relax/utils.h",
        ),
        # An exported definition: the macro makes tree-sitter misread the return type.
        Invalid(
            "TVM_REGISTER_NODE_TYPE(PrinterNode);\n\n"
            "TVM_DLL std::string CodeGenX::GetUniqueName(std::string prefix) {\n"
            "  std::string name = prefix;\n"
            "  for (int i = 1; used_.count(name); ++i) {\n"
            '    name = prefix + "_" + std::to_string(i);\n  }\n'
            "  used_.insert(name);\n  return name;\n}\n",
            span=(3, 31, 3, 44),
            message=helper_message(Config(), Language.CPP, "CodeGenX::GetUniqueName"),
        ),
        # By structure: the name is bound by reference to a field of the parameter, and
        # the counter kept in the map.
        Invalid(
            "std::string Dedup(const VarNode* op) {\n"
            "  const std::string& key = op->name_hint;\n"
            "  if (counts_.count(key)) {\n"
            "    return key + std::to_string(counts_[key]++);\n  }\n"
            "  counts_[key] = 0;\n  return key;\n}\n",
            span=(1, 13, 1, 18),
        ),
        Invalid(
            "std::string Dedup(const std::string& name TVM_UNUSED) {\n"
            "  std::string c;\n  c.append(name);\n  int i = 0;\n"
            '  while (used_.count(c)) c = name + "_" + std::to_string(i++);\n'
            "  return c;\n}\n",
            span=(1, 13, 1, 18),
        ),
        # By structure: the name flows from the parameter through a stream
        # (`ss << expr; name = ss.str()`), then takes a counter until it is free.
        Invalid(
            "struct Namespace {\n  std::string NewName(const PrimExpr& expr) {\n"
            "    std::stringstream ss;\n    ss << expr;\n    auto name = ss.str();\n"
            "    int idx = 1;\n"
            '    std::string check = name + "$" + std::to_string(idx);\n'
            "    while (used.count(check)) {\n"
            '      check = name + "$" + std::to_string(++idx);\n    }\n'
            "    used.insert(check);\n    return check;\n  }\n"
            "  std::unordered_set<std::string> used;\n};\n",
            span=(2, 15, 2, 22),
            message=helper_message(Config(), Language.CPP, "Namespace::NewName"),
        ),
        # By name: a printer's copy that returns a Doc; and IRModuleNode's, in 0.25 terms.
        Invalid(
            "Doc RelayTextPrinter::GetUniqueName(const std::string& prefix) {\n"
            "  std::string unique_prefix = prefix;\n"
            "  while (name_alloc_map_.count(unique_prefix)) {\n"
            '    unique_prefix = prefix + "_" + std::to_string(++counter_);\n  }\n'
            "  name_alloc_map_[unique_prefix] = 0;\n  return Doc::Text(unique_prefix);\n}\n",
            span=(1, 5, 1, 36),
        ),
        Invalid(
            "String IRModuleNode::GetUniqueName(const String& name) {\n"
            "  String result = name;\n  int suffix = 0;\n  while (true) {\n"
            "    auto it = global_var_map_.find(result);\n"
            "    if (it == global_var_map_.end()) {\n      return result;\n    }\n"
            "    std::ostringstream os;\n"
            '    os << name << "_" << ++suffix;\n    result = os.str();\n  }\n}\n',
            span=(1, 8, 1, 35),
            config={"tvm-version": "0.26"},
            message="private unique-name helper `IRModuleNode::GetUniqueName`; use a "
            "UniqueNameSupply (`names->FreshName(name)`)",
        ),
    ]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return name_triggers(config), CPP_SHAPE_TRIGGERS

    def run(self) -> None:
        """Report every copy among the file's functions and named lambdas."""
        verdicts = [
            (unit, judge(unit.name, unit.facts, self.config))
            for unit in cpp_shape.units(self.parsed, self.config, self.context.mentions)
        ]
        for unit, verdict in verdicts:
            if verdict not in (Verdict.BY_NAME, Verdict.BY_STRUCTURE):
                continue
            message = helper_message(self.config, Language.CPP, unit.qualified)
            self.report(unit.name_node, message, subject=unit.qualified)
            if verdict is Verdict.BY_STRUCTURE and not unit.is_lambda:
                self.defined_helpers.add(cpp_identity(unit.qualified))
        self.thin_helpers.update(cpp_shape.thin_wrappers(verdicts))
