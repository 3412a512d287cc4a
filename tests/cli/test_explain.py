"""`lintgv explain CODE` and `lintgv rules` print the docs the rules carry."""

from pathlib import Path

from lintgv.docs import render
from lintgv.registry import rule_codes


def test_explain_prints_the_rule_page(lintgv, tmp_path: Path) -> None:
    result = lintgv("explain", "GV101", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout == render(rule_codes()["GV101"][0])
    assert result.stdout.startswith("# GV101 · direct-global-var\n")


def test_explain_accepts_lowercase_and_rule_names(lintgv, tmp_path: Path) -> None:
    by_name = lintgv("explain", "bare-suppression", cwd=tmp_path).stdout
    assert by_name == lintgv("explain", "gv901", cwd=tmp_path).stdout
    assert by_name.startswith("# GV901 · bare-suppression\n")


def test_explain_unknown_code_lists_the_known_ones(lintgv, tmp_path: Path) -> None:
    result = lintgv("explain", "GV999", cwd=tmp_path)
    assert result.returncode == 2
    assert "no rule 'GV999'; known codes: GV101," in result.stderr


def test_rules_lists_every_code_once(lintgv, tmp_path: Path) -> None:
    result = lintgv("rules", cwd=tmp_path)
    assert result.returncode == 0
    listed = [line.split()[0] for line in result.stdout.splitlines() if line.startswith("GV")]
    assert listed == list(rule_codes())


def test_explain_renders_for_a_terminal_and_stays_markdown_when_piped(lintgv, tmp_path) -> None:
    piped = lintgv("explain", "GV101", cwd=tmp_path)
    assert piped.stdout.startswith("# GV101 · direct-global-var\n")
    assert "\x1b[" not in piped.stdout
    rendered = lintgv("explain", "--color", "always", "GV101", cwd=tmp_path)
    assert "\x1b[" in rendered.stdout
    assert "# GV101" not in rendered.stdout  # a heading, not its Markdown
    assert "direct-global-var" in rendered.stdout
