"""GV202: the declaration of a private unique-name helper, in a header or a class body."""

import re

import tree_sitter

from lintgv.config import Config
from lintgv.helpers import cpp_shape
from lintgv.helpers.names import (
    CPP_SHAPE_TRIGGERS,
    Catalogue,
    Verdict,
    catalogue,
    declaration_message,
    is_known_name,
    judge,
    name_triggers,
)
from lintgv.identities import bare_name, cpp_identity
from lintgv.model import Message, Severity
from lintgv.parsing.cpp_nodes import function_declarator_in
from lintgv.rules._base import CppRule, Invalid, MigrationPhase, RuleMeta, Valid

Node = tree_sitter.Node
META = RuleMeta(
    code="GV202",
    phase=MigrationPhase.UNIQUE_NAME_HELPERS,
    reports_callees=True,
    makes_names=True,
    across_files=True,
    finds_thin_wrappers=True,
    name="unique-name-helper-declaration",
    severity=Severity.WARNING,
    message=Message(
        "declaration of a private unique-name helper",
        "remove it with the helper and keep a supply member (`NameSupply name_supply_`)",
    ),
)
_DECLARATIONS = frozenset({"field_declaration", "declaration"})


def declared_function(node: Node) -> Node | None:
    """Return the name node of the function a declaration declares, if it declares one."""
    for declarator in node.children_by_field_name("declarator"):
        function = function_declarator_in(declarator)
        name = function.child_by_field_name("declarator") if function is not None else None
        if name is not None:
            return name
    return None


