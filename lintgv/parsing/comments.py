"""The comments of Python and C++ text, found by a lexer that knows string literals.

A suppression is a comment, and removing one must never touch a string, so comments are
found as the languages' own tokenizers find them: in Python, string prefixes, triple
quotes and f-strings whose replacement fields hold strings of any quote (PEP 701, which
libcst parses and Python 3.11's `tokenize` does not); in C++, line splices (a backslash at
a line's end, also inside `//` comments and strings), character literals, digit
separators (`1'000`) and raw strings (`R"x(...)x"`). Where a scan cannot tell what the
text is (an unterminated string, a raw string without its end) it says so: the comments
it reports after that point may be wrong.
"""

import re
from bisect import bisect_right

from lintgv.records import frozen


@frozen
class Comment:
    offset: int
    text: str  # as in the file: a C++ comment may hold line splices


@frozen
class Comments:
    found: tuple[Comment, ...]
    # False when some text could not be lexed: comments after it may be missed or wrong.
    is_certain: bool


class _Lost(Exception):
    """The scan cannot tell what the text is from here on."""


# --- Python ----------------------------------------------------------------------------

_PY_PREFIXES = frozenset(
    {"", "r", "u", "b", "br", "rb", "f", "fr", "rf", "t", "tr", "rt"}  # t: PEP 750
)
# Code outside f-string fields: a comment, or a quote with the word glued before it
# (its prefix when the word is one, `rb"`, else a name and then a string).
_PY_CODE = re.compile(
    r"""(?P<comment>#[^\r\n]*)|(?:(?<!\w)(?P<prefix>\w++))?(?P<quote>'''|\"\"\"|'|")"""
)
# Inside a replacement field, brackets and a `:` (which starts a format spec) count too.
_PY_FIELD = re.compile(_PY_CODE.pattern + r"|(?P<open>[(\[{])|(?P<close>[)\]}])|(?P<colon>:)")
# The rest of a string that is not an f-string, after its opening quote. A backslash
# keeps the next character in the string, in raw strings too (`r"\""`).
_PY_STRING_END = {
    "'": re.compile(r"(?:[^'\\\r\n]++|\\(?:\r\n|[\s\S]))*+'"),
    '"': re.compile(r'(?:[^"\\\r\n]++|\\(?:\r\n|[\s\S]))*+"'),
    "'''": re.compile(r"(?:[^'\\]++|\\[\s\S]|'(?!''))*+'''"),
    '"""': re.compile(r'(?:[^"\\]++|\\[\s\S]|"(?!""))*+"""'),
}
# What matters in an f-string's literal text: braces, backslashes, its quote, and (in a
# one-line string) a line break, which would leave it unterminated.
_PY_FSTRING_SPECIAL = {
    "'": re.compile(r"[{}\\'\r\n]"),
    '"': re.compile(r'[{}\\"\r\n]'),
    "'''": re.compile(r"[{}\\']"),
    '"""': re.compile(r'[{}\\"]'),
}
_MAX_FSTRING_NESTING = 150  # CPython's own limit (MAXFSTRINGLEVEL)


def python_comments(text: str) -> Comments:
    """Return the comments of Python `text`."""
    scan = _PythonScan(text)
    try:
        scan.code(0, 0)
    except (_Lost, RecursionError):
        return Comments(tuple(scan.found), is_certain=False)
    return Comments(tuple(scan.found), is_certain=True)


class _PythonScan:
    def __init__(self, text: str) -> None:
        self.text = text
        self.found: list[Comment] = []

    def code(self, pos: int, level: int) -> tuple[int, bool]:
        """Scan code from `pos` to the end of the text (`level` 0) or of the replacement
        field it is in; return the offset after the field's `}` or `:`, and whether a
        format spec follows."""
        pattern = _PY_FIELD if level else _PY_CODE
        depth = 0
        while (match := pattern.search(self.text, pos)) is not None:
            pos = match.end()
            kind = match.lastgroup
            if kind == "comment":
                self.found.append(Comment(match.start(), match.group()))
            elif kind == "quote":
                pos = self.string(pos, (match["prefix"] or "").lower(), match["quote"], level)
            elif kind == "open":
                depth += 1
            elif depth and kind == "close":
                depth -= 1
            elif not depth and kind == "colon":
                return pos, True
            elif kind == "close":
                if match.group() != "}":
                    raise _Lost  # an unbalanced bracket: not Python
                return pos, False
        if level:
            raise _Lost  # the text ends inside an f-string
        return len(self.text), False

    def string(self, pos: int, prefix: str, quote: str, level: int) -> int:
        """Return the offset after the string whose opening quote ends at `pos`."""
        prefix = prefix if prefix in _PY_PREFIXES else ""  # a name, then a plain string
        if "f" in prefix or "t" in prefix:
            return self.fstring(pos, quote, "r" in prefix, level + 1, in_spec=False)
        end = _PY_STRING_END[quote].match(self.text, pos)
        if end is None:
            raise _Lost  # unterminated
        return end.end()

    def fstring(self, pos: int, quote: str, raw: bool, level: int, in_spec: bool) -> int:
        """Return the offset after the f-string (or, `in_spec`, after the format spec and
        the `}` that ends its field) whose text starts at `pos`."""
        if level > _MAX_FSTRING_NESTING:
            raise _Lost
        text = self.text
        special = _PY_FSTRING_SPECIAL[quote]
        while (match := special.search(text, pos)) is not None:
            char = match.group()
            pos = match.end()
            if char == "\\":
                if text.startswith(("{", "}"), pos):
                    continue  # the brace is still a brace (with a warning)
                if not raw and text.startswith("N{", pos):
                    pos = text.find("}", pos) + 1  # `\N{NAME}` is a character, not a field
                    if pos == 0:
                        raise _Lost
                    continue
                pos += 2 if text.startswith("\r\n", pos) else 1
            elif char == "{":
                if not in_spec and text.startswith("{", pos):
                    pos += 1  # `{{` is a literal brace; a format spec has none
                    continue
                pos, spec = self.code(pos, level)
                if spec:
                    pos = self.fstring(pos, quote, raw, level, in_spec=True)
            elif char == "}":
                if in_spec:
                    return pos
                if not text.startswith("}", pos):
                    raise _Lost  # a single `}` is an error
                pos += 1
            elif char in "\r\n":
                raise _Lost  # a one-line f-string left unterminated
            elif len(quote) == 1 or text.startswith(quote, match.start()):
                if in_spec:
                    raise _Lost  # the string ends inside a field
                return match.start() + len(quote)
        raise _Lost


