"""Trade buckets examined per request (the engine's counters, as a server's explain counts
`totalDocsExamined`): every read and write finds a customer's buckets on the unique
(customerId, page) index, so a customer next to one with 10,000 trades (1,000 buckets) costs
what it costs alone. Buckets hold 10 trades (the default size)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import Api
from tests.trades.support import PAGE, RECORD, trade

LARGE = 10_000
COUNTS = "query($c: Int!) { customer(customerId: $c) { tradeCount pageCount } }"
TRADES = """
query($c: Int!, $first: Int, $after: String, $last: Int) {
  customer(customerId: $c) {
    trades(first: $first, after: $after, last: $last) {
      edges { node { qty } }
      pageInfo { endCursor }
    }
  }
}
"""
RECORD_WITH_COUNTS = """
mutation($c: Int!, $t: [TradeInput!]!) {
  recordTrades(customerId: $c, trades: $t) { pageNumbers customer { tradeCount pageCount } }
}
"""


async def _trades(api: Api, customer: int, count: int) -> None:
    for start in range(1, count + 1, 100):
        batch = [trade(qty) for qty in range(start, min(start + 100, count + 1))]
        await api.data(RECORD, {"c": customer, "t": batch})


async def _examined_by_pages(api: Api) -> list[dict[str, int]]:
    """A first page of 10 of customer 2 (95 trades), the one after it, and the last 10."""
    data = await api.data(TRADES, {"c": 2, "first": 10})
    after = data["customer"]["trades"]["pageInfo"]["endCursor"]
    pages: list[dict[str, Any]] = [{"first": 10}, {"first": 10, "after": after}, {"last": 10}]
    return [await api.examines(TRADES, {"c": 2, **page}) for page in pages]


async def test_trades_pages_examine_as_many_buckets_next_to_a_large_customer_as_alone(
    api: Api,
) -> None:
    # `customer` reads the newest bucket (null for a customer without trades), 1; 10 trades
    # and one more lie in 2 buckets, and the walk reads one more in case a bucket holds fewer
    # than the size (written under another size), 3: 4 each page.
    await _trades(api, 2, 95)
    alone = await _examined_by_pages(api)
    await _trades(api, 1, LARGE)
    assert await _examined_by_pages(api) == alone == [{"trades": 4}] * 3


@pytest.mark.parametrize("count", [5, LARGE])
async def test_customer_counts_examine_the_newest_bucket(api: Api, count: int) -> None:
    await _trades(api, 1, count)
    assert await api.examines(COUNTS, {"c": 1}) == {"trades": 1}


@pytest.mark.parametrize("count", [25, LARGE])
async def test_customer_page_examines_the_page_the_next_and_the_newest(
    api: Api, count: int
) -> None:
    # The newest bucket (does the customer exist), the page by number, and the next one,
    # which says hasNextPage.
    await _trades(api, 1, count)
    assert await api.examines(PAGE, {"c": 1, "n": 2}) == {"trades": 3}


@pytest.mark.parametrize("count", [5, LARGE + 5])
async def test_record_trades_of_100_examines_the_newest_bucket(api: Api, count: int) -> None:
    # The push into the open bucket finds it on the index; the insert of the 10 new buckets
    # examines none (a unique key is looked up).
    await _trades(api, 1, count)
    batch = [trade(qty) for qty in range(1, 101)]
    assert await api.examines(RECORD, {"c": 1, "t": batch}) == {"trades": 1}


@pytest.mark.parametrize("count", [5, LARGE + 5])
async def test_record_trades_with_customer_counts_examines_the_newest_bucket_twice(
    api: Api, count: int
) -> None:
    await _trades(api, 1, count)
    batch = [trade(qty) for qty in range(1, 101)]
    assert await api.examines(RECORD_WITH_COUNTS, {"c": 1, "t": batch}) == {"trades": 2}
