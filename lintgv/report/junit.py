"""Findings as JUnit XML, for CI servers that show test reports (Jenkins, GitLab, Azure).

One test suite, `lintgv`; one test case per finding, named by its code and place, in a
class named after its file, so the report groups findings by file. A finding is a
`<failure>`; a file that could not be checked is an `<error>`. A clean run is one
passing test case, so that the report is never empty.
"""

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from lintgv.links import rule_url
from lintgv.model import FileError, Finding
from lintgv.paths import display_path

# XML 1.0 cannot carry most control characters, even escaped; a message quoting a
# hostile file's text may hold them.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _case(suite: ET.Element, classname: str, name: str) -> ET.Element:
    return ET.SubElement(suite, "testcase", classname=_clean(classname), name=_clean(name))


def render(findings: Sequence[Finding], errors: Sequence[FileError]) -> str:
    """Return the JUnit XML report."""
    suites = ET.Element("testsuites", name="lintgv")
    tests = max(len(findings) + len(errors), 1)
    suite = ET.SubElement(
        suites,
        "testsuite",
        name="lintgv",
        tests=str(tests),
        failures=str(len(findings)),
        errors=str(len(errors)),
        skipped="0",
    )
    suites.set("tests", str(tests))
    suites.set("failures", str(len(findings)))
    suites.set("errors", str(len(errors)))
    for finding in findings:
        path = display_path(finding.path)
        span = finding.span
        place = f"{path}:{span.start_line}:{span.start_col + 1}"
        case = _case(suite, path, f"{finding.code} {finding.rule} at line {span.start_line}")
        failure = ET.SubElement(
            case,
            "failure",
            message=_clean(f"{finding.code} {finding.message}"),
            type=finding.code,
        )
        failure.text = _clean(
            f"{place}: {finding.code} {finding.message}\n"
            f"severity: {finding.severity}\nrule: {rule_url(finding.code)}"
        )
    for error in errors:
        path = display_path(error.path)
        case = _case(suite, path, "could not be checked")
        failed = ET.SubElement(case, "error", message=_clean(error.message), type="lintgv")
        where = f"{path}:{error.line}" if error.line is not None else path
        failed.text = _clean(f"{where}: {error.message}")
    if not findings and not errors:
        _case(suite, "lintgv", "no findings")
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode")
