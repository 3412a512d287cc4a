"""One .gitignore pattern as a regular expression, by git's rules (gitignore(5) and
wildmatch): `*` and `?` stay within a path component, `[...]` is a bracket expression
(`!` or `^` negates it, POSIX classes such as `[:digit:]` allowed), `\\` quotes the next
character, a `**` component matches any number of folders, a pattern with a slash before
its end is anchored at its own folder and any other matches a name at any depth, a
trailing slash keeps a pattern to folders, trailing spaces go unless quoted.

The expression is matched with `re.match` against a POSIX path relative to the pattern's
folder in which a folder ends with "/". It matches the paths a pattern names, not those
below them: git never looks into an ignored folder, and judges every other path on its
own (`!a/` takes folder a back; `*` still ignores a/b.py). Written here rather than
taken from a library: the translation is small, and an import costs every run a
twentieth of a second.
"""

import re

# Any number of whole folders; and after a `**` glued to a component's start (see
# _glued_globstar), the rest of that component and any folders, or nothing.
FOLDERS = "(?:[^/]+/)*"
_GLUED = "(?:[^/]*/(?:[^/]+/)*)?"
_LAZY = {FOLDERS: "(?:[^/]+/)*?", _GLUED: "(?:[^/]*?/(?:[^/]+/)*?)??"}
_STAR = "[^/]*"
_NOTHING = "(?!)"

_CLASSES = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "blank": " \\t",
    "cntrl": "\\x00-\\x1f\\x7f",
    "digit": "0-9",
    "graph": "!-~",
    "lower": "a-z",
    "print": " -~",
    "punct": re.escape("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"),
    "space": " \\t\\n\\r\\f\\v",
    "upper": "A-Z",
    "xdigit": "0-9A-Fa-f",
}


def translate(pattern: str) -> tuple[str | None, bool]:
    """Return the regular expression of one .gitignore line (None for a blank line or a
    comment) and whether it ignores (False: a `!` negation); ValueError if git could use
    it for nothing (a trailing lone `\\`, an unclosed `[`, an unknown `[:class:]`)."""
    if pattern.startswith("#"):
        return None, True
    pattern = _without_trailing_spaces(pattern)
    include = not pattern.startswith("!")
    body = pattern if include else pattern[1:]
    folders_only = body.endswith("/")
    body = body.removesuffix("/")  # one: git matches `a//` with nothing
    if not body:
        return None, include
    if body.startswith("\\/"):
        # A quoted slash is a slash git must find in the path, and the path it matches is
        # relative to the ignore file's folder: it never starts with one.
        return None, include
    anchored = "/" in body
    end = "/$" if folders_only else "/?$"
    glued = _glued_globstar(body) if anchored else None
    if glued is not None:
        prefix, rest = glued
        start = "^" + re.escape(prefix.removeprefix("/"))
        if not rest:
            return start + ".*" + end, include
        parts = _components(rest)
        if _is_star(parts[0][0]):
            # Straight after the literal start, that `**` may match nothing, and a star
            # component then continues the start's own component: git's `*` may match
            # nothing there, so `a.py**/*` ignores a.py itself.
            parts[0] = (parts[0][0], _STAR)
        return start + _joined(_GLUED, parts) + end, include
    parts = _components(body)
    if parts[0][0] == "":  # a leading slash anchors and names no component
        parts = parts[1:]
    skip = None if anchored else FOLDERS
    if _is_globstar(parts[0][0]):  # **/a: a at any depth; `/**` alone: everything
        parts, skip = parts[1:] or [("*", "[^/]+")], FOLDERS
    return "^" + _joined(skip, parts) + end, include


def _joined(skip: str | None, parts: list[tuple[str, str]]) -> str:
    """Return the expression of a pattern's components after `skip` (what may come before
    the first: nothing when None). A `**` between two components is any number of folders
    (consecutive ones are one), and at the end everything inside."""
    pieces: list[tuple[str | None, list[str]]] = [(skip, [])]
    inside = False
    for index, (raw, expression) in enumerate(parts):
        if not (_is_globstar(raw) and len(parts) > 1):
            pieces[-1][1].append(expression)
        elif index == len(parts) - 1:
            inside = True  # a/**: everything inside a, not a itself
        elif pieces[-1][1]:
            pieces.append((FOLDERS, []))
    if not pieces[-1][1]:  # a/**/** is a/**
        pieces.pop()
    # Each piece but the last is taken at its first place, in an atomic group: the `**`
    # after it can skip whatever follows, so a later place matches nothing more, and
    # trying them all (`x/**/**/.../y`) took a path of thirty folders 22 s.
    # The slash after a piece is inside its group, so that `a` at its first place is a
    # whole component (in k/ab/a/, not the start of ab).
    source = ""
    for index, (before, components) in enumerate(pieces):
        text = "/".join(components)
        if before is None:
            source += text + ("/" if index < len(pieces) - 1 else "")
        elif index == len(pieces) - 1:
            source += before + text
        else:
            source += f"(?>{_LAZY[before]}{text}/)"
    return source + ("/.+" if inside else "")


def _is_star(raw: str) -> bool:
    """Tell whether a component is stars alone: it names something, never nothing."""
    return bool(raw) and raw.strip("*") == ""


