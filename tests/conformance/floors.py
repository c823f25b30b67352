"""The pass counts the engine must keep in each mode (`floors.toml`): a run below them fails."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from tests.conformance.runner.suite import SuiteRun

FLOORS_FILE = Path(__file__).with_name("floors.toml")


def floors() -> dict[str, Any]:
    with FLOORS_FILE.open("rb") as opened:
        return tomllib.load(opened)


def floor(mode: str) -> int:
    return int(floors()["floors"][mode])


def below_floor(run: SuiteRun) -> str | None:
    """What is wrong when `run` passes fewer tests than its mode's floor, or None."""
    least = floor(run.mode)
    if run.passed >= least:
        return None
    return f"{run.mode}: {run.passed} tests pass, below the floor of {least} (floors.toml)"
