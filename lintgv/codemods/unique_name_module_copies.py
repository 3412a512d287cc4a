"""GV2xx in C++: IRModuleNode's own GetUniqueName, which makes a name unique among the
module's functions and records nothing, gives way to a GlobalVarSupply made from the
module, as TVM's #12066 did by hand.

One change across every file involved:

* each call `mod->GetUniqueName(x)` becomes
  `GlobalVarSupply(mod)->FreshGlobal(x, false)->name_hint` (inside the class's own
  methods, `GlobalVarSupply(GetRef<IRModule>(this))`);
* the method's declaration and definition go, with their doc comments;
* `#include <tvm/ir/global_var_supply.h>` is added to each file with a call.

The supply is made anew at each call from the module as it is then: like the copy, it
sees exactly the module's functions and remembers nothing. A call through an object
whose type cannot be told stops the change. The change is unsafe: the supply turns a dot
into an underscore, which the copy does not, and a copy that reads the module cannot be
run alone to compare. TVM 0.25 removed GlobalVarSupply: from there on the copy is left to a
human.
"""

import tree_sitter

from lintgv.codemods import cpp_edits, cpp_scope
from lintgv.codemods.includes import GLOBAL_VAR_SUPPLY_HEADER, include_edit
from lintgv.codemods.unique_name_copies import (
    Edits,
    ModuleCopy,
    NotRewritable,
    Project,
    Unit,
    class_of_code,
    nodes_of,
)

EVIDENCE = (
    "the supply turns a dot in a name into an underscore, which the copy does not; a copy "
    "that reads its module's functions cannot be run alone to compare"
)
_MODULE_TYPES = frozenset({"IRModule"})


class ModuleRewrite:
    def __init__(self, project: Project, copy: ModuleCopy) -> None:
        self.project = project
        self.copy = copy
        self.edits = Edits()

    def plan(self) -> tuple[Edits, int]:
        """Return the change's edits and the number of calls rewritten."""
        copy = self.copy
        sites = 0
        for unit in self.project.units(copy.name):
            called = False
            for call in nodes_of(unit.parsed.root, "call_expression"):
                if unit.path == copy.unit.path and _within(copy.definition, call):
                    continue
                module = self._module(unit, call)
                if module is None:
                    continue
                arguments = call.child_by_field_name("arguments")
                inner = unit.parsed.text(arguments)[1:-1].strip() if arguments else ""
                new = f"GlobalVarSupply({module})->FreshGlobal({inner}, false)->name_hint"
                self.edits.add(unit, unit.parsed.replace(call, new))
                sites += 1
                called = True
            include = include_edit(unit.parsed, GLOBAL_VAR_SUPPLY_HEADER) if called else None
            if include is not None:
                self.edits.add(unit, include)
        if copy.declaration is not None:
            self.edits.add(
                copy.class_unit, cpp_edits.delete(copy.class_unit.parsed, copy.declaration)
            )
        self.edits.add(copy.unit, cpp_edits.delete(copy.unit.parsed, copy.definition))
        return self.edits, sites

    def _module(self, unit: Unit, call: tree_sitter.Node) -> str | None:
        """Return the module a call of the copy asks, as an IRModule expression; None
        when the call is not one of the copy."""
        parsed = unit.parsed
        func = call.child_by_field_name("function")
        if func is None:
            return None
        name = self.copy.name
        text = cpp_scope.normalized(parsed.text(func))
        if text in (name, f"{self.copy.cls}::{name}", f"this->{name}"):
            owner = class_of_code(parsed, call)
            if owner is None or not self.project.derives(owner, self.copy.cls):
                return None  # another function of that name
            return "GetRef<IRModule>(this)"
        field = func.child_by_field_name("field") if func.type == "field_expression" else None
        receiver = func.child_by_field_name("argument") if field is not None else None
        if field is None or receiver is None or parsed.text(field) != name:
            return None
        operator = func.children[1].type if len(func.children) > 2 else "->"
        binding = (
            cpp_scope.scope_at(parsed, call).find(parsed.text(receiver))
            if receiver.type == "identifier"
            else None
        )
        if binding is not None and binding.type_name in _MODULE_TYPES and operator == "->":
            return parsed.text(receiver)
        if binding is None and "IRModule" in unit.text:
            raise NotRewritable(
                f"cannot tell the type of `{parsed.text(receiver)}` at "
                f"{unit.path}:{call.start_point[0] + 1}"
            )
        return None


def _within(outer: tree_sitter.Node, node: tree_sitter.Node) -> bool:
    return outer.start_byte <= node.start_byte < outer.end_byte
