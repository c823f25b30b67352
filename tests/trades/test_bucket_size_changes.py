"""ARRAYGRAPH_TRADES_PER_BUCKET changed over stored buckets (raised or lowered): reads follow
the counts the buckets hold, so every trade is read exactly once, and new trades go on after
the last one."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from settings import Settings
from store.database import Database
from tests.support import ApiFactory, walk
from tests.trades.support import RECORD, TRADES, trade

WRITTEN_WITH = 10


async def _trades_walked(api: Any, *, first: int, backward: bool) -> list[int]:
    async def fetch(cursor: str | None) -> dict[str, Any]:
        arguments = (
            {"last": first, "before": cursor} if backward else {"first": first, "after": cursor}
        )
        data = await api.data(TRADES, {"c": 7, **arguments})
        connection: dict[str, Any] = data["customer"]["trades"]
        return connection

    return [node["qty"] for node in await walk(fetch, backward=backward)]


@pytest.mark.parametrize("read_with", [20, 3, 100])
@pytest.mark.parametrize("backward", [False, True], ids=["forward", "backward"])
@pytest.mark.parametrize("first", [7, 70])
async def test_bucket_size_change_reads_every_stored_trade_once(
    make_api: ApiFactory,
    settings: Settings,
    database: Database,
    read_with: int,
    backward: bool,
    first: int,
) -> None:
    async with make_api(
        dataclasses.replace(settings, trades_per_bucket=WRITTEN_WITH), database=database
    ) as writer:
        for start in range(0, 200, 100):
            batch = [trade(q) for q in range(start + 1, start + 101)]
            await writer.data(RECORD, {"c": 7, "t": batch})
    changed = dataclasses.replace(settings, trades_per_bucket=read_with)
    async with make_api(changed, database=database) as reader:
        total = await reader.data(TRADES, {"c": 7, "first": 1})
        assert total["customer"]["trades"]["totalCount"] == 200
        assert await _trades_walked(reader, first=first, backward=backward) == list(range(1, 201))


async def test_bucket_size_raised_appends_after_the_last_stored_trade(
    make_api: ApiFactory, settings: Settings, database: Database
) -> None:
    async with make_api(
        dataclasses.replace(settings, trades_per_bucket=WRITTEN_WITH), database=database
    ) as writer:
        await writer.data(RECORD, {"c": 7, "t": [trade(q) for q in range(1, 16)]})
    raised = dataclasses.replace(settings, trades_per_bucket=20)
    async with make_api(raised, database=database) as api:
        pages = await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(16, 41)]})
        assert pages["recordTrades"]["pageNumbers"] == [2] * 15 + [3] * 10
        assert await _trades_walked(api, first=9, backward=False) == list(range(1, 41))


async def test_bucket_size_raised_never_reopens_an_older_bucket(
    make_api: ApiFactory, settings: Settings, database: Database
) -> None:
    async with make_api(
        dataclasses.replace(settings, trades_per_bucket=WRITTEN_WITH), database=database
    ) as writer:
        await writer.data(RECORD, {"c": 7, "t": [trade(q) for q in range(1, 31)]})  # 3 full
    raised = dataclasses.replace(settings, trades_per_bucket=20)
    async with make_api(raised, database=database) as api:
        first = await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(31, 41)]})
        then = await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(41, 46)]})
        assert first["recordTrades"]["pageNumbers"] == [3] * 10  # the newest, up to 20
        assert then["recordTrades"]["pageNumbers"] == [4] * 5  # never page 1 or 2 again
        assert await _trades_walked(api, first=8, backward=True) == list(range(1, 46))
