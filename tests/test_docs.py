"""Rule pages: lintgv.docs.render and scripts/gen_rule_docs.py."""

import subprocess
import sys
import tomllib
from pathlib import Path

from lintgv.docs import index, pages, render
from lintgv.registry import rule_codes

ROOT = Path(__file__).parent.parent
SCRIPT = ROOT / "scripts" / "gen_rule_docs.py"


def test_page_has_title_metadata_summary_and_sections() -> None:
    page = render(rule_codes()["GV901"][0])
    lines = page.splitlines()
    assert lines[0] == "# GV901 · bare-suppression"
    assert lines[2].startswith("**Languages:** Python, C++ · **Severity:** warning · **Fix:** none")
    assert lines[4] == "A suppression comment names no code."
    assert "## Why it matters" in lines
    assert "### Reported" in lines and "### Not reported" in lines


def test_page_shows_the_first_invalid_example_with_its_fix() -> None:
    rules = rule_codes()["GV101"]
    page = render(rules[0])
    for rule in rules:
        example = next(e for e in rule.INVALID if e.fixed is not None)
        if example is rule.INVALID[0]:
            assert example.code.rstrip() in page
            assert example.fixed is not None and example.fixed.rstrip() in page
    assert "After `lintgv fix --unsafe`" in page


def test_every_language_of_a_code_is_on_its_page() -> None:
    page = render(rule_codes()["GV101"][0])
    assert "## C++" in page and "## Python" in page
    assert "```cpp" in page and "```python" in page


def test_any_implementation_renders_the_same_page() -> None:
    for rules in rule_codes().values():
        assert len({render(rule) for rule in rules}) == 1


def test_index_links_every_code() -> None:
    text = index()
    for code in rule_codes():
        assert f"[{code}]({code}.md)" in text


def test_generator_writes_every_page_and_check_then_passes(tmp_path: Path) -> None:
    out = tmp_path / "rules"
    subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)], check=True, capture_output=True
    )
    assert {p.name for p in out.iterdir()} == set(pages())
    check = [sys.executable, str(SCRIPT), "--check", "--out", str(out)]
    assert subprocess.run(check, capture_output=True, check=False).returncode == 0


def test_check_fails_on_a_stale_or_extra_page(tmp_path: Path) -> None:
    out = tmp_path / "rules"
    subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)], check=True, capture_output=True
    )
    (out / "GV101.md").write_text("edited by hand\n", encoding="utf-8")
    (out / "GV000.md").write_text("a code that is gone\n", encoding="utf-8")
    check = [sys.executable, str(SCRIPT), "--check", "--out", str(out)]
    result = subprocess.run(check, capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "GV101.md" in result.stderr and "GV000.md" in result.stderr
    subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)], check=True, capture_output=True
    )
    assert not (out / "GV000.md").exists()


def test_every_setting_is_documented() -> None:
    from lintgv.config import SETTING_KEYS

    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    missing = [key for key in SETTING_KEYS if f"| `{key}` |" not in text]
    assert missing == []


def _undocumented(subcommands: tuple[str, ...], *pages: str) -> list[str]:
    """Return the options of `subcommands` that none of the docs `pages` names."""
    from lintgv.cli import build_parser

    text = "".join((ROOT / "docs" / page).read_text(encoding="utf-8") for page in pages)
    commands = next(a for a in build_parser()._actions if a.dest == "command")
    return [
        option
        for name in subcommands
        for action in commands.choices[name]._actions
        for option in action.option_strings
        if option not in ("-h", "--help") and f"`{option}" not in text
    ]


def test_every_check_and_baseline_option_is_documented() -> None:
    assert _undocumented(("check", "baseline"), "configuration.md") == []


def test_the_helix_set_up_in_readme_is_valid_and_starts_the_server() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("- **Helix**", 1)[1].split("```toml\n", 1)[1].split("```", 1)[0]
    settings = tomllib.loads("\n".join(line.removeprefix("  ") for line in block.splitlines()))
    server = settings["language-server"]["lintgv"]
    assert [server["command"], *server["args"]] == ["lintgv", "server"]
    languages = {entry["name"]: entry["language-servers"] for entry in settings["language"]}
    assert {"python", "cpp"} <= set(languages)
    assert all("lintgv" in servers for servers in languages.values())


def test_every_output_format_is_documented() -> None:
    from lintgv.cli_check import FORMATS

    options = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    output = (ROOT / "docs" / "output.md").read_text(encoding="utf-8")
    choices = "\\|".join(FORMATS)  # a table cell escapes the bar
    assert f"| `--format {choices}` |" in options
    assert [kind for kind in FORMATS if f"\n## {kind}\n" not in output] == []


def test_every_migrate_and_report_option_is_documented() -> None:
    assert _undocumented(("migrate", "report"), "output.md", "configuration.md") == []
