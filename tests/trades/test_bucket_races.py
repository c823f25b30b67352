"""Races a single-process engine cannot produce, forced between the store function's steps."""

from __future__ import annotations

from typing import Any

import pytest

from embedded import EmbeddedCollection, EmbeddedEngine
from store import trades
from store.trades import TradeDoc
from tests.trades.support import assert_invariants, trade_doc

SIZE = 10
LATER = int(trade_doc(0).date.timestamp()) + 1_000  # a competitor's bucket, after page 1's


@pytest.fixture
def engine() -> EmbeddedEngine:
    return EmbeddedEngine()


class CompetitorFirst:
    """The trades collection, with a competing writer's insert landing just before ours."""

    def __init__(self, coll: EmbeddedCollection, competitor: dict[str, Any]) -> None:
        self._coll = coll
        self._competitor: dict[str, Any] | None = competitor
        self.lost_inserts = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._coll, name)

    async def insert_one(self, document: Any, *args: Any, **kwargs: Any) -> Any:
        if self._competitor is not None:
            competitor, self._competitor = self._competitor, None
            await self._coll.insert_one(competitor)
        try:
            return await self._coll.insert_one(document, *args, **kwargs)
        except Exception:
            self.lost_inserts += 1
            raise


async def _setup(engine: EmbeddedEngine) -> EmbeddedCollection:
    coll = engine["test"]["trades"]
    await coll.create_indexes(trades.INDEXES)
    return coll


def _bucket(page: int, qtys: list[int], seconds: int) -> dict[str, Any]:
    return {
        "_id": trades.bucket_id(7, seconds),
        "customerId": 7,
        "page": page,
        "count": len(qtys),
        "history": [
            {"type": "buy", "ticker": "X", "qty": q, "date": trade_doc(q).date} for q in qtys
        ],
    }


async def test_record_trades_joins_the_bucket_a_competitor_opened_first(
    engine: EmbeddedEngine,
) -> None:
    coll = await _setup(engine)
    await trades.record_trades(
        coll, customer_id=7, trades=[trade_doc(q) for q in range(1, 11)], size=SIZE
    )
    racing = CompetitorFirst(coll, _bucket(2, [100], seconds=LATER))
    pages = await trades.record_trades(racing, customer_id=7, trades=[trade_doc(11)], size=SIZE)
    assert racing.lost_inserts == 1
    assert pages == [2]
    assert await assert_invariants(coll, 7, SIZE) == [*range(1, 11), 100, 11]


async def test_record_trades_opens_the_next_bucket_when_the_competitor_filled_one(
    engine: EmbeddedEngine,
) -> None:
    coll = await _setup(engine)
    await trades.record_trades(
        coll, customer_id=7, trades=[trade_doc(q) for q in range(1, 11)], size=SIZE
    )
    full = list(range(100, 110))
    racing = CompetitorFirst(coll, _bucket(2, full, seconds=LATER))
    batch = [trade_doc(q) for q in range(11, 26)]
    pages = await trades.record_trades(racing, customer_id=7, trades=batch, size=SIZE)
    assert pages == [3] * 10 + [4] * 5
    assert await assert_invariants(coll, 7, SIZE) == [*range(1, 11), *full, *range(11, 26)]


async def test_record_trades_retries_when_the_bucket_id_is_taken(engine: EmbeddedEngine) -> None:
    coll = await _setup(engine)
    # Another customer's bucket can never collide; the same customer's same second can.
    first = TradeDoc("buy", "MDB", 1, trade_doc(0).date)
    competitor = _bucket(1, [99], seconds=int(first.date.timestamp()))
    racing = CompetitorFirst(coll, competitor)
    pages = await trades.record_trades(racing, customer_id=7, trades=[first], size=SIZE)
    assert racing.lost_inserts == 1
    assert pages == [1]
    assert await assert_invariants(coll, 7, SIZE) == [99, 1]


async def test_record_trades_never_writes_into_an_older_bucket(engine: EmbeddedEngine) -> None:
    coll = await _setup(engine)
    await trades.record_trades(
        coll, customer_id=7, trades=[trade_doc(q) for q in range(1, 26)], size=SIZE
    )
    await trades.record_trades(coll, customer_id=7, trades=[trade_doc(26)], size=SIZE)
    assert await assert_invariants(coll, 7, SIZE) == list(range(1, 27))


async def test_bucket_ids_of_one_customer_never_match_another(engine: EmbeddedEngine) -> None:
    coll = await _setup(engine)
    for customer_id in (12, 123, 1, 120):
        await trades.record_trades(
            coll, customer_id=customer_id, trades=[trade_doc(customer_id)], size=SIZE
        )
    found = await trades.walk_buckets(
        coll, customer_id=12, start=None, forward=True, trades_wanted=100, size=SIZE
    )
    assert [b.id for b in found] == [trades.bucket_id(12, int(trade_doc(12).date.timestamp()))]
