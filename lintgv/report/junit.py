"""Findings as JUnit XML, for CI servers that show test reports (Jenkins, GitLab, Azure).

A test suite per file with findings or errors, named by its path: a test case per finding
(a `<failure>`) and one per error (an `<error>`: the file or a rule on it could not be
checked). The class name is the path without its suffix, as ESLint and Ruff write it:
Jenkins takes what follows a class name's last dot as the class, so `src/passes.py` would be
listed as class `py` of package `src/passes`. A clean run is one passing test case, because
Jenkins fails a build whose reports hold no test at all.
"""

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import PurePosixPath

from lintgv.links import rule_url
from lintgv.model import FileError, Finding
from lintgv.paths import display_path

# XML 1.0 cannot carry most control characters, even escaped, nor lone surrogates (a file
# name that is not UTF-8 holds them); a message quoting a hostile file's text may too.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


class _Suites:
    """The report's `<testsuites>`, with a `<testsuite>` per file made when first needed."""

    def __init__(self) -> None:
        self.root = ET.Element("testsuites", name="lintgv")
        self.suites: dict[str, ET.Element] = {}

    def case(self, path: str, name: str) -> ET.Element:
        suite = self.suites.get(path)
        if suite is None:
            suite = ET.SubElement(self.root, "testsuite", name=path)
            self.suites[path] = suite
        suffix = PurePosixPath(path).suffix
        classname = path[: -len(suffix)] if suffix else path
        return ET.SubElement(suite, "testcase", classname=classname, name=name)

    def count(self) -> None:
        """Set tests, failures and errors on every suite and on the whole report."""
        totals = dict.fromkeys(("tests", "failures", "errors"), 0)
        for suite in self.root:
            counts = {
                "tests": len(suite),
                "failures": len(suite.findall("testcase/failure")),
                "errors": len(suite.findall("testcase/error")),
            }
            for key, value in counts.items():
                suite.set(key, str(value))
                totals[key] += value
            suite.set("skipped", "0")
        for key, value in totals.items():
            self.root.set(key, str(value))


def _add_finding(suites: _Suites, finding: Finding) -> None:
    path = _clean(display_path(finding.path))
    span = finding.span
    place = f"{path}:{span.start_line}:{span.start_col + 1}"
    name = f"{finding.code} {finding.rule} at {PurePosixPath(place).name}"
    failure = ET.SubElement(
        suites.case(path, name),
        "failure",
        message=_clean(f"{finding.code} {finding.message}"),
        type=finding.code,
    )
    failure.text = _clean(
        f"{place}: {finding.code} {finding.message}\n"
        f"severity: {finding.severity}\nrule: {rule_url(finding.code)}"
    )


def _add_error(suites: _Suites, error: FileError) -> None:
    path = _clean(display_path(error.path))
    what = f"{error.code} could not be checked" if error.code else "could not be checked"
    failed = ET.SubElement(
        suites.case(path, what), "error", message=_clean(error.message), type="lintgv"
    )
    where = f"{path}:{error.line}" if error.line is not None else path
    failed.text = _clean(f"{where}: {error.message}")


def render(findings: Sequence[Finding], errors: Sequence[FileError]) -> str:
    """Return the JUnit XML report."""
    suites = _Suites()
    for finding in findings:
        _add_finding(suites, finding)
    for error in errors:
        _add_error(suites, error)
    if not findings and not errors:
        suites.case("lintgv", "no findings")
    suites.count()
    ET.indent(suites.root)
    xml = ET.tostring(suites.root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + xml
