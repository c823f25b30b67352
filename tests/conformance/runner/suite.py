"""The whole CRUD suite run in one mode: every test not in the skip table runs, in the files'
order, and the run's results and wall time are returned."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.conformance.runner.execute import FAILED, PASSED, SKIPPED, TestResult, run_test
from tests.conformance.runner.fronts import open_front
from tests.conformance.runner.specs import SpecTest, load_tests


@dataclass(frozen=True)
class SuiteRun:
    mode: str
    results: Sequence[TestResult]
    seconds: float

    def count(self, status: str) -> int:
        return sum(1 for result in self.results if result.status == status)

    @property
    def passed(self) -> int:
        return self.count(PASSED)

    @property
    def failed(self) -> int:
        return self.count(FAILED)

    @property
    def skipped(self) -> int:
        return self.count(SKIPPED)


async def run_suite(mode: str, root: Path, skips: Mapping[tuple[str, str], str]) -> SuiteRun:
    """Every test under `root` in `mode` ("memory" or "wire"), those in `skips` skipped."""
    started = time.perf_counter()
    results: list[TestResult] = []
    front = open_front(mode)
    try:
        for test in load_tests(root):
            results.append(await _one(front, test, skips))
    finally:
        await front.close()
    return SuiteRun(mode, results, time.perf_counter() - started)


async def _one(front: object, test: SpecTest, skips: Mapping[tuple[str, str], str]) -> TestResult:
    reason = skips.get(test.key)
    if reason is not None:
        return TestResult(test.file, test.description, SKIPPED, detail=reason)
    return await run_test(front, test)  # type: ignore[arg-type]


def run_suite_blocking(mode: str, root: Path, skips: Mapping[tuple[str, str], str]) -> SuiteRun:
    """`run_suite` on an event loop of its own."""
    return asyncio.run(run_suite(mode, root, skips))
