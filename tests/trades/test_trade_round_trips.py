"""Round trips for trades, counted by the engine."""

from __future__ import annotations

from tests.support import Api
from tests.trades.support import PAGE, RECORD, TRADES, trade

COUNTS = "query($c: Int!) { customer(customerId: $c) { tradeCount pageCount } }"


async def _customer(api: Api, count: int) -> None:
    await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(1, count + 1)]})


async def test_record_one_trade_into_a_non_full_bucket_takes_one(api: Api) -> None:
    await _customer(api, 5)
    assert await api.round_trips(RECORD, {"c": 7, "t": [trade(6)]}) == 1


async def test_record_trades_filling_a_bucket_takes_a_bounded_number(api: Api) -> None:
    await _customer(api, 5)
    # Push 5 into the open bucket (filling it), open the next with 10 (full), open one more.
    assert await api.round_trips(RECORD, {"c": 7, "t": [trade(q) for q in range(6, 31)]}) == 3


async def test_trade_and_page_counts_take_one_together(api: Api) -> None:
    await _customer(api, 25)
    assert await api.round_trips(COUNTS, {"c": 7}) == 1


async def test_page_by_number_takes_one_more(api: Api) -> None:
    await _customer(api, 25)
    assert await api.round_trips(PAGE, {"c": 7, "n": 2}) == 2  # customer's existence + page


async def test_a_trades_page_of_100_across_buckets_takes_one_more(api: Api) -> None:
    await _customer(api, 100)
    await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(101, 151)]})
    first = await api.data(TRADES, {"c": 7, "first": 7})
    after = first["customer"]["trades"]["pageInfo"]["endCursor"]
    # The customer's counts (existence, totalCount) and the page: 2; the page alone is 1.
    assert await api.round_trips(TRADES, {"c": 7, "first": 100, "after": after}) == 2
    api.commands.reset()
    data = await api.data(TRADES, {"c": 7, "first": 100, "after": after})
    assert api.commands.by_name == {"aggregate": 1, "find": 1}
    assert len(data["customer"]["trades"]["edges"]) == 100
