"""GV2xx in C++: IRModuleNode's own GetUniqueName, which makes a name unique among the
module's functions and records nothing, gives way to a GlobalVarSupply made from the
module, as TVM's #12066 did by hand.

One change across every file involved:

* each call `mod->GetUniqueName(x)` becomes
  `GlobalVarSupply(mod)->FreshGlobal(x, false)->name_hint` (through an `IRModuleNode*`
  or `&`, `GetRef<IRModule>(node)`; inside the class's out-of-line methods,
  `GetRef<IRModule>(this)`);
* the method's declaration and definition go, with their doc comments;
* `#include <tvm/ir/global_var_supply.h>` is added to each file with a call.

The supply is made anew at each call from the module as it is then: like the copy, it
sees exactly the module's functions and remembers nothing. A call through an object
whose type cannot be told, a call in the class's own body or header (where no supply can
be made), or the name in a macro stops the change; a derived class's own method of that
name is left alone. Only TVM's class counts (`tvm::IRModuleNode`). The change is unsafe:
the supply turns a dot into an underscore, which the copy does not, and a copy that reads
the module cannot be run alone to compare. TVM 0.25 removed GlobalVarSupply: from there
on the copy is left to a human.
"""

import tree_sitter

from lintgv.codemods import cpp_edits, cpp_scope
from lintgv.codemods.cpp_lookup import declares_method, macro_mentions, tvm_name
from lintgv.codemods.includes import GLOBAL_VAR_SUPPLY_HEADER, include_edit
from lintgv.codemods.unique_name_copies import ModuleCopy, Project, Unit, class_of_code
from lintgv.codemods.unique_name_edits import Edits, nodes_of, where
from lintgv.codemods.unique_name_shapes import NotRewritable
from lintgv.parsing.cpp_nodes import within

EVIDENCE = (
    "the supply turns a dot in a name into an underscore, which the copy does not; a copy "
    "that reads its module's functions cannot be run alone to compare"
)
_HEADERS = frozenset({".h", ".hh", ".hpp", ".hxx", ".cuh"})


class ModuleRewrite:
    def __init__(self, project: Project, copy: ModuleCopy) -> None:
        self.project = project
        self.copy = copy
        self.edits = Edits()

    def plan(self) -> tuple[Edits, int]:
        """Return the change's edits and the number of calls rewritten."""
        copy = self.copy
        sites = 0
        for unit in self.project.users(copy.name):
            macro = macro_mentions(unit.parsed, copy.name)
            if macro is not None and "IRModule" in unit.text:
                raise NotRewritable(f"`{copy.name}` is named in a macro at {where(unit, macro)}")
            called = False
            for call in nodes_of(unit.parsed.root, "call_expression"):
                if unit.path == copy.unit.path and within(copy.definition, call):
                    continue
                module = self._module(unit, call)
                if module is None:
                    continue
                self._check_place(unit, call)
                arguments = call.child_by_field_name("arguments")
                inner = unit.parsed.text(arguments)[1:-1].strip() if arguments else ""
                supply = tvm_name(unit.parsed, call, "GlobalVarSupply")
                new = f"{supply}({module})->FreshGlobal({inner}, false)->name_hint"
                self.edits.add(unit, unit.parsed.replace(call, new))
                sites += 1
                called = True
            include = include_edit(unit.parsed, GLOBAL_VAR_SUPPLY_HEADER) if called else None
            if include is not None:
                self.edits.add(unit, include)
        if copy.declaration is not None:
            declaration = cpp_edits.delete(copy.class_unit.parsed, copy.declaration)
            self.edits.add(copy.class_unit, declaration)
        self.edits.add(copy.unit, cpp_edits.delete(copy.unit.parsed, copy.definition))
        return self.edits, sites

    def _check_place(self, unit: Unit, call: tree_sitter.Node) -> None:
        """Stop at a call where a GlobalVarSupply cannot be made: inside the module
        class's own body (IRModule is not complete there), or in the header that defines
        it (which global_var_supply.h includes)."""
        copy = self.copy
        if unit.path != copy.class_unit.path:
            return
        if within(copy.class_node, call) or unit.path.suffix in _HEADERS:
            raise NotRewritable(
                f"it is called at {where(unit, call)}, in the header or class body that "
                f"defines `{copy.cls}`, where no GlobalVarSupply can be made; move that "
                "call out first"
            )

    def _module(self, unit: Unit, call: tree_sitter.Node) -> str | None:
        """Return the module a call of the copy asks, as an IRModule expression; None
        when the call is not one of the copy."""
        parsed = unit.parsed
        func = call.child_by_field_name("function")
        if func is None:
            return None
        name, cls = self.copy.name, self.copy.cls
        text = cpp_scope.normalized(parsed.text(func))
        if text in (name, f"{cls}::{name}", f"this->{name}"):
            owner = class_of_code(parsed, call)
            if owner is None or not self.project.derives(owner, cls):
                return None  # another function of that name
            if owner != cls and any(
                declares_method(u.parsed, c, name) for u, c in self.project.classes(owner)
            ):
                return None  # a derived class's own method of that name
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
        kind = binding.type_name if binding is not None else ""
        object_ = parsed.text(receiver)
        if kind == "IRModule" and operator == "->" and binding and not binding.pointer:
            return object_
        if kind == cls and binding is not None and binding.pointer == (operator == "->"):
            get_ref = tvm_name(parsed, call, "GetRef")
            module = tvm_name(parsed, call, "IRModule")
            return f"{get_ref}<{module}>({'' if binding.pointer else '&'}{object_})"
        if kind and kind not in ("IRModule", cls) and not self.project.derives(kind, cls):
            return None  # another class's method of that name
        raise NotRewritable(
            f"cannot tell what `{object_}` at {where(unit, call)} is, or name it as an IRModule"
        )
