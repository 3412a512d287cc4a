"""The C emitter's input: `{"model": "mynet", "functions": ["run", "fused.add"]}`."""

import json
from dataclasses import dataclass
from pathlib import Path

from lintgv.runtime.errors import ManifestError

_KEYS = ("model", "functions")


@dataclass(frozen=True)
class Manifest:
    """A model's name (None: the default model) and its functions, in order."""

    model: str | None
    functions: tuple[str, ...]
    source: str = "<manifest>"


def load_manifest(path: Path) -> Manifest:
    """Read and check the manifest at `path`."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(str(path), "(file)", str(path), f"cannot read it: {exc}") from exc
    return parse_manifest(text, str(path))


def parse_manifest(text: str, source: str = "<manifest>") -> Manifest:
    """Return the manifest in `text`; `source` names it in errors."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}"
        raise ManifestError(
            source, "(document)", text[:40], f"not JSON: {exc.msg} at {where}"
        ) from exc
    except ValueError as exc:  # a number of more digits than Python converts
        reason = f"not JSON: {str(exc).partition(';')[0]}"  # without advice for programmers
        raise ManifestError(source, "(document)", text[:40], reason) from exc
    except RecursionError as exc:
        raise ManifestError(source, "(document)", text[:40], "nested too deeply to read") from exc
    if not isinstance(document, dict):
        raise ManifestError(source, "(document)", document, "expected a JSON object")
    unknown = sorted(set(document) - set(_KEYS))
    if unknown:
        raise ManifestError(
            source, unknown[0], document[unknown[0]], f"unknown key; expected {_KEYS}"
        )
    return Manifest(_model(source, document.get("model")), _functions(source, document), source)


def _model(source: str, model: object) -> str | None:
    if model is None:
        return None
    if not isinstance(model, str):
        raise ManifestError(source, "model", model, "expected a string or null")
    if not any(c.isascii() and c.isalnum() for c in model):
        raise ManifestError(source, "model", model, "needs at least one ASCII letter or digit")
    return model


def _functions(source: str, document: dict[str, object]) -> tuple[str, ...]:
    if "functions" not in document:
        raise ManifestError(source, "functions", None, "missing; list the model's functions")
    functions = document["functions"]
    if not isinstance(functions, list) or not functions:
        raise ManifestError(source, "functions", functions, "expected a non-empty list of names")
    first_seen: dict[str, int] = {}
    for index, name in enumerate(functions):
        key = f"functions[{index}]"
        if not isinstance(name, str) or not name:
            raise ManifestError(source, key, name, "expected a non-empty string")
        if name in first_seen:
            raise ManifestError(source, key, name, f"repeats functions[{first_seen[name]}]")
        first_seen[name] = index
    return tuple(functions)