class UniqueNameHelperDeclarationCpp(CppRule):
    """A private unique-name helper is declared (a prototype in a header or a class).

    ## Why it matters
    The declaration is part of the copy GV201 reports: it keeps a second way of naming
    things in the class's interface, where derived classes and other files find it and
    call it instead of the `NameSupply`. It goes when the helper goes.

    Declarations at class, namespace or file level are reported, in headers and in `.cc`
    files alike, when they name a known helper (`GetUniqueName`, `_GetUniqueName`,
    `GetUniqueBufferName`, ...; more with `extra-unique-name-helpers`), a helper this file
    defines (found by its structure), or a helper found by its structure in another file
    of the same run. A name whose only definition in this file is a thin wrapper around a
    NameSupply is not reported, nor a method of a class (`Printer::GetUniqueName`) that
    another file of the run defines only as such a wrapper.

    ## Fix
    Unsafe (`lintgv fix --unsafe`), as part of GV201's change that replaces the copy
    with a `NameSupply` member: the declaration goes, with its doc comment. A
    declaration of a copy that change cannot replace is left (the summary says why).

    ## Known limits
    A declaration is matched by name alone: an unrelated function with the name of a
    helper defined elsewhere in the run is reported too. A wrapper defined in a file
    outside the run (a header checked alone, in an editor before the workspace is
    indexed) is not known: its declaration is reported. In the run of `lintgv fix` that
    makes a copy a wrapper, the files its change touched know the wrapper; any other
    learns it in the next check.

    ## See also
    GV201 (the definition), GV203 (the call sites).
    """

    META = META
    QUERY = ""  # `run` walks the declarations itself
    VALID = [
        Valid("class CodeGenC {\n  std::string GetVarName(std::string prefix);\n};\n"),
        # Extractor::NameFor is a helper; the printer's method of the same name is not.
        Valid(
            "class Printer {\n  std::string NameFor(const Var& v);\n};\n"
            "std::string Extractor::NameFor(std::string name) {\n"
            "  if (names_.find(name) == names_.end()) {\n    names_[name] = 1;\n"
            "    return name;\n  }\n  names_[name] = names_[name] + 1;\n"
            "  return name + std::to_string(names_[name]);\n}\n"
        ),
        # Inside a body, this is a variable built from `prefix`, not a declaration.
        Valid("void F(std::string prefix) {\n  std::string GetUniqueName(prefix);\n}\n"),
        # The only definition here is a thin wrapper around a NameSupply.
        Valid(
            "class Builder {\n  std::string GetUniqueName(const std::string& prefix);\n"
            "  NameSupply name_supply_;\n};\n"
            "std::string Builder::GetUniqueName(const std::string& prefix) {\n"
            "  return name_supply_->FreshName(prefix);\n}\n"
        ),
    ]
    INVALID = [
        Invalid(
            "#ifndef TVM_TARGET_SOURCE_CODEGEN_SOURCE_BASE_H_\n"
            "#define TVM_TARGET_SOURCE_CODEGEN_SOURCE_BASE_H_\n"
            "class CodeGenSourceBase {\n protected:\n"
            "  /*! \\brief Get a unique name with the given prefix. */\n"
            "  std::string GetUniqueName(std::string prefix);\n};\n#endif\n",
            span=(6, 15, 6, 28),
            message="declaration of private unique-name helper `CodeGenSourceBase::GetUniqueName`; "
            "remove it with the helper and keep a supply member (`NameSupply name_supply_`)",
            path="src/target/source/codegen_source_base.h",
        ),
        # A free function in a namespace (te_compiler_cache.h).
        Invalid(
            "namespace tvm {\nnamespace relay {\n"
            "std::string GetUniqueName(std::string name, "
            "std::unordered_map<std::string, int>* name_map);\n}\n}\n",
            span=(3, 13, 3, 26),
            path="src/relay/backend/te_compiler_cache.h",
        ),
        # A printer's, returning a Doc, and IRModuleNode's, in 0.25 terms.
        Invalid(
            "class TVMScriptPrinter {\n  Doc GetUniqueName(std::string prefix);\n};\n",
            span=(2, 7, 2, 20),
            path="src/printer/tvmscript_printer.cc",
        ),
        Invalid(
            "class IRModuleNode {\n public:\n"
            "  TVM_DLL String GetUniqueName(const String& name);\n};\n",
            span=(3, 18, 3, 31),
            config={"tvm-version": "0.26"},
            message="declaration of private unique-name helper `IRModuleNode::GetUniqueName`; "
            "remove it with the helper and keep a supply member (`UniqueNameSupply names_`)",
            path="include/tvm/ir/module.h",
        ),
        # A renamed copy, found by its structure, declared in its class.
        Invalid(
            "class Extractor {\n  std::string NameFor(std::string name);\n"
            "  std::unordered_map<std::string, int> names_;\n};\n"
            "std::string Extractor::NameFor(std::string name) {\n"
            "  if (names_.find(name) == names_.end()) {\n    names_[name] = 1;\n"
            "    return name;\n  }\n  names_[name] = names_[name] + 1;\n"
            "  return name + std::to_string(names_[name]);\n}\n",
            span=(2, 15, 2, 22),
        ),
        # A helper that returns a reference: its name is past the `&`.
        Invalid(
            "class Namer {\n  const std::string& GetUniqueName(const std::string& prefix);\n};\n",
            span=(2, 22, 2, 35),
        ),
        Invalid(
            "class Lowerer {\n  std::string Rename(const std::string& name);\n};\n",
            span=(2, 15, 2, 21),
            config={"extra-unique-name-helpers": ["Lowerer::Rename"]},
        ),
        # Macros that make tree-sitter misread the class or the member.
        Invalid(
            "class TVM_DLL CodeGenBase {\n public:\n"
            "  std::string GetUniqueName(std::string prefix);\n};\n",
            span=(3, 15, 3, 28),
            message="declaration of private unique-name helper `CodeGenBase::GetUniqueName`; "
            "remove it with the helper and keep a supply member (`NameSupply name_supply_`)",
            path="src/target/source/codegen_base.h",
        ),
        Invalid(
            "class CodeGenBase {\n public:\n"
            "  TVM_DLL std::string GetUniqueName(std::string prefix);\n};\n",
            span=(3, 23, 3, 36),
            message="declaration of private unique-name helper `CodeGenBase::GetUniqueName`; "
            "remove it with the helper and keep a supply member (`NameSupply name_supply_`)",
            path="src/target/source/codegen_base.h",
        ),
    ]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return name_triggers(config), CPP_SHAPE_TRIGGERS

    def run(self) -> None:
        """Report each class-, namespace- or file-level declaration of a helper."""
        verdicts = [
            (u, judge(u.name, u.facts, self.config))
            for u in cpp_shape.units(self.parsed, self.config, self.context.mentions)
        ]
        defined = catalogue((u.name, v) for u, v in verdicts)
        self.thin_helpers.update(cpp_shape.thin_wrappers(verdicts))
        # Helpers found by their structure are known by identity: a declaration of a
        # same-named method of another class is not theirs.
        structural = {
            cpp_identity(u.qualified)
            for u, v in verdicts
            if v is Verdict.BY_STRUCTURE and not u.is_lambda
        }
        helpers = frozenset(structural | self.context.helper_names)
        wanted = {bare_name(h) for h in helpers}
        names = tuple(re.escape(n) for n in sorted(defined.copies | wanted))
        if not self.context.mentions(name_triggers(self.config) + names):
            return
        stack = [self.parsed.root]
        while stack:
            node = stack.pop()
            if node.type == "compound_statement" and not is_misread_class_body(node):
                continue  # a body: `T f(x);` there declares a variable
            stack.extend(reversed(node.named_children))
            if node.type in _DECLARATIONS:
                self._check(node, defined, helpers)

    def _check(self, node: Node, defined: Catalogue, helpers: frozenset[str]) -> None:
        name_node = declared_function(node) or misread_member_function(node)
        if name_node is None:
            return
        text = "".join(self.text(name_node).split())
        name = text.rsplit("::", 1)[-1]
        owner = _class_name(self, node)
        qualified = f"{owner}::{name}" if owner and "::" not in text else text
        identity = cpp_identity(qualified)
        wanted = is_known_name(name, self.config) or identity in helpers
        if not wanted or (name in defined.thin and name not in defined.copies):
            return
        if identity in self.context.thin_names and identity not in helpers:
            return  # defined in another file of the run as a thin wrapper
        self.report(name_node, declaration_message(self.config, qualified), subject=identity)


