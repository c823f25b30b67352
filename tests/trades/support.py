"""GraphQL documents and helpers the trade tests share."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from store.protocols import AsyncCollection
from store.trades import TradeDoc

RECORD = """
mutation($c: Int!, $t: [TradeInput!]!) {
  recordTrades(customerId: $c, trades: $t) { pageNumbers }
}
"""
PAGE = """
query($c: Int!, $n: Int!) {
  customer(customerId: $c) {
    page(number: $n) { number hasNextPage trades { type ticker qty date } }
  }
}
"""
TRADES = """
query($c: Int!, $first: Int, $after: String, $last: Int, $before: String) {
  customer(customerId: $c) {
    trades(first: $first, after: $after, last: $last, before: $before) {
      totalCount
      edges { cursor node { ticker qty date } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
}
"""
BASE = datetime(2024, 1, 1, tzinfo=UTC)


def trade(qty: int, *, ticker: str = "MDB", kind: str = "BUY", seconds: int = 0) -> dict[str, Any]:
    date = (BASE + timedelta(seconds=seconds or qty)).isoformat().replace("+00:00", "Z")
    return {"type": kind, "ticker": ticker, "qty": qty, "date": date}


def trade_doc(qty: int, *, seconds: int | None = None) -> TradeDoc:
    return TradeDoc(
        "buy", "MDB", qty, BASE + timedelta(seconds=qty if seconds is None else seconds)
    )


async def buckets(coll: AsyncCollection, customer_id: int) -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = await coll.find(
        {"customerId": customer_id}, sort=[("page", 1)]
    ).to_list()
    return docs


async def assert_invariants(coll: AsyncCollection, customer_id: int, size: int) -> list[int]:
    """Every bucket within size, every page but the last full, `_id` order = page order, pages
    numbered 1..n; returns the quantities in page order."""
    docs = await buckets(coll, customer_id)
    assert [d["page"] for d in docs] == list(range(1, len(docs) + 1))
    assert [d["_id"] for d in docs] == sorted(d["_id"] for d in docs)
    for doc in docs:
        assert doc["count"] == len(doc["history"]) <= size
    assert all(d["count"] == size for d in docs[:-1])
    return [t["qty"] for d in docs for t in d["history"]]
