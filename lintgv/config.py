"""`[tool.lintgv]` in pyproject.toml, or lintgv.toml: every default and every check lives here."""

import os
import re
from dataclasses import field, fields, replace
from functools import cached_property
from pathlib import Path

from lintgv.codes import is_selected, known_codes, only_reported_elsewhere, reporter, unknown_code
from lintgv.errors import ConfigError
from lintgv.model import Severity
from lintgv.paths import Matcher
from lintgv.reading import read_bounded
from lintgv.records import frozen
from lintgv.release import Release

CONFIG_FILES = ("lintgv.toml", "pyproject.toml")
DEFAULT_RELEASE = Release(24, "0.24")
# The runtime takes a release as text, as its own callers write it.
DEFAULT_TVM_VERSION = DEFAULT_RELEASE.text


# Folders no walk goes into unless `exclude` is replaced.
DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    "__pycache__",
    "node_modules",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    ".lintgv_cache",
    "build",
    "dist",
)


@frozen
class Config:
    """Settings for one project; paths in globs are relative to `root`."""

    root: Path = field(default_factory=Path.cwd)
    source: Path | None = None
    select: tuple[str, ...] = ("GV",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    supply_paths: tuple[str, ...] = ("*global_var_supply*", "*name_supply*")
    extend_supply_paths: tuple[str, ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    python_extensions: tuple[str, ...] = (".py", ".pyi")
    cpp_extensions: tuple[str, ...] = (".cc", ".cpp", ".cxx", ".h", ".hpp", ".hh", ".cu", ".cuh")
    extra_constructors: tuple[str, ...] = ()
    extra_unique_name_helpers: tuple[str, ...] = ()
    extra_supply_names: tuple[str, ...] = ()
    # Modules used as TVMScript dialects besides tvm.script's own (`import mypkg.language
    # as T`): their `func_attr` is TVMScript's.
    tvmscript_modules: tuple[str, ...] = ()
    # Modules that re-export TVM under another name (`mypkg.compat` for
    # `from mypkg.compat import ir`); `from mypkg import tvm` needs none.
    tvm_packages: tuple[str, ...] = ()
    # How many calls up `fix --unsafe` threads a GlobalVarSupply parameter (1: only into
    # the function that builds the GlobalVar).
    supply_depth: int = 3
    release: Release = DEFAULT_RELEASE
    severity: tuple[tuple[str, Severity], ...] = ()
    max_file_size: int = 2 * 1024 * 1024

    def severity_for(self, code: str, default: Severity) -> Severity:
        """Return the configured severity of `code`, else `default`."""
        return dict(self.severity).get(code, default)

    @cached_property
    def fingerprint(self) -> str:
        """A stable text that changes whenever a setting that affects results changes."""
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.name != "source"]
        return "\n".join(parts)


def _strings(path: Path | None, key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(path, key, value, "expected a list of strings")
    return tuple(value)


def _globs(path: Path | None, key: str, value: object) -> tuple[str, ...]:
    return tuple(_glob(path, key, glob) for glob in _strings(path, key, value))


def _glob(path: Path | None, key: str, glob: str) -> str:
    # `./src/x.py` names what `src/x.py` does, as in ruff (git would match it with nothing).
    negation = "!" if glob.startswith("!") else ""
    glob = negation + glob.removeprefix(negation).removeprefix("./")
    if not glob.removeprefix(negation).strip():
        # `"!" = ["GV101"]` would drop the codes on every file, silently.
        raise ConfigError(path, key, glob, "an empty pattern names no file")
    if not Matcher.is_valid(glob):
        raise ConfigError(path, key, glob, "not a pattern git can use (.gitignore syntax)")
    return glob


def _codes(path: Path | None, key: str, value: object) -> tuple[str, ...]:
    codes = _strings(path, key, value)
    if key == "select" and not codes:
        raise ConfigError(path, key, value, "selects no rule; name codes or prefixes such as GV1")
    for code in codes:
        problem = unknown_code(code)
        # Ignoring a code `check` never reports is harmless (its own command reports it
        # whatever the selection); selecting only such codes would pass silently.
        if problem is None and key in ("select", "extend-select"):
            problem = only_reported_elsewhere(code)
        if problem is not None:
            raise ConfigError(path, key, code, problem)
    return codes


def _bool(path: Path | None, key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(path, key, value, "expected true or false")
    return value


def _int(path: Path | None, key: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ConfigError(path, key, value, "expected a positive integer")
    return value


def _version(path: Path | None, key: str, value: object) -> Release:
    release = Release.parse(value)
    if release is None or release.minor == 0:
        raise ConfigError(path, key, value, 'expected a TVM release such as "0.16" or "0.26"')
    return release


def _extensions(path: Path | None, key: str, value: object) -> tuple[str, ...]:
    exts = _strings(path, key, value)
    for ext in exts:
        if not ext.startswith(".") or len(ext) < 2:
            raise ConfigError(path, key, ext, 'expected a suffix starting with a dot, like ".cc"')
    return exts


def _per_file_ignores(
    path: Path | None, key: str, value: object
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not isinstance(value, dict):
        raise ConfigError(path, key, value, "expected a table of glob = [codes]")
    return tuple(
        (_glob(path, key, str(glob)), _codes(path, f"{key}.{glob}", codes))
        for glob, codes in value.items()
    )


def _severity(path: Path | None, key: str, value: object) -> tuple[tuple[str, Severity], ...]:
    if not isinstance(value, dict):
        raise ConfigError(path, key, value, 'expected a table of CODE = "error"|"warning"|"info"')
    result = []
    for code, level in value.items():
        if not re.fullmatch(r"GV[0-9]{3}", code):
            raise ConfigError(path, f"{key}.{code}", code, "expected a full code such as GV101")
        if level not in {s.value for s in Severity}:
            raise ConfigError(path, f"{key}.{code}", level, "expected error, warning or info")
        result.append((code, Severity(level)))
    return tuple(result)


_PARSERS = {
    "select": ("select", _codes),
    "extend-select": ("extend_select", _codes),
    "ignore": ("ignore", _codes),
    "per-file-ignores": ("per_file_ignores", _per_file_ignores),
    "supply-paths": ("supply_paths", _globs),
    "extend-supply-paths": ("extend_supply_paths", _globs),
    "exclude": ("exclude", _globs),
    "extend-exclude": ("extend_exclude", _globs),
    "respect-gitignore": ("respect_gitignore", _bool),
    "python-extensions": ("python_extensions", _extensions),
    "cpp-extensions": ("cpp_extensions", _extensions),
    "extra-constructors": ("extra_constructors", _strings),
    "extra-unique-name-helpers": ("extra_unique_name_helpers", _strings),
    "extra-supply-names": ("extra_supply_names", _strings),
    "tvmscript-modules": ("tvmscript_modules", _strings),
    "tvm-packages": ("tvm_packages", _strings),
    "supply-depth": ("supply_depth", _int),
    "tvm-version": ("release", _version),
    "severity": ("severity", _severity),
    "max-file-size": ("max_file_size", _int),
}

SETTING_KEYS = tuple(_PARSERS)


def apply_settings(base: Config, table: dict[str, object], path: Path | None) -> Config:
    """Return `base` updated with the settings in `table` (keys as written in TOML)."""
    changes: dict[str, object] = {}
    for key, value in table.items():
        if key not in _PARSERS:
            close = [k for k in _PARSERS if k.replace("-", "_") == key.replace("-", "_")]
            hint = f"; did you mean `{close[0]}`?" if close else ""
            raise ConfigError(path, key, value, f"unknown setting{hint}")
        attr, parse = _PARSERS[key]
        changes[attr] = parse(path, key, value)
    # Each value was checked by the parser of its key, which returns the field's type.
    config = replace(base, **changes)  # type: ignore[arg-type]
    selection = [key for key in ("ignore", "select", "extend-select") if key in table]
    # Every code `check` reports counts as on by default here: the rules, which alone
    # know which are off, are not imported to read a config (the command line checks
    # them all).
    if selection and not any(
        is_selected(code, True, config.select, config.extend_select, config.ignore)
        for code in known_codes()
        if reporter(code) is None
    ):
        key = selection[0]
        raise ConfigError(path, key, table[key], "selects no rule; ignore fewer codes")
    return config


# A config file larger than this is not one a person wrote.
_CONFIG_BYTES = 1024 * 1024


def read_table(path: Path) -> dict[str, object] | None:
    """Return lintgv's settings table in `path`, or None when the file has none."""
    import tomllib  # here: most runs read no config file, and the import is 8 ms

    try:
        raw = read_bounded(path, _CONFIG_BYTES)
        if len(raw) > _CONFIG_BYTES:
            raise ConfigError(path, "(file)", path.name, f"over {_CONFIG_BYTES} bytes")
        data = tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, "(file)", path.name, f"not valid TOML: {exc}") from exc
    except RecursionError as exc:
        raise ConfigError(path, "(file)", path.name, "nested too deeply to read") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(path, "(file)", path.name, f"cannot be read: {exc}") from exc
    except ValueError as exc:  # an integer of more digits than Python converts (its
        # message ends in advice for Python programmers, left out)
        reason = f"cannot be read: {str(exc).partition(';')[0]}"
        raise ConfigError(path, "(file)", path.name, reason) from exc
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get("lintgv") if isinstance(tool, dict) else None
        if table is None:
            return None
        if not isinstance(table, dict):
            raise ConfigError(path, "tool.lintgv", table, "expected a table")
        return table
    return data


def load_config(path: Path, root: Path | None = None) -> Config:
    """Read the config file at `path` into a Config rooted at `root` (its globs are
    relative to it; by default the file's folder)."""
    table = read_table(path)
    base = Config(root=root or path.parent.resolve(), source=path.resolve())
    return apply_settings(base, table or {}, path)


def find_config_file(start: Path) -> Path | None:
    """Return the nearest lintgv.toml or pyproject.toml with [tool.lintgv] at or above `start`."""
    folder = start.resolve()
    if not os.path.isdir(folder):  # False, not an OSError, for a name too long
        folder = folder.parent
    for candidate_dir in (folder, *folder.parents):
        for name in CONFIG_FILES:
            candidate = candidate_dir / name
            if is_config_file(candidate):
                return candidate
    return None


def is_config_file(path: Path) -> bool:
    """Tell whether `path` is a lintgv.toml, or a pyproject.toml that mentions lintgv."""
    try:
        is_file = path.is_file()
    except OSError:  # a folder that can be listed but not entered
        return False
    if path.name == "lintgv.toml":
        return is_file
    if path.name != "pyproject.toml" or not is_file:
        return False
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    # A cheap look before parsing: most pyproject files have no lintgv table at all, and
    # a broken pyproject.toml that is not ours must not stop a run.
    return "[tool.lintgv" in text


def config_for(start: Path) -> Config:
    """Return the config that governs `start`, or the defaults rooted at the current folder."""
    found = find_config_file(start)
    return load_config(found) if found is not None else Config()
