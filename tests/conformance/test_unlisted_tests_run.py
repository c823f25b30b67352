"""Only the skip table skips: a test whose requirements an 8.0 standalone does not meet still
runs when the table does not name it, and counts as failed when it fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.handmade import find_all, write_suite
from tests.conformance.runner.execute import FAILED, PASSED, SKIPPED
from tests.conformance.runner.fronts import MODES
from tests.conformance.runner.suite import run_suite

NEEDS_LATER_SERVER = {"runOnRequirements": [{"minServerVersion": "99.0"}]}


@pytest.mark.parametrize("mode", MODES)
async def test_a_test_the_table_does_not_name_runs(mode: str, tmp_path: Path) -> None:
    root = write_suite(
        tmp_path,
        {
            "reads what it stored": find_all([{"_id": 1}], **NEEDS_LATER_SERVER),
            "expects another document": find_all([{"_id": 2}], **NEEDS_LATER_SERVER),
            "listed": find_all([{"_id": 2}], **NEEDS_LATER_SERVER),
        },
    )
    skips = {("handmade.json", "listed"): "server version: needs 99.0 or later"}
    run = await run_suite(mode, root, skips)
    assert [result.status for result in run.results] == [PASSED, FAILED, SKIPPED]
