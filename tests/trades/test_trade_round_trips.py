"""Round trips for trades, counted by the engine: every mutation and list field has its budget."""

from __future__ import annotations

from tests.support import Api
from tests.trades.support import PAGE, RECORD, TRADES, trade

COUNTS = "query($c: Int!) { customer(customerId: $c) { tradeCount pageCount } }"
CUSTOMER = "query($c: Int!) { customer(customerId: $c) { customerId } }"
RECORD_WITH_CUSTOMER = """
mutation($c: Int!, $t: [TradeInput!]!) {
  recordTrades(customerId: $c, trades: $t) { pageNumbers customer { tradeCount pageCount } }
}
"""
ALIASED_PAGES = """
query($c: Int!) {
  customer(customerId: $c) {
    first: page(number: 1) { number trades { qty } }
    second: page(number: 2) { number hasNextPage }
    last: page(number: 3) { number hasNextPage trades { qty } }
    past: page(number: 4) { number }
  }
}
"""


async def _customer(api: Api, count: int) -> None:
    await api.data(RECORD, {"c": 7, "t": [trade(q) for q in range(1, count + 1)]})


async def test_record_one_trade_into_a_non_full_bucket_takes_one(api: Api) -> None:
    await _customer(api, 5)
    assert await api.round_trips(RECORD, {"c": 7, "t": [trade(6)]}) == 1
    assert api.commands.by_name == {"findAndModify": 1}


async def test_record_trades_filling_a_bucket_and_opening_two_takes_two(api: Api) -> None:
    await _customer(api, 5)
    # Push 5 into the open bucket (filling it), then insert the next two buckets together.
    assert await api.round_trips(RECORD, {"c": 7, "t": [trade(q) for q in range(6, 31)]}) == 2
    assert api.commands.by_name == {"findAndModify": 1, "insert": 1}


async def test_record_100_trades_for_a_new_customer_takes_two(api: Api) -> None:
    # The push that finds no bucket, and one insert of the ten new buckets.
    assert await api.round_trips(RECORD, {"c": 7, "t": [trade(q) for q in range(1, 101)]}) == 2
    assert api.commands.by_name == {"findAndModify": 1, "insert": 1}


async def test_record_100_trades_after_an_open_bucket_takes_two(api: Api) -> None:
    await _customer(api, 5)
    assert await api.round_trips(RECORD, {"c": 7, "t": [trade(q) for q in range(6, 106)]}) == 2
    data = await api.data(COUNTS, {"c": 7})
    assert data["customer"] == {"tradeCount": 105, "pageCount": 11}


async def test_record_trades_with_the_customer_payload_takes_one_more(api: Api) -> None:
    await _customer(api, 5)
    assert await api.round_trips(RECORD_WITH_CUSTOMER, {"c": 7, "t": [trade(6)]}) == 2
    batch = [trade(q) for q in range(7, 107)]
    assert await api.round_trips(RECORD_WITH_CUSTOMER, {"c": 7, "t": batch}) == 3
    data = await api.data(RECORD_WITH_CUSTOMER, {"c": 7, "t": [trade(107)]})
    assert data["recordTrades"]["customer"] == {"tradeCount": 107, "pageCount": 11}


async def test_trade_and_page_counts_take_one_together(api: Api) -> None:
    await _customer(api, 25)
    assert await api.round_trips(COUNTS, {"c": 7}) == 1


async def test_customer_alone_takes_one(api: Api) -> None:
    await _customer(api, 25)
    assert await api.round_trips(CUSTOMER, {"c": 7}) == 1
    assert await api.round_trips(CUSTOMER, {"c": 8}) == 1  # null: no trades


async def test_page_by_number_takes_one_more(api: Api) -> None:
    await _customer(api, 25)
    assert await api.round_trips(PAGE, {"c": 7, "n": 2}) == 2  # customer's existence + page


async def test_aliased_pages_by_number_take_one_more_together(api: Api) -> None:
    await _customer(api, 25)
    assert await api.round_trips(ALIASED_PAGES, {"c": 7}) == 2
    data = (await api.data(ALIASED_PAGES, {"c": 7}))["customer"]
    assert [t["qty"] for t in data["first"]["trades"]] == list(range(1, 11))
    assert data["second"] == {"number": 2, "hasNextPage": True}
    assert data["last"]["hasNextPage"] is False
    assert [t["qty"] for t in data["last"]["trades"]] == list(range(21, 26))
    assert data["past"] is None


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
