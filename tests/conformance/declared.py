"""The spec tests the engine declares it does not support (`unsupported.toml`), each with what
it lacks in the engine's own words, and the docs' list made from them.

Both are written from a run (`make engine-docs`), never by hand: every failing test must be
declared, with what its clear error names (`test_failures_are_declared_unsupported.py`), and the
docs must hold the list the table gives (`test_docs_list_what_the_runner_finds.py`)."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.conformance.runner.execute import CLEAR_ERROR, FAILED, PASSED
from tests.conformance.runner.fronts import MODES
from tests.conformance.runner.specs import REPO_ROOT
from tests.conformance.runner.suite import SuiteRun

TABLE_FILE = Path(__file__).with_name("unsupported.toml")
DOCS_FILE = REPO_ROOT / "docs" / "embedded-engine.md"
BEGIN = "<!-- unsupported: written by `make engine-docs` from the conformance run -->"
END = "<!-- end unsupported -->"
_HEADER = """\
# The tests of MongoDB's CRUD conformance suite the embedded engine does not pass, by file: each
# test's description and what the engine's clear error says it does not support. Written by
# `make engine-docs` from a run; a failure not listed here, or listed otherwise, fails the tests.
"""

Declared = dict[tuple[str, str], str]


def load_declared(path: Path = TABLE_FILE) -> Declared:
    with path.open("rb") as opened:
        table = tomllib.load(opened)
    return {
        (file, test): str(what) for file, tests in table.items() for test, what in tests.items()
    }


def problems(runs: Iterable[SuiteRun], declared: Mapping[tuple[str, str], str]) -> list[str]:
    """What breaks the rule: a failure that is silent, names nothing the engine lacks, or is not
    declared as it names; a declared test that passes in every mode (when every mode ran)."""
    found: list[str] = []
    passing: dict[tuple[str, str], int] = {}
    runs = list(runs)
    for run in runs:
        for result in run.results:
            key = (result.file, result.description)
            passing[key] = passing.get(key, 0) + (result.status == PASSED)
            if result.status != FAILED:
                continue
            where = f"{run.mode}: {result.file}: {result.description}"
            if result.cause != CLEAR_ERROR or not result.unsupported:
                found.append(f"{where}: fails without naming what it lacks: {result.detail}")
            elif result.unsupported not in declared.get(key, "").split(" | "):
                found.append(f"{where}: not declared as {result.unsupported!r}")
    every_mode = {run.mode for run in runs} == set(MODES)
    stale = [key for key in declared if every_mode and passing.get(key, 0) == len(runs)]
    found += [f"{file}: {test}: declared, but passes: remove it" for file, test in stale]
    return found


def declared_from(runs: Iterable[SuiteRun]) -> Declared:
    """The table a run gives: each failing test and what its clear errors name."""
    named: dict[tuple[str, str], set[str]] = {}
    for run in runs:
        for result in run.results:
            if result.status == FAILED and result.unsupported:
                key = (result.file, result.description)
                named.setdefault(key, set()).add(result.unsupported)
    return {key: " | ".join(sorted(whats)) for key, whats in sorted(named.items())}


def table_text(declared: Mapping[tuple[str, str], str]) -> str:
    lines = [_HEADER]
    for file in sorted({file for file, _ in declared}):
        lines.append(f"\n[{json.dumps(file)}]")
        for (in_file, test), what in sorted(declared.items()):
            if in_file == file:
                lines.append(f"{json.dumps(test)} = {json.dumps(what)}")
    return "\n".join(lines) + "\n"


def docs_list(declared: Mapping[tuple[str, str], str]) -> str:
    """The docs' list: each thing the engine does not support, and the spec files it fails."""
    files: dict[str, set[str]] = {}
    counts: dict[str, int] = {}
    for (file, _), whats in declared.items():
        for named in whats.split(" | "):
            what = named.partition(": ")[0]  # the feature, without the value a test sent
            files.setdefault(what, set()).add(file)
            counts[what] = counts.get(what, 0) + 1
    rows = ["| The engine does not support | Spec tests it fails |", "| --- | --- |"]
    for what in sorted(files):
        rows.append(f"| {what} | {counts[what]}: {', '.join(sorted(files[what]))} |")
    return "\n".join(rows)


def docs_section(text: str) -> str:
    """The generated part of the docs' text, between its markers."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[start:end].strip()


def write(declared: Mapping[tuple[str, str], str]) -> None:
    TABLE_FILE.write_text(table_text(declared), encoding="utf-8")
    text = DOCS_FILE.read_text(encoding="utf-8")
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    DOCS_FILE.write_text(f"{text[:start]}\n{docs_list(declared)}\n{text[end:]}", encoding="utf-8")
