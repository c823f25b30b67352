"""MongoDB's CRUD conformance suite passes at least as many tests as `floors.toml` records, in
process and through PyMongo over the wire front."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.conftest import suite_run
from tests.conformance.floors import below_floor
from tests.conformance.runner.fronts import MODES
from tests.conformance.runner.report import report


@pytest.mark.parametrize("mode", MODES)
async def test_pass_count_holds_its_floor(mode: str, specs: Path) -> None:
    run = await suite_run(mode, specs)
    assert below_floor(run) is None, report(run)
