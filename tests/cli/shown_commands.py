"""The commands README.md and docs/ show, found the way a reader finds them: the lines of
shell blocks (```sh, and ```console after its `$ ` prompt), the shell steps of CI
configurations (a YAML `run:` or `script:`, a Groovy `sh '...'`), and commands in
backticks in the prose. A line is split into simple commands at `&&`, `||`, `;`, `|`; a
span in the prose with `[` is a usage line (`lintgv fix [--unsafe] [PATH ...]`), whose
words are its options and names, brackets and `|` dropped."""

import re
import shlex
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).parent.parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"\s*(```+|~~~+)\s*([\w-]*)")
SEPARATORS = {"&&", "||", ";", "|", "&"}
# A command in prose is a backticked span that runs lintgv, as `.venv/bin/lintgv check`
# or `python -m lintgv server` do; `lintgv: ignore[GV101]` and `lintgv.toml` do not.
RUNS_LINTGV = re.compile(r"(^|[\s/])lintgv(\s|$)")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, the page line of its first line, its text."""

    language: str
    line: int
    text: str


@dataclass(frozen=True)
class Shown:
    """A command a page shows: where, its words (after `lintgv` for a lintgv one), and
    whether it is a usage line rather than a command to type."""

    where: str
    words: tuple[str, ...]
    usage: bool = False


def split_page(page: Path) -> tuple[list[Block], str]:
    """Return a page's fenced blocks and its prose, each block's lines blanked in the prose
    so that a prose offset keeps its line number."""
    blocks: list[Block] = []
    prose: list[str] = []
    fence: re.Match[str] | None = None
    body: list[str] = []
    for number, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1):
        if fence is None:
            fence = FENCE.fullmatch(line)
            body = []
            prose.append("" if fence else line)
        elif set(line.strip()) == {fence[1][0]} and len(line.strip()) >= len(fence[1]):
            start = number - len(body)
            blocks.append(Block(fence[2], start, textwrap.dedent("\n".join(body))))
            fence = None
            prose.append("")
        else:
            body.append(line)
            prose.append("")
    assert fence is None, f"{page.name}: a code block is never closed"
    return blocks, "\n".join(prose)


def _shell_lines(block: Block) -> Iterator[tuple[int, str]]:
    """Yield the shell a block holds, line by line, with its page line."""
    lines = block.text.split("\n")
    if block.language in ("sh", "shell", "bash"):
        yield from enumerate(lines, block.line)
    elif block.language == "console":
        for number, line in enumerate(lines, block.line):
            if line.startswith("$ "):
                yield number, line.removeprefix("$ ")
    elif block.language == "yaml":
        for step in _yaml_values(yaml.safe_load(block.text), ("run", "script")):
            first = step.split("\n", 1)[0]
            yield block.line + next(i for i, line in enumerate(lines) if first in line), step
    elif block.language == "groovy":
        for match in re.finditer(r"\bsh\s+'([^']*)'", block.text):
            yield block.line + block.text.count("\n", 0, match.start()), match[1]


def _yaml_values(node: object, keys: tuple[str, ...]) -> Iterator[str]:
    """Yield the text under any of `keys`, at any depth of a loaded YAML document."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in keys and isinstance(value, str):
                yield value
            else:
                yield from _yaml_values(value, keys)
    elif isinstance(node, list):
        for item in node:
            yield from _yaml_values(item, keys)


def simple_commands(line: str) -> list[list[str]]:
    """Split a shell line into its simple commands' words; comments dropped."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    commands: list[list[str]] = [[]]
    for word in lexer:
        if word in SEPARATORS:
            commands.append([])
        else:
            commands[-1].append(word)
    return [words for words in commands if words]


def lintgv_words(words: list[str]) -> tuple[str, ...] | None:
    """Return the words after the one that runs lintgv, None when none does."""
    for at, word in enumerate(words):
        if word.rsplit("/", 1)[-1] == "lintgv":
            return tuple(words[at + 1 :])
    return None


def shell_commands() -> Iterator[Shown]:
    """Yield every simple command of every page's shell, with all its words."""
    for page in PAGES:
        blocks, _ = split_page(page)
        for block in blocks:
            for number, line in _shell_lines(block):
                where = f"{page.relative_to(ROOT)}:{number}"
                for words in simple_commands(line):
                    yield Shown(where, tuple(words))


def lintgv_in_shell() -> list[Shown]:
    """Return each lintgv command the shell of the pages shows, once, where first shown."""
    shown = (Shown(s.where, lintgv_words(list(s.words)) or ()) for s in shell_commands())
    return _first_of_each([s for s in shown if s.words])


def lintgv_in_prose() -> list[Shown]:
    """Return each lintgv command shown in backticks in the pages' prose, once."""
    found = []
    for page in PAGES:
        _, prose = split_page(page)
        for span in re.finditer(r"`([^`]+)`", prose):
            if not RUNS_LINTGV.search(span[1]):
                continue
            where = f"{page.relative_to(ROOT)}:{prose.count(chr(10), 0, span.start()) + 1}"
            if "[" in span[1]:
                usage = lintgv_words(re.findall(r"[^\s\[\]|]+", span[1]))
                found.append(Shown(where, usage or (), usage=True))
                continue
            for words in simple_commands(span[1].replace("\n", " ")):
                after = lintgv_words(words)
                if after:
                    found.append(Shown(where, after))
    return _first_of_each(found)


def _first_of_each(shown: list[Shown]) -> list[Shown]:
    first: dict[tuple[str, ...], Shown] = {}
    for command in shown:
        first.setdefault(command.words, command)
    return list(first.values())
