"""Customers and trades: the bucket pattern (../shared/seeds/003), made safe under concurrency.

Document, as in the article, plus the bucket's page number: `{_id: "<customerId>_<seconds>",
customerId, page, count, history: [{type, ticker, qty, date}]}`.

Invariants, and why they hold by construction:
- only the newest bucket is ever not full: trades are pushed only into a bucket with
  `count < size`, and a bucket is only opened after the newest one was seen full;
- two writers never open two buckets: the next bucket's page number is the newest's plus one,
  and `(customerId, page)` is a unique index, so the second insert fails with E11000 and that
  writer retries against the bucket the first one opened;
- no bucket exceeds the size: the push filter is `count < size` and takes at most
  `size - count` trades in the same atomic update;
- `_id` order is page order: the seconds part is the first trade's, raised past the previous
  bucket's when needed, and zero-padded, so `_id` ranges walk buckets in insertion order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pymongo import ASCENDING, IndexModel, ReturnDocument
from pymongo.errors import DuplicateKeyError

from store.expressions import literal
from store.protocols import AsyncCollection

COLLECTION = "trades"
INDEXES = [
    IndexModel([("customerId", ASCENDING), ("page", ASCENDING)], unique=True, name="customer_page")
]
# Opening a bucket can lose a race to another writer; each loss means that writer progressed.
MAX_ATTEMPTS_PER_BUCKET = 16
SECONDS_DIGITS = 10  # zero-padded, so that `_id` order is numeric order


@dataclass(frozen=True, slots=True)
class TradeDoc:
    type: str  # "buy" or "sell"
    ticker: str
    qty: int
    date: datetime


@dataclass(frozen=True, slots=True)
class Bucket:
    id: str
    page: int
    trades: tuple[TradeDoc, ...]


@dataclass(frozen=True, slots=True)
class CustomerCounts:
    trade_count: int
    page_count: int


class BucketContention(Exception):
    """Other writers kept opening buckets first; nothing of the remaining trades was written."""


def id_prefix(customer_id: int) -> str:
    return f"{int(customer_id)}_"  # built from the validated integer only: never a pattern


def id_range(customer_id: int) -> dict[str, str]:
    # "_" is 0x5F and "`" 0x60: every id of this customer, and no other customer's.
    return {"$gt": id_prefix(customer_id), "$lt": f"{int(customer_id)}`"}


def bucket_id(customer_id: int, seconds: int) -> str:
    return f"{id_prefix(customer_id)}{seconds:0{SECONDS_DIGITS}d}"


def _seconds(bucket: str) -> int:
    return int(bucket.rsplit("_", 1)[1])


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def trade_from_document(raw: Mapping[str, Any]) -> TradeDoc:
    # Legacy documents are real: the article's second sample says `quantity`, not `qty`.
    qty = raw.get("qty", raw.get("quantity"))
    return TradeDoc(
        type=str(raw.get("type", "")).lower(),
        ticker=str(raw.get("ticker", "")),
        qty=int(qty or 0),
        date=_utc(raw["date"]),
    )


def bucket_from_document(raw: Mapping[str, Any]) -> Bucket:
    return Bucket(
        id=str(raw["_id"]),
        page=int(raw["page"]),
        trades=tuple(trade_from_document(t) for t in raw.get("history") or ()),
    )


def _stored(trade: TradeDoc) -> dict[str, Any]:
    return {"type": trade.type, "ticker": trade.ticker, "qty": trade.qty, "date": trade.date}


async def _push(
    coll: AsyncCollection, customer_id: int, trades: Sequence[TradeDoc], size: int
) -> tuple[int, int] | None:
    """Push as many trades as fit into the open bucket: (page, how many), or None if none is."""
    pending = literal([_stored(t) for t in trades])
    before = await coll.find_one_and_update(
        {"customerId": customer_id, "count": {"$lt": size}},
        [
            {
                "$set": {
                    "history": {
                        "$concatArrays": [
                            {"$ifNull": ["$history", []]},
                            {"$slice": [pending, {"$subtract": [size, "$count"]}]},
                        ]
                    },
                    "count": {"$min": [size, {"$add": ["$count", len(trades)]}]},
                }
            }
        ],
        sort=[("page", -1)],
        projection={"_id": 0, "page": 1, "count": 1},
        return_document=ReturnDocument.BEFORE,
    )
    if before is None:
        return None
    return int(before["page"]), min(len(trades), size - int(before["count"]))


async def _open_bucket(
    coll: AsyncCollection, customer_id: int, trades: Sequence[TradeDoc], size: int
) -> tuple[int, int] | None:
    """Open the next bucket with up to `size` trades: (page, how many), or None if another
    writer got there first (the caller pushes into theirs)."""
    newest = await coll.find_one(
        {"customerId": customer_id},
        projection={"page": 1, "count": 1},
        sort=[("page", -1)],
    )
    if newest is not None and int(newest["count"]) < size:
        return None  # opened by someone else since our push found nothing
    page = 1 if newest is None else int(newest["page"]) + 1
    seconds = int(trades[0].date.timestamp())
    if newest is not None:
        seconds = max(seconds, _seconds(str(newest["_id"])) + 1)
    taken = list(trades[:size])
    try:
        await coll.insert_one(
            {
                "_id": bucket_id(customer_id, seconds),
                "customerId": customer_id,
                "page": page,
                "count": len(taken),
                "history": [_stored(t) for t in taken],
            }
        )
    except DuplicateKeyError:
        return None  # the same page (or _id) was opened concurrently
    return page, len(taken)


async def record_trades(
    coll: AsyncCollection, *, customer_id: int, trades: Sequence[TradeDoc], size: int
) -> list[int]:
    """Append trades in order; the page each one went to, in input order.

    One command when they fit the open bucket; otherwise a bounded number more per bucket.
    """
    pages: list[int] = []
    remaining = list(trades)
    attempts = 0
    while remaining:
        placed = await _push(coll, customer_id, remaining, size)
        if placed is None:
            placed = await _open_bucket(coll, customer_id, remaining, size)
        if placed is None:
            attempts += 1
            if attempts >= MAX_ATTEMPTS_PER_BUCKET:
                raise BucketContention(f"customer {customer_id}: {len(remaining)} trades left")
            continue
        attempts = 0
        page, taken = placed
        pages += [page] * taken
        remaining = remaining[taken:]
    return pages


async def customer_counts(coll: AsyncCollection, *, customer_id: int) -> CustomerCounts:
    """Trades and pages of a customer: one command."""
    cursor = await coll.aggregate(
        [
            {"$match": {"customerId": customer_id}},
            {"$group": {"_id": None, "trades": {"$sum": "$count"}, "pages": {"$sum": 1}}},
        ]
    )
    found = await cursor.to_list()
    if not found:
        return CustomerCounts(0, 0)
    return CustomerCounts(trade_count=int(found[0]["trades"]), page_count=int(found[0]["pages"]))


async def find_page(
    coll: AsyncCollection, *, customer_id: int, number: int
) -> tuple[Bucket | None, bool]:
    """Page `number` (from 1) and whether a next page exists: one command."""
    docs = await coll.find(
        {"customerId": customer_id, "page": {"$gte": number}},
        sort=[("page", 1)],
        limit=2,
    ).to_list()
    if not docs or int(docs[0]["page"]) != number:
        return None, False
    return bucket_from_document(docs[0]), len(docs) > 1


async def walk_buckets(
    coll: AsyncCollection,
    *,
    customer_id: int,
    start: str | None,
    forward: bool,
    trades_wanted: int,
    size: int,
) -> list[Bucket]:
    """Buckets from `start` (included) onwards, by `_id` range, enough for `trades_wanted`
    trades plus one to tell whether more exist: one command (every bucket but the newest is
    full, so the count is known in advance)."""
    bounds = id_range(customer_id)
    if start is not None:
        bounds = {**bounds, ("$gte" if forward else "$lte"): start}
        bounds.pop("$gt" if forward else "$lt", None)
    limit = math.ceil((trades_wanted + 1) / size) + 1
    docs = await coll.find(
        {"_id": bounds}, sort=[("_id", 1 if forward else -1)], limit=limit
    ).to_list()
    return [bucket_from_document(d) for d in docs]
