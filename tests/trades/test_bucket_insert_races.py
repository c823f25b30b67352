"""A server runs an ordered insert one document at a time, and other writers may act between
two of them; the engine, which runs each command whole, cannot. Forced here: a competitor
appends after the first of the new buckets went in (its next page is then taken), and the
call still stores every trade once, in order, with counts the newest bucket gives right."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, cast

from pymongo.errors import BulkWriteError, DuplicateKeyError

from store import trades
from store.buckets import bucket_reads, buckets
from store.database import Database
from store.protocols import AsyncCollection
from tests.trades.support import assert_invariants, trade_doc

SIZE = 10
CUSTOMER = 7


def items(quantities: Iterable[int]) -> list[dict[str, Any]]:
    return [
        {"type": "buy", "ticker": "X", "qty": qty, "date": trade_doc(qty).date}
        for qty in quantities
    ]


class OneDocumentAtATime:
    """The collection, whose first ordered insert goes in document by document, with
    `competitor` run after the document at `after`, as a server may interleave it."""

    def __init__(
        self, coll: AsyncCollection, after: int, competitor: Callable[[], Awaitable[None]]
    ) -> None:
        self._coll, self._after, self._competitor = coll, after, competitor
        self._raced = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._coll, name)

    async def insert_many(self, documents: Iterable[dict[str, Any]], **options: Any) -> None:
        if self._raced:
            await self._coll.insert_many(documents, **options)
            return
        self._raced = True
        for index, document in enumerate(documents):
            try:
                await self._coll.insert_one(document)
            except DuplicateKeyError as exc:
                error = {"index": index, "code": 11000, "errmsg": str(exc)}
                raise BulkWriteError({"writeErrors": [error], "nInserted": index}) from exc
            if index == self._after:
                await self._competitor()


async def test_bucket_insert_race_mid_insert_stores_every_trade_once(database: Database) -> None:
    await database.create_indexes()
    coll = database.collection(trades.COLLECTION)
    layout = trades.TRADE_BUCKETS
    await buckets.append(coll, layout=layout, owner=CUSTOMER, items=items(range(1, 6)), size=SIZE)

    async def competitor() -> None:
        await buckets.append(
            coll, layout=layout, owner=CUSTOMER, items=items(range(1000, 1013)), size=SIZE
        )

    racing = cast(AsyncCollection, OneDocumentAtATime(coll, 0, competitor))
    placed = await buckets.append(
        racing, layout=layout, owner=CUSTOMER, items=items(range(6, 51)), size=SIZE
    )
    quantities = await assert_invariants(coll, CUSTOMER, SIZE)
    assert [q for q in quantities if q < 1000] == list(range(1, 51))
    assert sorted(q for q in quantities if q >= 1000) == list(range(1000, 1013))
    assert sum(p.count for p in placed) == 45
    newest = await bucket_reads.counts(coll, layout=layout, owners=[CUSTOMER])
    summed = await bucket_reads.count_items(coll, layout=layout, owners=[CUSTOMER])
    assert newest == summed == {CUSTOMER: (63, 7)}
