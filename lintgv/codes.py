"""The codes lintgv has, known without loading a rule: one rule module per code, named
`<code>_<rule name>.py` in lintgv/rules (the catalogue test holds the registry to this
list). Config validation asks here, below the registry that imports the config."""

import pkgutil
import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

# The rules' folder, read without importing the package: this module sits below it.
_RULES = Path(__file__).parent / "rules"
CODE_PREFIX = re.compile(r"^GV[0-9]{0,3}$")
_MODULE = re.compile(r"^(gv\d{3})_")


@cache
def known_codes() -> tuple[str, ...]:
    """Return every rule code, in order."""
    found = {
        match.group(1).upper()
        for info in pkgutil.iter_modules([str(_RULES)])
        if (match := _MODULE.match(info.name))
    }
    return tuple(sorted(found))


# Codes `check` never reports, by prefix, with the command that does: they are findings
# on what a build or a proof produces (rules._base.ArtifactRule, whose REPORTED_BY names
# the same command; the catalogue test holds the two together).
REPORTED_ELSEWHERE = {"GV50": "lintgv validate", "GV51": "lintgv validate-copies"}


def reporter(code: str) -> str | None:
    """Return the command that reports `code` when `check` does not, else None."""
    return next((c for p, c in REPORTED_ELSEWHERE.items() if code.startswith(p)), None)


def only_reported_elsewhere(code: str) -> str | None:
    """Return why selecting `code` (a code or prefix) selects nothing `check` reports,
    naming the codes and their commands; None when some source rule matches it."""
    matched = [real for real in known_codes() if real.startswith(code)]
    if not matched or any(reporter(real) is None for real in matched):
        return None
    commands: dict[str, list[str]] = {}
    for real in matched:
        commands.setdefault(str(reporter(real)), []).append(real)
    told = "; ".join(f"`{c}` reports {', '.join(codes)}" for c, codes in commands.items())
    return (
        "names only codes that `check`, `fix` and the server never report (findings on "
        f"what a build or a proof produces): {told}, whatever the selection"
    )


_LOOK_ALIKE_DIGITS = str.maketrans("OIL", "011")


def unknown_code(code: str) -> str | None:
    """Return why `code` names no rule (with the closest real code), or None when it is a
    registered code or a prefix of one."""
    known = known_codes()
    if CODE_PREFIX.match(code) and any(real.startswith(code) for real in known):
        return None
    # Letters typed for the digits they look like (GV1O1) are the commonest slip.
    upper = code.upper()
    read_as_digits = upper[:2] + upper[2:].translate(_LOOK_ALIKE_DIGITS)
    close = [read_as_digits] if read_as_digits in known else []
    if not close:
        import difflib  # only for a mistyped code: every run would pay for it

        close = difflib.get_close_matches(upper, known, n=1, cutoff=0.5)
    hint = f"; did you mean {close[0]}?" if close else f"; the codes are {', '.join(known)}"
    if not CODE_PREFIX.match(code):
        return f"expected a code or prefix such as GV101 or GV1{hint}"
    return f"no rule has this code or prefix{hint}"


def _matches(code: str, prefixes: Sequence[str]) -> int:
    """Return the length of the longest prefix in `prefixes` that `code` starts with, else -1."""
    return max((len(p) for p in prefixes if code.startswith(p)), default=-1)


def is_selected(
    code: str,
    default_enabled: bool,
    select: Sequence[str],
    extend_select: Sequence[str],
    ignore: Sequence[str],
) -> bool:
    """Tell whether settings turn `code` on; the more specific of select and ignore wins."""
    chosen = max(_matches(code, select), _matches(code, extend_select))
    explicit = code in select or _matches(code, extend_select) >= 0
    if chosen < 0 or not (default_enabled or explicit):
        return False
    return _matches(code, ignore) < chosen or _matches(code, ignore) < 0
