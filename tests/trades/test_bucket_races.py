"""Races a single-process engine cannot produce, forced between the store function's steps.

`Competitors` wraps the trades collection: before each of our inserts (opening buckets, one
command for all of a call's new buckets), a competing writer's bucket lands first, at the page
of our first new bucket, as it would on a server under load.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, cast

import pytest

from store import trades
from store.buckets import bucket_layout, buckets
from store.database import Database
from store.errors import WriteContention
from store.protocols import AsyncCollection
from store.trades import TradeDoc
from tests.trades.support import assert_invariants, trade_doc

SIZE = 10
LATER = int(trade_doc(0).date.timestamp()) + 1_000  # a competitor's bucket, after page 1's

Competitor = Callable[[dict[str, Any]], dict[str, Any] | None]  # our bucket -> theirs


class Competitors:
    """The trades collection, where `competitor(ours)` lands just before each of our inserts
    (None: no competitor that time)."""

    def __init__(self, coll: AsyncCollection, competitor: Competitor, *, times: int = 1) -> None:
        self._coll = coll
        self._competitor = competitor
        self._times = times
        self.lost_inserts = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._coll, name)

    async def _compete(self, ours: dict[str, Any]) -> None:
        if self._times > 0:
            self._times -= 1
            theirs = self._competitor(ours)
            if theirs is not None:
                await self._coll.insert_one(theirs)

    async def insert_one(self, document: Any, *args: Any, **kwargs: Any) -> Any:
        await self._compete(document)
        try:
            return await self._coll.insert_one(document, *args, **kwargs)
        except Exception:
            self.lost_inserts += 1
            raise

    async def insert_many(self, documents: Any, *args: Any, **kwargs: Any) -> Any:
        """Our new buckets, in one command: the competitor takes the first one's place."""
        documents = list(documents)
        await self._compete(documents[0])
        try:
            return await self._coll.insert_many(documents, *args, **kwargs)
        except Exception:
            self.lost_inserts += 1
            raise


@pytest.fixture
async def coll(database: Database) -> AsyncCollection:
    await database.create_indexes()
    return database.collection(trades.COLLECTION)


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


def _full_bucket_at_our_page(ours: dict[str, Any]) -> dict[str, Any]:
    """A competitor that opened the page we are opening, and filled it (qty 1000 + page)."""
    seconds = int(ours["_id"].rsplit("_", 1)[1]) + 100
    return _bucket(ours["page"], [1000 + ours["page"]] * SIZE, seconds)


async def _record(coll: AsyncCollection | Competitors, qtys: range) -> list[int]:
    return await trades.record_trades(
        cast(AsyncCollection, coll), customer_id=7, trades=[trade_doc(q) for q in qtys], size=SIZE
    )


async def test_record_trades_joins_the_bucket_a_competitor_opened_first(
    coll: AsyncCollection,
) -> None:
    await _record(coll, range(1, 11))
    racing = Competitors(coll, lambda ours: _bucket(2, [100], seconds=LATER))
    pages = await _record(racing, range(11, 12))
    assert racing.lost_inserts == 1
    assert pages == [2]
    assert await assert_invariants(coll, 7, SIZE) == [*range(1, 11), 100, 11]


async def test_record_trades_opens_the_next_bucket_when_the_competitor_filled_one(
    coll: AsyncCollection,
) -> None:
    await _record(coll, range(1, 11))
    full = list(range(100, 110))
    racing = Competitors(coll, lambda ours: _bucket(2, full, seconds=LATER))
    pages = await _record(racing, range(11, 26))
    assert pages == [3] * 10 + [4] * 5
    assert await assert_invariants(coll, 7, SIZE) == [*range(1, 11), *full, *range(11, 26)]


