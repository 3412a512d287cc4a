"""The client's `lintgv` settings (initializationOptions, didChangeConfiguration,
workspace/configuration), checked, and laid over the project's own configuration."""

import re
from collections.abc import Mapping
from dataclasses import field, replace

from lintgv.config import Config, apply_settings
from lintgv.model import Severity
from lintgv.records import frozen
from lintgv.registry import rule_codes

DIAGNOSTIC_MODES = ("push", "pull")
_PREFIX = re.compile(r"^GV\d{0,3}$")


@frozen
class ClientSettings:
    """What an editor may decide; `None` and empty values leave it to the config file."""

    enable: bool = True
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    tvm_version: str | None = None
    # Code or prefix → severity; the longest prefix wins.
    severity: tuple[tuple[str, Severity], ...] = ()
    fix_all: bool = False
    # Where a rule's page lives: a URL with `{code}` in it; empty: the bundled docs/rules.
    docs_url: str = ""
    debounce_ms: int = 150
    diagnostic_mode: str = "push"
    # Build the helper index in the background when the session starts (GV202/GV203 of
    # helpers defined in other files show without a workspace check).
    index_workspace: bool = True


@frozen
class Parsed:
    settings: ClientSettings
    problems: tuple[str, ...] = field(default_factory=tuple)


def _section(raw: object) -> Mapping[str, object]:
    """Return the `lintgv` section of `raw`, which may be the section itself."""
    if not isinstance(raw, Mapping):
        return {}
    inner = raw.get("lintgv")
    return inner if isinstance(inner, Mapping) else raw


def _codes(key: str, value: object, problems: list[str]) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(f"lintgv.{key}: expected a list of codes such as GV101 or GV1")
        return None
    codes = tuple(v.strip() for v in value if v.strip())
    bad = [c for c in codes if not _PREFIX.match(c)]
    if bad:
        problems.append(f"lintgv.{key}: {bad[0]!r} is not a code or prefix such as GV101 or GV1")
        return None
    return codes


def _severity(value: object, problems: list[str]) -> tuple[tuple[str, Severity], ...]:
    if value is None:
        return ()
    levels = {s.value for s in Severity}
    if not isinstance(value, Mapping):
        problems.append('lintgv.severity: expected an object such as {"GV1": "error"}')
        return ()
    result = []
    for code, level in value.items():
        if not isinstance(code, str) or not _PREFIX.match(code) or level not in levels:
            problems.append(f"lintgv.severity: {code!r}: {level!r} is not error, warning or info")
            continue
        result.append((code, Severity(level)))
    return tuple(result)


def _flag(section: Mapping[str, object], key: str, default: bool, problems: list[str]) -> bool:
    value = section.get(key, default)
    if isinstance(value, bool):
        return value
    problems.append(f"lintgv.{key}: expected true or false")
    return default


def parse_settings(raw: object, base: ClientSettings | None = None) -> Parsed:
    """Read the client's settings; a bad value is reported and keeps its earlier value."""
    base = base or ClientSettings()
    section = _section(raw)
    problems: list[str] = []
    changes: dict[str, object] = {}
    if "enable" in section:
        changes["enable"] = _flag(section, "enable", base.enable, problems)
    if "fixAll" in section:
        changes["fix_all"] = _flag(section, "fixAll", base.fix_all, problems)
    if "indexWorkspace" in section:
        changes["index_workspace"] = _flag(
            section, "indexWorkspace", base.index_workspace, problems
        )
    if "select" in section:
        changes["select"] = _codes("select", section["select"], problems)
    for key, attr in (("extendSelect", "extend_select"), ("ignore", "ignore")):
        if key in section:
            changes[attr] = _codes(key, section[key], problems) or ()
    if "tvmVersion" in section:
        version = section["tvmVersion"]
        if version is None or (isinstance(version, str) and not version.strip()):
            changes["tvm_version"] = None
        elif isinstance(version, str):
            changes["tvm_version"] = version.strip()
        else:
            problems.append('lintgv.tvmVersion: expected a release such as "0.16"')
    if "severity" in section:
        changes["severity"] = _severity(section["severity"], problems)
    if isinstance(section.get("docsUrl"), str):
        changes["docs_url"] = str(section["docsUrl"])
    debounce = section.get("debounceMs")
    if isinstance(debounce, int) and not isinstance(debounce, bool) and debounce >= 0:
        changes["debounce_ms"] = debounce
    mode = section.get("diagnosticMode")
    if mode in DIAGNOSTIC_MODES:
        changes["diagnostic_mode"] = mode
    # Each value was checked above against its field's type.
    settings = replace(base, **changes)  # type: ignore[arg-type]
    return Parsed(settings, tuple(problems))


def severity_overrides(settings: ClientSettings) -> dict[str, str]:
    """Return a severity per full code, prefixes expanded (the longest prefix wins)."""
    chosen: dict[str, tuple[int, str]] = {}
    for prefix, level in settings.severity:
        for code in rule_codes():
            if code.startswith(prefix) and len(prefix) >= chosen.get(code, (-1, ""))[0]:
                chosen[code] = (len(prefix), level.value)
    return {code: level for code, (_, level) in chosen.items()}


def layered(config: Config, settings: ClientSettings) -> Config:
    """Return `config` with the client's settings laid over it.

    `select` and `tvmVersion` replace the file's values; `extendSelect` and `ignore` add
    to them; severities override per code. Raises ConfigError for a bad value.
    """
    table: dict[str, object] = {}
    if settings.select is not None:
        table["select"] = list(settings.select)
    if settings.extend_select:
        table["extend-select"] = [*config.extend_select, *settings.extend_select]
    if settings.ignore:
        table["ignore"] = [*config.ignore, *settings.ignore]
    if settings.tvm_version is not None:
        table["tvm-version"] = settings.tvm_version
    if settings.severity:
        table["severity"] = {
            **{code: level.value for code, level in config.severity},
            **severity_overrides(settings),
        }
    return apply_settings(config, table, None) if table else config
