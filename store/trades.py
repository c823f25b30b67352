"""Customers and trades: the bucket pattern (../shared/seeds/003), made safe under concurrency.

Document, as in the article, plus the bucket's page number: `{_id: "<customerId>_<seconds>",
customerId, page, count, history: [{type, ticker, qty, date}], sealed?, before?}`, with a
unique index on (customerId, page). The pattern's writes, and why they hold under any number of
writers, are in `store/buckets/buckets.py`; its reads in `store/buckets/bucket_reads.py`; this
module says what a trade bucket looks like.

The article's insert (one upsert filtered by a regex on the `_id` prefix and `count < 10`)
opens two half-empty buckets when two writers race, can land a trade in an older bucket, and
matches other customers when the prefix is a pattern. Here `_id`s are built from the validated
integer only, and a customer's buckets are found by customer and page on the unique index.

`tradeCount` and `pageCount` come from the customer's newest bucket alone (its `before` plus
its `count`, and its page: one indexed read) where every older bucket is known sealed and
counted, which holds for the buckets this code writes. A customer whose newest bucket lacks
`before` (the articles' buckets, migrated or not, those of older versions, and every bucket
opened after one of them) is counted by an aggregation over all of its buckets; the module
docstring of `store/buckets/buckets.py` says why `before` can be trusted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from pymongo import ASCENDING, IndexModel

from store.buckets import bucket_reads, buckets
from store.buckets.bucket_layout import BucketLayout
from store.protocols import AsyncCollection, Document
from store.times import as_utc

COLLECTION = "trades"
INDEXES = [
    IndexModel([("customerId", ASCENDING), ("page", ASCENDING)], unique=True, name="customer_page")
]
SECONDS_DIGITS = 10  # zero-padded, so that `_id` order is numeric order


class TradeType(Enum):
    BUY = "buy"
    SELL = "sell"


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


def id_prefix(customer_id: int) -> str:
    return f"{int(customer_id)}_"  # built from the validated integer only: never a pattern


def bucket_id(customer_id: int, seconds: int) -> str:
    return f"{id_prefix(customer_id)}{seconds:0{SECONDS_DIGITS}d}"


def _new_bucket_id(customer_id: int, first: Document, previous: Any) -> str:
    """The article's `_id`: the first trade's epoch seconds, raised past the previous
    bucket's so that `_id` order stays page order."""
    seconds = int(first["date"].timestamp())
    if previous is not None:
        seconds = max(seconds, int(str(previous).rsplit("_", 1)[1]) + 1)
    return bucket_id(customer_id, seconds)


TRADE_BUCKETS = BucketLayout(
    owner_field="customerId",
    items_field="history",
    first_page=1,
    bucket_id=_new_bucket_id,
)


def trade_from_document(raw: Mapping[str, Any]) -> TradeDoc:
    # Legacy documents are real: the article's second sample says `quantity`, not `qty`.
    qty = raw.get("qty", raw.get("quantity"))
    # Positional (type, ticker, qty, date): keywords cost a frozen dataclass's __init__ more.
    return TradeDoc(
        str(raw.get("type", "")).lower(),
        str(raw.get("ticker", "")),
        int(qty or 0),
        as_utc(raw["date"]),
    )


def bucket_from_document(raw: Mapping[str, Any]) -> Bucket:
    return Bucket(
        id=str(raw["_id"]),
        page=int(raw["page"]),
        trades=tuple(trade_from_document(t) for t in raw.get("history") or ()),
    )


def _stored(trade: TradeDoc) -> Document:
    return {"type": trade.type, "ticker": trade.ticker, "qty": trade.qty, "date": trade.date}


async def record_trades(
    coll: AsyncCollection, *, customer_id: int, trades: Sequence[TradeDoc], size: int
) -> list[int]:
    """Append trades in order; the page each one went to, in input order."""
    placements = await buckets.append(
        coll,
        layout=TRADE_BUCKETS,
        owner=customer_id,
        items=[_stored(t) for t in trades],
        size=size,
    )
    return [p.bucket.page for p in placements for _ in range(p.count)]


async def customer_counts(
    coll: AsyncCollection, *, customer_ids: Sequence[int]
) -> dict[int, CustomerCounts]:
    """Trades and pages of each customer that has any: one command for all of them (one more
    for customers whose buckets were not all written by this code)."""
    found = await bucket_reads.counts(coll, layout=TRADE_BUCKETS, owners=customer_ids)
    return {owner: CustomerCounts(*counts) for owner, counts in found.items()}


async def find_pages(
    coll: AsyncCollection, *, pages: Sequence[tuple[int, int]]
) -> list[tuple[Bucket | None, bool]]:
    """For each (customer, number from 1): that page and whether a next page exists; one
    command for all of them."""
    found = await bucket_reads.find_pages(coll, layout=TRADE_BUCKETS, wanted=pages)
    return [(None if doc is None else bucket_from_document(doc), more) for doc, more in found]


async def walk_buckets(
    coll: AsyncCollection,
    *,
    customer_id: int,
    start: int | None,
    forward: bool,
    trades_wanted: int,
    size: int,
    start_offset: int | None = None,
) -> list[Bucket]:
    """Buckets from page `start` (included) onwards, enough for `trades_wanted` trades plus one
    to tell whether more exist: one command (more only when older buckets are not full)."""
    docs = await bucket_reads.walk(
        coll,
        layout=TRADE_BUCKETS,
        owner=customer_id,
        start=start,
        forward=forward,
        start_offset=start_offset,
        items_wanted=trades_wanted,
        size=size,
    )
    return [bucket_from_document(d) for d in docs]


async def find_trades(
    coll: AsyncCollection, *, places: Sequence[tuple[int, int, int]]
) -> dict[tuple[int, int, int], TradeDoc]:
    """Trades by (customer, page, offset in the page): one command for all of them."""
    pages = sorted({(customer, page) for customer, page, _ in places})
    where = [{"customerId": customer, "page": page} for customer, page in pages]
    docs = await coll.find({"$or": where} if len(where) > 1 else where[0]).to_list()
    found = {}
    for raw in docs:
        bucket = bucket_from_document(raw)
        for offset, trade in enumerate(bucket.trades):
            found[(int(raw["customerId"]), bucket.page, offset)] = trade
    return {place: found[place] for place in places if place in found}