def _is_globstar(raw: str) -> bool:
    """Tell whether a component is two or more stars alone (git reads `***` as `**`)."""
    return len(raw) >= 2 and raw.strip("*") == ""


def _glued_globstar(body: str) -> tuple[str, str] | None:
    """Return the literal start and the rest after the `**` of a pattern whose first
    wildcard is a `**` glued to text before it and ending a component (`a**/b`, `x/a**`).

    git compares an anchored pattern's literal start first and matches the rest alone,
    where that `**` begins the pattern: it crosses slashes, so `a**/b` matches aa/b,
    a/x/b and abc/b, unlike `a*/b`.
    """
    first = next((i for i, c in enumerate(body) if c in "*?[\\"), len(body))
    stars = len(body) - first - len(body[first:].lstrip("*"))
    rest = body[first + stars :]
    glued = first > 0 and body[first - 1] != "/"
    if stars >= 2 and glued and (not rest or rest.startswith("/")):
        return body[:first], rest[1:]
    return None


def _without_trailing_spaces(pattern: str) -> str:
    """Drop trailing spaces that no backslash quotes; ValueError on a lone final `\\`."""
    end = index = 0
    while index < len(pattern):
        if pattern[index] == "\\":
            if index + 1 == len(pattern):
                raise ValueError(f"{pattern!r}: a pattern cannot end in a lone backslash")
            index += 2
            end = index
        else:
            index += 1
            if pattern[index - 1] != " ":
                end = index
    return pattern[:end]


def _components(body: str) -> list[tuple[str, str]]:
    """Split a pattern at its slashes (not at one in brackets, which git reads as a member)
    into each component's text and expression."""
    parts: list[tuple[str, str]] = []
    out: list[str] = []
    start = index = 0
    while index <= len(body):
        char = body[index] if index < len(body) else "/"
        quoted = body.startswith("\\/", index)  # a quoted slash parts components in git too
        if char == "/" or quoted:
            raw = body[start:index]
            # A component of stars alone names something, never nothing: `a/*` is no
            # match for the folder a/ itself.
            parts.append((raw, "[^/]+" if _is_star(raw) else _linear(out)))
            out, start, index = [], index + 1 + quoted, index + 1 + quoted
        elif char == "*":
            if not out or out[-1] != _STAR:  # `a**b` is `a*b`
                out.append(_STAR)
            index += 1
        elif char == "?":
            out.append("[^/]")
            index += 1
        elif char == "[":
            expression, index = _bracket(body, index)
            out.append(expression)
        elif char == "\\":
            if index + 1 == len(body):  # `\/`: git matches nothing with it
                raise ValueError(f"{body!r}: a backslash quotes no character")
            out.append(re.escape(body[index + 1]))
            index += 2
        else:
            out.append(re.escape(char))
            index += 1
    return parts


def _linear(tokens: list[str]) -> str:
    """Return a component's expression with all its stars but the last matched lazily up
    to the fixed-length text after them, in atomic groups.

    `*a*a*a*b` as `[^/]*a[^/]*a[^/]*a[^/]*b` makes Python's regex engine backtrack in time
    exponential in the stars (one .gitignore line could hold a walk for minutes). Within
    one component the first place of a fixed-length piece is always the right one, as in
    git's own wildmatch, so nothing is lost.
    """
    segments = "".join(tokens).split(_STAR)
    if len(segments) <= 2:
        return "".join(tokens)
    middle = "".join(f"(?>{_STAR}?{segment})" for segment in segments[1:-1])
    return segments[0] + middle + _STAR + segments[-1]


def _bracket(part: str, start: int) -> tuple[str, int]:
    """Return the expression of the bracket expression opening at `start` and the index
    after it; ValueError when it is not closed or names an unknown class."""
    index = start + 1
    negated = index < len(part) and part[index] in "!^"
    index += negated
    items: list[str] = []
    first = True
    while True:
        if index >= len(part):
            raise ValueError(f"{part!r}: a `[` is not closed")
        char = part[index]
        if char == "]" and not first:
            break
        first = False
        if part.startswith("[:", index):
            # git reads a class up to the first `]`, if a `:` stands before it; else the
            # `[` is a character of the set.
            close = part.find("]", index + 2) - 1
            if close < index + 2 or part[close] != ":":
                items.append(re.escape("["))
                index += 1
                continue
            name = part[index + 2 : close]
            if name not in _CLASSES:
                raise ValueError(f"{part!r}: no character class [:{name}:]")
            items.append(_CLASSES[name])
            index = close + 2
            continue
        low, index = _bracket_char(part, index)
        if part.startswith("-", index) and index + 1 < len(part) and part[index + 1] != "]":
            high, index = _bracket_char(part, index + 1)
            # git's wildmatch matches a range's first character even when the range
            # runs backwards (`[b-a]` matches "b")
            items.append(f"{re.escape(low)}-{re.escape(high)}" if low <= high else re.escape(low))
        else:
            items.append(re.escape(low))
    index += 1
    if negated:
        return f"[^/{''.join(items)}]", index
    # A class such as [:punct:] holds "/", which no bracket expression matches.
    return (f"(?!/)[{''.join(items)}]" if items else _NOTHING), index


def _bracket_char(part: str, index: int) -> tuple[str, int]:
    if part[index] == "\\" and index + 1 < len(part):
        return part[index + 1], index + 2
    return part[index], index + 1
