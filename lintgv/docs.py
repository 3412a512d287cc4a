"""Rule → Markdown: the one place rule pages are written, for `lintgv explain`, the
language server's hover and scripts/gen_rule_docs.py.

A code may be implemented once per language; its page covers every implementation. When
their docstrings differ, each language gets its own part, with its sections one level down.
"""

import inspect
from collections.abc import Sequence
from pathlib import PurePosixPath

from lintgv.model import Applicability, Language
from lintgv.registry import rule_codes
from lintgv.rules._base import ArtifactRule, Exported, Invalid, Rule, Session, Valid

_LANGUAGE_NAMES = {Language.PYTHON: "Python", Language.CPP: "C++"}
_FENCES = {Language.PYTHON: "python", Language.CPP: "cpp"}
_FIX_WORDS = {
    Applicability.SAFE: "safe (`lintgv fix`)",
    Applicability.UNSAFE: "unsafe (`lintgv fix --unsafe`)",
    Applicability.DISPLAY: "display only (shown, never applied)",
    Applicability.NONE: "none",
}


def implementations(rule: type[Rule]) -> tuple[type[Rule], ...]:
    """Return every rule class that implements `rule`'s code (one per language)."""
    return rule_codes().get(rule.META.code, (rule,))


def languages_of(rules: Sequence[type[Rule]]) -> str:
    """Return the languages a code covers, as words ("Python, C++")."""
    if any(issubclass(r, ArtifactRule) for r in rules):
        return "build output"
    if any(r.LANGUAGE is None for r in rules):
        return "Python, C++"
    return ", ".join(_LANGUAGE_NAMES[r.LANGUAGE] for r in rules if r.LANGUAGE is not None)


def summary_of(rule: type[Rule]) -> str:
    """Return the first line of the rule's docstring."""
    return _docstring(rule).split("\n", 1)[0].strip()


def _docstring(rule: type[Rule]) -> str:
    return inspect.cleandoc(rule.__doc__ or "")


def _body(rule: type[Rule], demote: bool) -> str:
    """Return the docstring after its summary line, headings one level down if `demote`."""
    parts = _docstring(rule).split("\n", 1)
    body = parts[1].strip() if len(parts) > 1 else ""
    if demote:
        body = "\n".join("#" + line if line.startswith("#") else line for line in body.split("\n"))
    return body


def _example_language(rule: type[Rule], example: Valid | Invalid) -> Language:
    if rule.LANGUAGE is not None:
        return rule.LANGUAGE
    return Language.PYTHON if example.path.endswith((".py", ".pyi")) else Language.CPP


def _fenced(rule: type[Rule], example: Valid | Invalid) -> str:
    fence = _FENCES[_example_language(rule, example)]
    return f"```{fence}\n{example.code.rstrip()}\n```"


def _settings_note(example: Valid | Invalid) -> str:
    if not example.config:
        return ""
    settings = ", ".join(f"`{key} = {value!r}`" for key, value in example.config.items())
    return f" (with {settings})"


def _examples(rule: type[Rule], level: str) -> str:
    if issubclass(rule, ArtifactRule):
        return f"{level} Reported\n\n{_session(rule.EXAMPLE)}"
    out: list[str] = []
    if rule.INVALID:
        bad = rule.INVALID[0]
        out += [f"{level} Reported{_settings_note(bad)}", "", _fenced(rule, bad)]
        if bad.fixed is not None:
            fixed = _fenced(rule, Valid(bad.fixed, bad.path))
            out += ["", f"{level} {_after(rule.META.offered_fix)}", "", fixed]
    if rule.VALID:
        good = rule.VALID[0]
        out += ["", f"{level} Not reported{_settings_note(good)}", "", _fenced(rule, good)]
    return "\n".join(out).strip()


_FILE_FENCES = {".json": "json", ".py": "python", ".cc": "cpp"}


