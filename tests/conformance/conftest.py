"""The conformance suite's runs, once a session per mode, and their summary at the end of the
report (`python -m tests.conformance` prints them by file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.runner.report import summary_line
from tests.conformance.runner.specs import missing_reason, specs_root
from tests.conformance.runner.suite import SuiteRun, run_suite
from tests.conformance.skips import SKIPS

_RUNS: dict[str, SuiteRun] = {}


@pytest.fixture(scope="session")
def specs() -> Path:
    """The specifications folder; the test skips, saying why, where it is absent."""
    root = specs_root()
    if root is None:
        pytest.skip(missing_reason())
    return root


async def suite_run(mode: str, root: Path) -> SuiteRun:
    """The whole suite in `mode`, run once a session."""
    if mode not in _RUNS:
        _RUNS[mode] = await run_suite(mode, root, SKIPS)
    return _RUNS[mode]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for run in _RUNS.values():
        terminalreporter.write_line(summary_line(run))