async def test_record_trades_retries_when_the_bucket_id_is_taken(coll: AsyncCollection) -> None:
    # Another customer's bucket can never collide; the same customer's same second can.
    first = TradeDoc("buy", "MDB", 1, trade_doc(0).date)
    competitor = _bucket(1, [99], seconds=int(first.date.timestamp()))
    racing = Competitors(coll, lambda ours: competitor)
    pages = await trades.record_trades(
        cast(AsyncCollection, racing), customer_id=7, trades=[first], size=SIZE
    )
    assert racing.lost_inserts == 1
    assert pages == [1]
    assert await assert_invariants(coll, 7, SIZE) == [99, 1]


def _seconds_passing() -> Callable[[], float]:
    """A clock on which each reading is one second after the last."""
    ticks = itertools.count()
    return lambda: float(next(ticks))


async def _append(coll: AsyncCollection | Competitors, qtys: range) -> list[int]:
    """`record_trades`, with a clock on which every lost race takes a second."""
    placements = await buckets.append(
        cast(AsyncCollection, coll),
        layout=trades.TRADE_BUCKETS,
        owner=7,
        items=[{"type": "buy", "ticker": "X", "qty": q, "date": trade_doc(q).date} for q in qtys],
        size=SIZE,
        clock=_seconds_passing(),
    )
    return [p.bucket.page for p in placements for _ in range(p.count)]


async def test_record_trades_that_stored_part_keeps_going_however_long_it_loses(
    coll: AsyncCollection,
) -> None:
    # The first bucket is ours; then competitors win the next page for far longer than a call
    # that stored nothing would wait. Every loss was another writer's full bucket.
    losses = int(bucket_layout.MAX_CONTENTION_SECONDS) + 30
    racing = Competitors(coll, _full_bucket_at_our_page, times=losses)
    await _record(coll, range(1, 6))  # page 1, open: our first push will store 5 more
    pages = await _append(racing, range(6, 21))
    assert racing.lost_inserts == losses
    assert pages == [1] * 5 + [2 + losses] * 10
    stored = await assert_invariants(coll, 7, SIZE)
    assert stored[:10] == list(range(1, 11))
    assert stored[-10:] == list(range(11, 21))


async def test_record_trades_that_stored_nothing_gives_up_after_losing_for_long(
    coll: AsyncCollection,
) -> None:
    racing = Competitors(
        coll, _full_bucket_at_our_page, times=int(bucket_layout.MAX_CONTENTION_SECONDS) + 10
    )
    with pytest.raises(WriteContention) as raised:
        await _append(racing, range(1, 4))
    assert "nothing of this call was stored" in str(raised.value)
    stored = await assert_invariants(coll, 7, SIZE)
    assert stored  # the competitors' buckets, every one full
    assert not set(stored) & {1, 2, 3}


async def test_record_trades_fails_loudly_when_a_page_can_neither_be_opened_nor_found(
    coll: AsyncCollection,
) -> None:
    # A document that is not a bucket of this customer holds the `_id` the next bucket needs:
    # no writer progresses, so the call stops instead of looping.
    await coll.insert_one({"_id": trades.bucket_id(7, int(trade_doc(1).date.timestamp()))})
    with pytest.raises(RuntimeError, match="cannot be opened"):
        await _record(coll, range(1, 2))


async def test_record_trades_never_writes_into_an_older_bucket(coll: AsyncCollection) -> None:
    await _record(coll, range(1, 26))
    await _record(coll, range(26, 27))
    assert await assert_invariants(coll, 7, SIZE) == list(range(1, 27))


async def test_bucket_ids_of_one_customer_never_match_another(coll: AsyncCollection) -> None:
    for customer_id in (12, 123, 1, 120):
        await trades.record_trades(
            coll, customer_id=customer_id, trades=[trade_doc(customer_id)], size=SIZE
        )
    found = await trades.walk_buckets(
        coll, customer_id=12, start=None, forward=True, trades_wanted=100, size=SIZE
    )
    assert [b.id for b in found] == [trades.bucket_id(12, int(trade_doc(12).date.timestamp()))]
