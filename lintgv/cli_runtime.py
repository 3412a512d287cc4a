"""`lintgv emit-c`, `lintgv validate` and `lintgv validate-copies`: arguments and exit codes.

Exit codes as for `check`: 0 clean, 1 findings, 2 something could not be checked.
"""

import argparse
import sys
from pathlib import Path
from typing import Any

from lintgv.cli_options import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, tvm_release


def add_runtime_commands(commands: "argparse._SubParsersAction[Any]") -> None:
    """Add the runtime subcommands to the `lintgv` parser."""
    emit = commands.add_parser("emit-c", help="write <model>.c and <model>.h from a manifest")
    emit.add_argument("manifest", type=Path, metavar="MANIFEST.json")
    emit.add_argument("-o", "--output", type=Path, required=True, metavar="DIR")
    _add_version(emit)
    emit.set_defaults(func=command_emit_c)

    validate = commands.add_parser(
        "validate", help="emit, compile, check symbols of, link and run several models"
    )
    validate.add_argument("manifests", nargs="+", type=Path, metavar="MANIFEST.json")
    validate.add_argument("--build-dir", type=Path, metavar="DIR", help="keep the build here")
    validate.add_argument("--cc", default="cc", help="C compiler (default: cc)")
    validate.add_argument("--nm", default="nm", help="symbol lister (default: nm)")
    _add_format(validate)
    _add_version(validate)
    validate.set_defaults(func=command_validate)

    copies = commands.add_parser(
        "validate-copies",
        help="RUNS CODE FROM THE TREE (sandboxed): each unique-name copy beside "
        "NameSupply.fresh_name, showing where names differ",
        description="Compile and run every unique-name copy GV201 finds (C++ with --cxx, "
        "Python in an isolated interpreter) on a fixed sequence of names, and compare "
        "with NameSupply.fresh_name. This runs code of the analysed tree: each copy runs "
        "in a sandbox (bubblewrap: read-only file system, no network, a throwaway folder, "
        "an empty environment, CPU, memory, process, file-size, output and time limits); "
        "see docs/security.md.",
    )
    copies.add_argument("paths", nargs="*", type=Path, default=[Path(".")], metavar="PATH")
    copies.add_argument("--cxx", default="c++", help="C++ compiler (default: c++)")
    copies.add_argument("--config", type=Path, metavar="FILE", help="lintgv.toml or pyproject.toml")
    add_unsandboxed(copies)
    _add_format(copies)
    _add_version(copies)
    copies.set_defaults(func=command_validate_copies)


def add_unsandboxed(parser: argparse.ArgumentParser) -> None:
    """Add --allow-unsandboxed, for the commands that run code of the tree."""
    parser.add_argument(
        "--allow-unsandboxed",
        action="store_true",
        help="where bubblewrap is missing or the kernel refuses it namespaces, run copies "
        "anyway with only the limits, a throwaway folder and an empty environment (no "
        "file-system or network isolation); without this flag they are not run",
    )


def _add_version(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tvm-version",
        type=tvm_release,
        metavar="X.Y",
        help='TVM release to model, e.g. "0.16" (default: config)',
    )


def _add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=["text", "json"], default="text")


def _version(args: argparse.Namespace) -> str:
    """Return the TVM release to model: the flag, else the project's `tvm-version`."""
    from lintgv.config import config_for

    return str(args.tvm_version or config_for(Path.cwd()).release.text)


def command_emit_c(args: argparse.Namespace) -> int:
    from lintgv.runtime.c_emitter import emit_model, write_model
    from lintgv.runtime.manifest import load_manifest

    model = emit_model(load_manifest(args.manifest), tvm_version=_version(args))
    try:
        written = write_model(model, args.output)
    except OSError as exc:
        print(f"lintgv: error: cannot write into {args.output}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    for path in written:
        print(path)
    return EXIT_CLEAN


def command_validate(args: argparse.Namespace) -> int:
    import tempfile

    from lintgv.report import json as json_report
    from lintgv.report import text as text_report
    from lintgv.runtime.c_build import Toolchain, ToolFailed
    from lintgv.runtime.c_validate import validate_manifests

    with tempfile.TemporaryDirectory(prefix="lintgv-validate-") as scratch:
        workdir = args.build_dir or Path(scratch)
        try:
            result = validate_manifests(
                args.manifests,
                workdir,
                toolchain=Toolchain(args.cc, args.nm),
                tvm_version=_version(args),
            )
        except (ToolFailed, OSError) as exc:
            print(f"lintgv: error: {exc}", file=sys.stderr)
            return EXIT_ERROR
    if args.format == "json":
        print(json_report.render(result.findings, result.errors))
    else:
        body = text_report.render(result.findings, result.errors, {})
        if body:
            print(body)
        if result.ran:
            print(
                f"Linked {len(args.manifests)} models; the program printed: {result.output.strip()}"
            )
        print(text_report.summary(result.findings, result.errors, len(args.manifests)))
    return (EXIT_FINDINGS if result.findings else 0) | (EXIT_ERROR if result.errors else 0)


def command_validate_copies(args: argparse.Namespace) -> int:
    from lintgv.report import json as json_report
    from lintgv.rewrite_validation import render_text, validate_tree

    report = validate_tree(
        args.paths,
        config_file=args.config,
        tvm_version=args.tvm_version,
        cxx=args.cxx,
        unsandboxed=args.allow_unsandboxed,
    )
    if args.format == "json":
        print(json_report.render(report.findings, report.errors))
    else:
        print(render_text(report))
    return (EXIT_FINDINGS if report.findings else 0) | (EXIT_ERROR if report.errors else 0)
