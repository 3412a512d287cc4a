"""`lintgv validate`: emit each manifest, compile it, read its symbols, check them, then
link every model with a generated `main` and run the program."""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lintgv.model import FileError, Finding
from lintgv.runtime.c_build import Toolchain, ToolFailed, main_source
from lintgv.runtime.c_emitter import EmittedModel, emit_model, write_model
from lintgv.runtime.errors import ManifestError
from lintgv.runtime.manifest import load_manifest
from lintgv.runtime.symbol_checks import ModelSymbols, check_symbols
from lintgv.runtime.versions import DEFAULT_TVM_VERSION
from lintgv.writing import make_folder, write_output


@dataclass(frozen=True)
class CValidation:
    findings: tuple[Finding, ...]
    errors: tuple[FileError, ...]
    output: str  # what the linked program printed; empty when it did not run
    ran: bool


@dataclass(frozen=True)
class _Built:
    manifest: Path
    model: EmittedModel
    directory: Path
    obj: Path
    symbols: ModelSymbols


def validate_manifests(
    paths: Sequence[Path],
    workdir: Path,
    *,
    toolchain: Toolchain | None = None,
    tvm_version: str = DEFAULT_TVM_VERSION,
) -> CValidation:
    """Check that the models of `paths` compile, export only their own prefixed, valid and
    distinct symbols, and link and run together; build in `workdir`."""
    tools = toolchain or Toolchain()
    tools.require()
    built: list[_Built] = []
    errors: list[FileError] = []
    for index, path in enumerate(paths):
        try:
            built.append(_build(path, workdir / f"model{index}", tools, tvm_version))
        except (ManifestError, ToolFailed) as exc:
            errors.append(FileError(path, str(exc)))
    findings = check_symbols([b.symbols for b in built])
    if findings or errors or not built:
        return CValidation(tuple(findings), tuple(errors), "", False)
    main = workdir / "main.c"
    write_output(main, main_source([b.model for b in built]))
    try:
        output = tools.link_and_run(main, [b.obj for b in built], [b.directory for b in built])
    except ToolFailed as exc:
        return CValidation((), (FileError(main, f"linking all models failed: {exc}"),), "", False)
    return CValidation((), (), output, True)


def _build(path: Path, directory: Path, tools: Toolchain, tvm_version: str) -> _Built:
    manifest = load_manifest(path)
    model = emit_model(manifest, tvm_version=tvm_version)
    make_folder(directory)  # inside the build folder: never a link that leaves it
    _, source = write_model(model, directory)
    obj = tools.compile(source)
    text = path.read_text(encoding="utf-8")
    lines = tuple((f.symbol, _line_of(text, f.name)) for f in model.functions)
    name = manifest.model if manifest.model is not None else "default"
    symbols = ModelSymbols(path, name, model.prefix, tools.exported(obj), lines)
    return _Built(path, model, directory, obj, symbols)


def _line_of(text: str, name: str) -> int:
    quoted = json.dumps(name)
    for number, line in enumerate(text.splitlines(), start=1):
        if quoted in line:
            return number
    return 1
