"""Whether C++ code may hold what the shape rules find, read from its braces before
tree-sitter is asked to parse the file.

The shape triggers (names.CPP_SHAPE_TRIGGERS, CPP_RETRY_TRIGGERS) are loose by design: a
`return` of a call with `+ 1` in it, a `for` loop with `find(` and `<<` in its first
lines. On TVM v0.16 they alone made 60 files be parsed in which no rule found anything.
What the rules find lies in a function: GV201, GV202 and GV203 judge a function whose
body holds both a lookup word and an append word (cpp_shape.may_copy), and GV204 a loop
in a declaration that holds a loop keyword and a call asking whether a name is taken
(cpp_loops.may_hold_loop). A trigger matches inside that function. So the gate finds,
without a parse, each top-level declaration a trigger match lies in (the outermost brace
group around it that is not a namespace, an `extern "C"` block or a class body) and asks
the rules' own word tests of that text, which holds the function: when no declaration
passes, no rule would report anything.

The braces are read outside comments, strings, character literals and preprocessor
lines. Where that reading cannot be trusted, the gate says yes and the file is parsed as
before: braces that do not balance (a macro that opens a scope), a `#if` branch that
leaves the depth changed, an unterminated comment or raw string.
"""

import re
from bisect import bisect_right

from lintgv.helpers.cpp_loops import may_hold_loop
from lintgv.helpers.cpp_shape import may_copy
from lintgv.prefilter import Triggers

# What the reading stops at: a comment, a string, a character literal, a brace, a `#`.
# Each starts with a character of its own, so `re` skips the text between by a scan.
_TOKEN = re.compile(
    r"//(?:[^\n\\]|\\.)*"
    r"|/\*.*?(?:\*/|\Z)"
    r'|"(?:[^"\\\n]|\\.)*"?'
    r"|'(?:[^'\\\n]|\\.){1,8}'"  # bounded: `1'000` is a digit separator, not a literal
    r"|[{}#]",
    re.DOTALL,
)
_RAW_PREFIX = re.compile(r"(?<!\w)(?:u8|[uUL])?R\Z")
_RAW = re.compile(r'"([^()\\\s"]{0,16})\(.*?\)\1"', re.DOTALL)
_DIRECTIVE = re.compile(r"#[ \t]*(\w*)")
_OPENS = frozenset({"if", "ifdef", "ifndef"})
_BRANCHES = frozenset({"elif", "else", "elifdef", "elifndef"})
# The head of a brace that opens a scope whose members are declarations of their own.
# A function's head has parentheses and an initializer's an `=`: neither is a scope.
_SCOPE = re.compile(r'\b(?:namespace|class|struct|union|enum)\b|\bextern\s*"C')
_NOT_SCOPE = re.compile(r"[()=]")
_HEAD = 400  # how far back a scope's head is looked for
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)


def may_hold_shapes(text: str, shapes: Triggers) -> bool:
    """Tell whether the shape rules may find something in the C++ `text`, where only the
    `shapes` triggers matched."""
    declarations = top_level_declarations(text)
    if declarations is None:
        return True
    starts = [start for start, _ in declarations]
    for match in shapes.finditer(text):
        # Every declaration the match touches: one that starts in a comment may run on
        # past the start of a real one, which the search then does not find.
        index = bisect_right(starts, match.end()) - 1
        while index >= 0 and declarations[index][1] >= match.start():
            start, end = declarations[index]
            body = text[start:end].encode("utf-8", "surrogatepass")
            if may_copy(body) or may_hold_loop(body):
                return True
            index -= 1
    return False


def top_level_declarations(text: str) -> list[tuple[int, int]] | None:
    """Return where each outermost brace group that is not a scope starts and ends (a
    function's body, a class defined in a function's namespace holds its own), in order;
    None when the braces cannot be read with confidence."""
    found: list[tuple[int, int]] = []
    # For each open brace: where it is, and whether it opens a scope (so that the groups
    # inside it are top-level too).
    open_braces: list[tuple[int, bool]] = []
    branches: list[int] = []  # the depth at each open #if
    boundary = 0  # where the last brace closed or opened: a head starts after it
    position = 0
    while (token := _TOKEN.search(text, position)) is not None:
        start, position = token.start(), token.end()
        first = text[start]
        if first == "{":
            at_top = not open_braces or open_braces[-1][1]
            open_braces.append((start, at_top and _opens_scope(text, boundary, start)))
            boundary = position
        elif first == "}":
            if not open_braces:
                return None
            opened, scope = open_braces.pop()
            if not scope and (not open_braces or open_braces[-1][1]):
                found.append((opened, position))
            boundary = position
        elif first == '"' and _RAW_PREFIX.search(text, max(0, start - 3), start):
            raw = _RAW.match(text, start)
            if raw is None:
                return None
            position = raw.end()
        elif first == "/" and text.startswith("/*", start) and not token.group().endswith("*/"):
            return None  # a comment that never ends
        elif first == "#" and not text[text.rfind("\n", 0, start) + 1 : start].strip():
            depth = len(open_braces)
            directive = _DIRECTIVE.match(text, start)
            word = directive.group(1) if directive is not None else ""
            if word in _OPENS:
                branches.append(depth)
            elif word in _BRANCHES or word == "endif":
                if not branches or branches[-1] != depth:
                    return None  # a branch that opens or closes a brace of its own
                if word == "endif":
                    branches.pop()
            position = _line_end(text, start)
    if open_braces or branches:
        return None
    return found


def _opens_scope(text: str, boundary: int, brace: int) -> bool:
    """Tell whether the brace at `brace` opens a namespace, an `extern "C"` block or a
    class, from its head: the text since the last `;` or brace, comments left out (a
    function's `) // one; a struct` is no class's head)."""
    head = _COMMENT.sub(" ", text[max(boundary, brace - _HEAD) : brace])
    head = head[head.rfind(";") + 1 :]
    return _SCOPE.search(head) is not None and _NOT_SCOPE.search(head) is None


def _line_end(text: str, start: int) -> int:
    """Return where the preprocessor line at `start` ends, its continuations included."""
    end = text.find("\n", start)
    while end > 0 and text.endswith(("\\", "\\\r"), start, end):
        end = text.find("\n", end + 1)
    return len(text) if end < 0 else end
