"""Rule bases for GV301 and GV302: one scan, each code reporting its own kind."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from lintgv.config import Config
from lintgv.helpers.names import DICT_SCAN
from lintgv.model import Language, Message, Severity
from lintgv.rules._base import CppRule, PythonAstRule
from lintgv.rules._global_symbol.messages import Evidence, Kind, remove_message, set_message

CPP_TRIGGERS = (r'kGlobalSymbol|"global_symbol"',)
# The whole function is parsed: its earlier lines show whether a symbol existed. These
# triggers are all the Python rules see, in every check (see engine._check_abstract): a
# comment line between the call's parenthesis and its key is allowed for.
PYTHON_TRIGGERS = (
    r"""(?:with_attr|without_attr)\(\s*(?:#[^\n]{0,400}\n\s*){0,8}["']global_symbol"""
    rf"""|with_attrs?\(\s*\{{[^}}]{{0,{DICT_SCAN}}}["']global_symbol""",
)


# The known limits GV301 and GV302 share in Python, part of each rule's page.
PYTHON_PARSE_LIMITS = """\
    In Python the rule reads CPython's parse of the functions around its triggers, with
    the parser of the Python lintgv runs on: such a function written in the syntax of a
    later Python (`def f[T](x)`, an f-string holding its own quotes), or in one only
    libcst accepts, is reported as not checked by the rule, on its line, rather than
    passed over (and the rule's suppression comments in the file are not judged unused).
    A statement of that kind elsewhere in the file is left out of the rule's parse.

"""


def message_for(rule: PythonAstRule | CppRule, kind: Kind, evidence: Evidence | None) -> Message:
    language = rule.LANGUAGE or Language.PYTHON
    if kind is Kind.SET:
        return set_message(rule.config, language, evidence)
    return remove_message(rule.config, language, evidence)


def soften_first_setting(
    rule: PythonAstRule | CppRule, kind: Kind, evidence: Evidence | None
) -> None:
    """Report a first setting as info, below an overwrite, unless configured otherwise."""
    configured = dict(rule.config.severity)
    if kind is Kind.SET and evidence is None and rule.META.code not in configured:
        rule.findings[-1] = replace(rule.findings[-1], severity=Severity.INFO)


class GlobalSymbolCpp(CppRule):
    KIND: ClassVar[Kind]
    QUERY = ""  # `run` uses CppScan

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return CPP_TRIGGERS, ()

    def run(self) -> None:
        """Report each mutation of this rule's kind."""
        # Imported here, as is the Python scan below: a run over one language's files
        # need not load the other's (5 ms of a one-file check).
        from lintgv.rules._global_symbol.cpp_scan import mutations_of

        for mutation in mutations_of(self.parsed):
            if mutation.kind is self.KIND:
                self.report(mutation.call, message_for(self, self.KIND, mutation.evidence))
                soften_first_setting(self, self.KIND, mutation.evidence)


class GlobalSymbolPython(PythonAstRule):
    KIND: ClassVar[Kind]

    @classmethod
    def triggers(cls, config: Config) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return (), PYTHON_TRIGGERS

    def run(self) -> None:
        """Report each mutation of this rule's kind."""
        from lintgv.rules._global_symbol import python_scan

        for mutation in python_scan.mutations_of(self.parsed):
            if mutation.kind is self.KIND:
                self.report(mutation.call, message_for(self, self.KIND, mutation.evidence))
                soften_first_setting(self, self.KIND, mutation.evidence)
