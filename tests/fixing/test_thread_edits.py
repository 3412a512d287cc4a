"""Which findings supply threading starts from: asked of the rules, not named by code."""

from dataclasses import replace

from lintgv.examples import check_snippet
from lintgv.fixing.thread_edits import is_threading_site
from lintgv.model import Language
from lintgv.registry import all_rules

TEXT = 'from tvm.ir import GlobalVar\n\n\ndef make():\n    return GlobalVar("main")\n'


def test_a_site_with_nothing_in_scope_is_threaded_only_for_a_rule_that_threads_supplies() -> None:
    rules = [r for r in all_rules() if r.LANGUAGE == Language.PYTHON]
    threading = next(r for r in rules if r.META.threads_supply)
    other = next(r for r in rules if not r.META.threads_supply)
    (site,) = check_snippet(threading, TEXT, config={"tvm-version": "0.16"}).findings
    # The rule's reason is the one threading looks for: the two cannot drift apart.
    assert is_threading_site(site)
    assert not is_threading_site(replace(site, code=other.META.code))
