"""A finding's message is made from its parts, the problem and the remedy: whoever gives
the remedy alone (`lintgv fix`'s summary) has the one the rule gave, never a piece cut
from the message text."""

from lintgv.examples import check_snippet
from lintgv.model import Language
from lintgv.registry import rule_codes

TVMSCRIPT = """from tvm.script import tir as T


@T.prim_func
def main():
    T.func_attr({"global_symbol": "a; b"})
"""


def test_a_remedy_is_the_rules_even_where_the_problem_holds_a_semicolon() -> None:
    (rule,) = rule_codes()["GV303"]
    (finding,) = check_snippet(rule, TVMSCRIPT).findings
    assert "`a; b`" in finding.message
    assert finding.remedy == rule.META.message.remedy
    assert finding.message.endswith(f"; {finding.remedy}")


def test_a_remedy_leaves_out_why_the_site_has_no_fix() -> None:
    rule = next(r for r in rule_codes()["GV101"] if r.LANGUAGE == Language.PYTHON)
    text = 'from tvm.ir import GlobalVar\n\n\ndef make():\n    return GlobalVar("main")\n'
    (finding,) = check_snippet(rule, text, config={"tvm-version": "0.16"}).findings
    assert finding.message == (f"{rule.META.message}; no automatic fix: {finding.reason}")
    assert finding.remedy == rule.META.message.remedy
