"""Customer counts: from each customer's newest bucket where this code wrote every bucket (one
command for any number of customers), summed over the buckets otherwise; always exact."""

from __future__ import annotations

import dataclasses
from typing import Any

from settings import Settings
from store import trades
from store.buckets import bucket_reads
from store.database import Database
from store.migrations import migrate
from tests.support import Api, ApiFactory
from tests.trades.support import RECORD, buckets, trade

COUNTS = "query($c: Int!) { customer(customerId: $c) { tradeCount pageCount } }"


async def _counts(api: Api, customer_id: int = 7) -> dict[str, Any]:
    data = await api.data(COUNTS, {"c": customer_id})
    found: dict[str, Any] = data["customer"]
    return found


async def _summed(api: Api, customer_id: int = 7) -> dict[str, int]:
    """The counts as the aggregation over every bucket gives them."""
    coll = api.collection(trades.COLLECTION)
    found = await bucket_reads.count_items(coll, layout=trades.TRADE_BUCKETS, owners=[customer_id])
    items, pages = found[customer_id]
    return {"tradeCount": items, "pageCount": pages}


async def test_five_aliased_customers_cost_one_command_for_their_counts(api: Api) -> None:
    for customer_id in range(1, 5):  # customer 5 has no trades
        trades_ = [trade(q) for q in range(1, customer_id * 7 + 1)]
        await api.data(RECORD, {"c": customer_id, "t": trades_})
    fields = " ".join(
        f"c{i}: customer(customerId: {i}) {{ tradeCount pageCount }}" for i in range(1, 6)
    )
    query = f"{{ {fields} }}"
    assert await api.round_trips(query) == 1
    assert api.commands.by_name == {"aggregate": 1}
    data = await api.data(query)
    assert data == {
        "c1": {"tradeCount": 7, "pageCount": 1},
        "c2": {"tradeCount": 14, "pageCount": 2},
        "c3": {"tradeCount": 21, "pageCount": 3},
        "c4": {"tradeCount": 28, "pageCount": 3},
        "c5": None,
    }


async def test_buckets_written_here_hold_the_trades_before_them_and_all_but_the_newest_sealed(
    api: Api,
) -> None:
    for count in (5, 1, 14, 100, 3):
        await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(1, count + 1)]})
    stored = await buckets(api.collection(trades.COLLECTION), 7)
    earlier = [sum(b["count"] for b in stored[:i]) for i in range(len(stored))]
    assert [b["before"] for b in stored] == earlier
    assert all(b["sealed"] is True for b in stored[:-1])
    assert "sealed" not in stored[-1]  # 3 trades in the newest: open
    assert await _counts(api) == {"tradeCount": 123, "pageCount": 13} == await _summed(api)


async def test_customer_whose_buckets_lack_before_is_counted_by_a_sum(api: Api) -> None:
    # Buckets in the shape older code wrote (numbered, no `before`), and one opened after them.
    history = [{"type": "buy", "ticker": "X", "qty": 1, "date": trade(1)["date"]}]
    await api.collection(trades.COLLECTION).insert_many(
        [
            {"_id": "7_0000000001", "customerId": 7, "page": 1, "count": 1, "history": history},
            {"_id": "7_0000000002", "customerId": 7, "page": 2, "count": 1, "history": history},
        ]
    )
    await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(1, 13)]})  # 9 + 3 new
    assert "before" not in (await buckets(api.collection(trades.COLLECTION), 7))[-1]
    assert await api.round_trips(COUNTS, {"c": 7}) == 2  # the newest bucket, then the sum
    assert await _counts(api) == {"tradeCount": 14, "pageCount": 3} == await _summed(api)


async def test_a_bucket_left_full_is_sealed_so_a_larger_size_never_adds_to_it(
    make_api: ApiFactory, settings: Settings, database: Database
) -> None:
    async with make_api(
        dataclasses.replace(settings, trades_per_bucket=10), database=database
    ) as api:
        await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(1, 6)]})
        await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(6, 11)]})  # fills page 1
    async with make_api(
        dataclasses.replace(settings, trades_per_bucket=20), database=database
    ) as api:
        data = await api.data(RECORD, {"c": 7, "t": [trade(11)]})
        assert data["recordTrades"]["pageNumbers"] == [2]
        assert await _counts(api) == {"tradeCount": 11, "pageCount": 2} == await _summed(api)


async def test_counts_stay_exact_when_writers_run_with_different_sizes(
    make_api: ApiFactory, settings: Settings, database: Database
) -> None:
    written = 0
    for size, count in [(10, 15), (20, 3), (3, 7), (20, 30), (10, 1), (100, 99), (3, 4)]:
        changed = dataclasses.replace(settings, trades_per_bucket=size)
        async with make_api(changed, database=database) as api:
            await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(1, count + 1)]})
            written += count
            assert await api.round_trips(COUNTS, {"c": 7}) == 1
            counts = await _counts(api)
            assert counts == await _summed(api)
            assert counts["tradeCount"] == written


async def test_migrate_removes_before_from_the_customers_it_renumbers(
    api: Api, database: Database
) -> None:
    await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(1, 16)]})
    await api.data(RECORD, {"c": 8, "t": [trade(q) for q in range(1, 16)]})
    # An article's bucket (no page) written after them: customer 7's pages are renumbered.
    late = [{"type": "buy", "ticker": "X", "qty": 99, "date": trade(99)["date"]}]
    coll = api.collection(trades.COLLECTION)
    await coll.insert_one({"_id": "7_9999999999", "customerId": 7, "count": 1, "history": late})
    await migrate(database)
    assert all("before" not in b for b in await buckets(coll, 7))
    assert all("before" in b for b in await buckets(coll, 8))
    assert await _counts(api, 7) == {"tradeCount": 16, "pageCount": 3} == await _summed(api, 7)
    assert await _counts(api, 8) == {"tradeCount": 15, "pageCount": 2} == await _summed(api, 8)
