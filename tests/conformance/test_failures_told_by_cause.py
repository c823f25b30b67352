"""A failing test says what the engine did: answered success with other data than the server's
(silent), or raised where the server answers (a clear error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.handmade import find_all, write_suite
from tests.conformance.runner.execute import CLEAR_ERROR, SILENT
from tests.conformance.runner.fronts import MODES
from tests.conformance.runner.suite import run_suite

UNKNOWN_OPERATOR = {
    "operations": [
        {
            "object": "collection0",
            "name": "aggregate",
            "arguments": {"pipeline": [{"$noSuchStage": {}}]},
            "expectResult": [],
        }
    ]
}
WRONG_OUTCOME = {
    "operations": [{"object": "collection0", "name": "insertOne", "arguments": {"document": {}}}],
    "outcome": [{"databaseName": "handmade", "collectionName": "items", "documents": []}],
}


@pytest.mark.parametrize("mode", MODES)
async def test_failures_are_told_silent_or_clear(mode: str, tmp_path: Path) -> None:
    root = write_suite(
        tmp_path,
        {
            "other documents": find_all([]),
            "other outcome": WRONG_OUTCOME,
            "refused": UNKNOWN_OPERATOR,
        },
    )
    run = await run_suite(mode, root, {})
    assert [result.cause for result in run.results] == [SILENT, SILENT, CLEAR_ERROR]
