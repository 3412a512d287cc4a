"""Which findings supply threading starts from: asked of the rules, not named by code."""

from dataclasses import replace

from lintgv.examples import check_snippet
from lintgv.fixing.thread_edits import is_threading_site
from lintgv.model import Blocker, Language
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


def test_a_site_is_threaded_for_what_blocks_its_fix_not_for_the_words_of_its_reason() -> None:
    rule = next(r for r in all_rules() if r.LANGUAGE == Language.PYTHON and r.META.threads_supply)
    (site,) = check_snippet(rule, TEXT, config={"tvm-version": "0.16"}).findings
    assert site.blocker is Blocker.NOTHING_IN_SCOPE
    assert is_threading_site(replace(site, reason="reworded"))
    assert not is_threading_site(replace(site, blocker=None))


def test_nothing_is_threaded_in_a_release_without_global_var_supply() -> None:
    rule = next(r for r in all_rules() if r.LANGUAGE == Language.CPP and r.META.threads_supply)
    cpp = 'GlobalVar Make() { return GlobalVar("main"); }\n'
    (site,) = check_snippet(rule, cpp, config={"tvm-version": "0.25"}).findings
    assert site.reason == "no UniqueNameSupply or IRModule in scope to name it with"
    assert site.blocker is None and not is_threading_site(site)
