"""The fuzz's fixtures (the app, seeded) and the summary of what it tried, printed at the end."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from settings import Settings
from store.database import Database
from tests.fuzz.harness import Fuzz, fuzz_client
from tests.fuzz.strategies import EXAMPLES, LONG, QUICK_TOTAL
from tests.fuzz.tally import TALLY
from tests.fuzz.world import World, seed
from tests.support import FakeClock


@pytest.fixture
async def fuzz(settings: Settings, clock: FakeClock, database: Database) -> AsyncIterator[Fuzz]:
    """The app on a fresh database, shared by every example of one test."""
    async with fuzz_client(settings, clock, database) as client:
        yield client


@pytest.fixture
async def world(fuzz: Fuzz) -> World:
    return await seed(fuzz.api)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    lines = TALLY.lines()
    if not lines:
        return
    terminalreporter.section("fuzz: what it tried")
    seed_option = config.getoption("hypothesis_seed", default=None)
    seed_text = "random" if seed_option is None else seed_option
    mode = (
        f"long run of {EXAMPLES} operations, seed {seed_text}"
        if LONG
        else f"quick run of about {QUICK_TOTAL} operations, fixed seed (derandomize)"
    )
    terminalreporter.write_line(mode)
    for line in lines:
        terminalreporter.write_line(line)