def _session(example: Session | Exported) -> str:
    """Return an artifact rule's example: its files, then the command and what it prints;
    or the exported symbols and what `lintgv validate` prints for them."""
    if isinstance(example, Exported):
        listed = "\n".join(example.symbols)
        shown = "\n".join(example.prints)
        return (
            f"An object file of model `{example.model}` that exports (as `nm` lists it):\n\n"
            f"```text\n{listed}\n```\n\n`lintgv validate` reports:\n\n```text\n{shown}\n```"
        )
    out = []
    for path, text in example.files:
        fence = _FILE_FENCES.get(PurePosixPath(path).suffix, "text")
        out += [f"`{path}`:", "", f"```{fence}\n{text.rstrip()}\n```", ""]
    session = "\n".join(("$ lintgv " + " ".join(example.args), *example.prints))
    return "\n".join([*out, f"```console\n{session}\n```"])


def _after(fix: Applicability) -> str:
    if fix == Applicability.DISPLAY:
        return "As the finding suggests (never applied)"
    return "After `lintgv fix`" if fix == Applicability.SAFE else "After `lintgv fix --unsafe`"


def metadata_line(rule: type[Rule]) -> str:
    """Return the line under a page's title: languages, severity, fix, default."""
    meta = rule.META
    rules = implementations(rule)
    default = "on by default" if meta.default_enabled else "off by default (select it to run it)"
    if issubclass(rule, ArtifactRule):
        return (
            f"**Checks:** build output, not source · **Reported by:** {rule.REPORTED_BY} · "
            f"**Severity:** {meta.severity} · **Fix:** {_FIX_WORDS[meta.offered_fix]}"
        )
    return (
        f"**Languages:** {languages_of(rules)} · **Severity:** {meta.severity} · "
        f"**Fix:** {_FIX_WORDS[meta.offered_fix]} · {default}"
    )


def render(rule: type[Rule], first: Language | None = None, message: bool = True) -> str:
    """Return the Markdown page of `rule`'s code, covering each of its languages: the
    `first` language's section first, and without the rule's message unless `message`
    (a hover shows the finding's own message above the page)."""
    rules = sorted(implementations(rule), key=lambda r: r.LANGUAGE is not first)
    meta = rules[0].META
    out = [f"# {meta.code} · {meta.name}", "", metadata_line(rules[0]), ""]
    out += [summary_of(rules[0]), ""]
    out += [f"Message: {meta.message}", ""] if message else []
    bodies = {_docstring(r) for r in rules}
    if len(bodies) == 1:
        out += [_body(rules[0], demote=False), ""]
        for r in rules:
            heading = "## Examples" if len(rules) == 1 else f"## Examples: {_language_word(r)}"
            out += [heading, "", _examples(r, "###"), ""]
    else:
        for r in rules:
            own = [summary_of(r), ""] if summary_of(r) != summary_of(rules[0]) else []
            out += [f"## {_language_word(r)}", "", *own, _body(r, demote=True), ""]
            out += ["### Examples", "", _examples(r, "####"), ""]
    return "\n".join(out).rstrip() + "\n"


def _language_word(rule: type[Rule]) -> str:
    return "Python and C++" if rule.LANGUAGE is None else _LANGUAGE_NAMES[rule.LANGUAGE]


def index() -> str:
    """Return the Markdown index of every rule: one table row per code."""
    out = [
        "# lintgv rules",
        "",
        "Generated by `scripts/gen_rule_docs.py` from the rules in `lintgv/rules/`; do not",
        "edit by hand. `lintgv explain CODE` prints the same pages.",
        "",
        "| code | name | languages | severity | fix | default | summary |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for code, rules in rule_codes().items():
        meta = rules[0].META
        default = "on" if meta.default_enabled else "off"
        summary = summary_of(rules[0]).replace("|", r"\|")
        out.append(
            f"| [{code}]({code}.md) | {meta.name} | {languages_of(rules)} | {meta.severity} "
            f"| {meta.offered_fix} | {default} | {summary} |"
        )
    return "\n".join(out) + "\n"


def pages() -> dict[str, str]:
    """Return every generated file under docs/rules: name → content."""
    files = {"README.md": index()}
    for code, rules in rule_codes().items():
        files[f"{code}.md"] = render(rules[0])
    return files