def is_misread_class_body(node: Node) -> bool:
    """Tell whether a body is a class's that a macro made tree-sitter misread:
    `class TVM_DLL Namer {...}` comes out as a function `TVM_DLL Namer() {...}`."""
    parent = node.parent
    kind = parent.child_by_field_name("type") if parent is not None else None
    return (
        parent is not None
        and parent.type == "function_definition"
        and kind is not None
        and kind.type in ("class_specifier", "struct_specifier")
        and _declarator_type(parent) == "identifier"
    )


def _declarator_type(node: Node) -> str:
    declarator = node.child_by_field_name("declarator")
    return declarator.type if declarator is not None else ""


def misread_member_function(node: Node) -> Node | None:
    """Return the name of a member function that a macro made tree-sitter misread:
    `TVM_DLL std::string F(std::string x);` in a class comes out as a bit-field whose
    width is a call `F(std::string x)`."""
    if node.type != "field_declaration":
        return None
    for child in node.named_children:
        if child.type != "bitfield_clause":
            continue
        for part in child.named_children:
            if part.type == "call_expression":
                func = part.child_by_field_name("function")
                return func if func is not None and func.type == "identifier" else None
    return None


def _class_name(rule: CppRule, node: Node) -> str | None:
    # Past `public:` misread as a label.
    parent = next((p for p in rule.parsed.ancestors(node) if p.type != "labeled_statement"), None)
    if parent is not None and is_misread_class_body(parent) and parent.parent is not None:
        declarator = parent.parent.child_by_field_name("declarator")
        return rule.text(declarator) if declarator is not None else None
    if parent is not None and parent.type == "field_declaration_list" and parent.parent:
        name = parent.parent.child_by_field_name("name")
        if name is not None:
            return rule.text(name)
    return None