# --- C++ -------------------------------------------------------------------------------

# A backslash at a line's end joins the line to the next before anything else is read
# (translation phase 2); GCC and Clang allow blanks between the two.
_SPLICE = re.compile(r"\\[ \t\f\v]*(?:\r\n|\n|\r)")
# What a C++ scan stops at: a comment, or a quote (the word glued before it, if any, is
# looked at then: most of a file is names, and matching each one costs several times more).
_CPP_TOKEN = re.compile(r"(?P<line>//[^\r\n]*)|(?P<block>/\*)|(?P<quote>[\"'])")
_RAW_PREFIXES = frozenset({"R", "u8R", "uR", "UR", "LR"})
# The rest of a number after a digit separator (`1'000'000`, `0x1'ff`).
_NUMBER_REST = re.compile(r"(?:'[\w$]|[\w$.]|[eEpP][+-])*+")
_CPP_LITERAL_END = {
    '"': re.compile(r'(?:[^"\\\r\n]++|\\.)*+"'),
    "'": re.compile(r"(?:[^'\\\r\n]++|\\.)*+'"),
}
_RAW_DELIMITER = re.compile(r"[^()\\ \t\v\f\r\n]{0,16}\(")
_LINE_END = re.compile(r"\r\n|\n|\r|$")


def cpp_comments(text: str) -> Comments:
    """Return the comments of C++ `text`."""
    spliced = _Spliced(text)
    code = spliced.text
    found: list[Comment] = []
    certain = True
    pos = 0
    while (match := _CPP_TOKEN.search(code, pos)) is not None:
        pos = match.end()
        if match.lastgroup != "quote":
            end = pos if match.lastgroup == "line" else code.find("*/", pos) + 2
            if end == 1:
                return Comments(tuple(found), is_certain=False)  # an unterminated comment
            start, stop = spliced.original(match.start()), spliced.original(end - 1) + 1
            found.append(Comment(start, text[start:stop]))
            pos = end
            continue
        word = _word_before(code, match.start())
        if word[:1].isdigit() and match.group() == "'":
            number = _NUMBER_REST.match(code, match.start())
            assert number is not None  # it matches the empty string
            pos = number.end()
        elif word in _RAW_PREFIXES and match.group() == '"':
            raw_end = _raw_string_end(text, spliced.original(match.start()) + 1)
            if raw_end is None:
                return Comments(tuple(found), is_certain=False)
            pos = spliced.spliced(raw_end)
        else:
            literal = _CPP_LITERAL_END[match.group()].match(code, pos)
            if literal is None:
                # Compilers differ on what an unterminated literal takes: go on after
                # the line, but nothing found from here is certain.
                certain = False
                literal = _LINE_END.search(code, pos)
                assert literal is not None  # `$` matches at the end
            pos = literal.end()
    return Comments(tuple(found), certain)


def _word_before(code: str, end: int) -> str:
    """Return the name or number that ends at `end` ("" if none)."""
    start = end
    while start > 0 and (code[start - 1].isalnum() or code[start - 1] in "_$"):
        start -= 1
    return code[start:end]


def _raw_string_end(text: str, opening: int) -> int | None:
    """Return the offset after the raw string whose opening quote ends at `opening`, or
    None when it has none. Splices inside a raw string are undone: it is read in the text
    as written."""
    delimiter = _RAW_DELIMITER.match(text, opening)
    if delimiter is None:
        return None
    closing = f'){delimiter.group()[:-1]}"'
    close = text.find(closing, delimiter.end())
    return None if close == -1 else close + len(closing)


class _Spliced:
    """C++ text with its line splices removed, and offsets mapped both ways."""

    def __init__(self, text: str) -> None:
        pieces = []
        self.original_starts = [0]  # where each run of text between splices starts
        self.spliced_starts = [0]
        cursor = 0
        for splice in _SPLICE.finditer(text):
            pieces.append(text[cursor : splice.start()])
            cursor = splice.end()
            self.original_starts.append(cursor)
            self.spliced_starts.append(self.spliced_starts[-1] + len(pieces[-1]))
        pieces.append(text[cursor:])
        self.text = "".join(pieces) if len(pieces) > 1 else text

    def original(self, offset: int) -> int:
        """Return the offset in the text as written of `offset` in the spliced text."""
        run = bisect_right(self.spliced_starts, offset) - 1
        return self.original_starts[run] + offset - self.spliced_starts[run]

    def spliced(self, offset: int) -> int:
        """Return the offset in the spliced text of `offset`, which no splice holds."""
        run = bisect_right(self.original_starts, offset) - 1
        return self.spliced_starts[run] + offset - self.original_starts[run]
