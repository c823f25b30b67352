"""Every spec test the engine fails, in either mode, fails with a clear error naming what the
engine does not support, as `unsupported.toml` declares it; no declared test passes in both."""

from __future__ import annotations

from pathlib import Path

from tests.conformance.conftest import suite_run
from tests.conformance.declared import load_declared, problems
from tests.conformance.runner.fronts import MODES


async def test_every_failure_is_a_declared_clear_error(specs: Path) -> None:
    runs = [await suite_run(mode, specs) for mode in MODES]
    assert problems(runs, load_declared()) == []
