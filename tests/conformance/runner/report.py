"""A run's summary: pass, fail and skip counts by file and in all, and the failing tests grouped
by cause (the engine's clear errors, and its silent divergences)."""

from __future__ import annotations

from collections import Counter

from tests.conformance.runner.execute import CLEAR_ERROR, FAILED, PASSED, SILENT, SKIPPED
from tests.conformance.runner.suite import SuiteRun


def report(run: SuiteRun, *, failures: bool = True) -> str:
    counts: dict[str, Counter[str]] = {}
    for result in run.results:
        counts.setdefault(result.file, Counter())[result.status] += 1
    width = max((len(name) for name in counts), default=4)
    lines = [f"conformance ({run.mode}): {'file':<{width}}  pass  fail  skip"]
    for name, count in counts.items():
        figures = "".join(f"{count[status]:>6}" for status in (PASSED, FAILED, SKIPPED))
        lines.append(f"conformance ({run.mode}): {name:<{width}}{figures}")
    if failures:
        lines += _failures(run)
    lines.append(summary_line(run))
    return "\n".join(lines)


def summary_line(run: SuiteRun) -> str:
    return (
        f"conformance ({run.mode}): {run.passed} pass, {run.failed} fail, {run.skipped} skip "
        f"of {len(run.results)} tests in {run.seconds:.1f} s"
    )


def _failures(run: SuiteRun) -> list[str]:
    lines = []
    for cause in (SILENT, CLEAR_ERROR):
        failing = [r for r in run.results if r.status == FAILED and r.cause == cause]
        lines.append(f"conformance ({run.mode}): {len(failing)} failing, {cause}:")
        lines += [f"  {r.file}: {r.description}: {r.detail}" for r in failing]
    return lines
