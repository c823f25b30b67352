"""Customers and their trades: counts, pages by number, the trades connection, recordTrades."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from resolvers import validation
from resolvers.access.permissions import Permission
from resolvers.context import Info
from resolvers.cursors import CursorCodec, Integer, not_a_cursor
from resolvers.errors import BadUserInput, shown
from resolvers.global_ids import Key, NodeKind, domain_or_global, whole_part
from resolvers.idempotency import idempotency_key, once
from resolvers.loaders import LoaderSpec
from resolvers.paging import Page, PageRequest, check_page_number
from runtime.selection.fields import selects
from settings import MAX_TICKER_LENGTH, MAX_TRADE_YEAR, MAX_TRADES_PER_CALL, MIN_TRADE_YEAR
from store import trades as store
from store.database import Database
from store.protocols import Document
from store.trades import Bucket, CustomerCounts, TradeDoc, TradeType

TICKER = re.compile(r"[A-Z0-9.\-]+")
CUSTOMER = NodeKind("Customer", (whole_part(1),), Permission.TRADES_READ)
# A trade's key: its customer, its bucket's page and its offset in the page.
TRADE = NodeKind("Trade", (whole_part(1), whole_part(1), whole_part(0)), Permission.TRADES_READ)
NO_TRADES = CustomerCounts(trade_count=0, page_count=0)


class TradePosition(NamedTuple):
    page: int  # the bucket's page
    offset: int  # the trade's place in it


TRADE_CURSOR = CursorCodec("trade", (Integer(1, 2**31 - 1), Integer(0, 2**31 - 1)), TradePosition)


async def _customer_counts(
    database: Database, customer_ids: Sequence[int], parameter: Any
) -> list[CustomerCounts]:
    found = await store.customer_counts(
        database.collection(store.COLLECTION), customer_ids=customer_ids
    )
    return [found.get(customer_id, NO_TRADES) for customer_id in customer_ids]


CUSTOMER_COUNTS: LoaderSpec[int, CustomerCounts] = LoaderSpec("customer_counts", _customer_counts)


def customer_id_argument(
    customer_id: int | None, global_id: str | None = None, *, global_argument: str = "id"
) -> int:
    """A customer named by `customerId` or by its global id (in `global_argument`): exactly one
    of the two, since an Int argument cannot take the global id without breaking clients that
    declare it `Int!`."""
    if (customer_id is None) == (global_id is None):
        raise BadUserInput(
            f"customerId: give customerId or {global_argument}, exactly one",
            argument="customerId",
        )
    if global_id is None:
        assert customer_id is not None
        return validation.positive(customer_id, argument="customerId")
    key = domain_or_global(global_id, CUSTOMER, argument=global_argument)
    if key is None:
        raise BadUserInput(
            f"{global_argument}: is not the id of a Customer", argument=global_argument
        )
    return int(key[0])  # its shape (1 to 2^31-1) checked with the id


async def counts(info: Info, *, customer_id: int) -> CustomerCounts:
    found: CustomerCounts = await info.context.loader(CUSTOMER_COUNTS).load(customer_id)
    return found


async def customer(info: Info, *, customer_id: int | None, id: str | None) -> int | None:
    """The customer's id when it has trades, else None."""
    customer_id = customer_id_argument(customer_id, id)
    found = await counts(info, customer_id=customer_id)
    return customer_id if found.page_count else None


async def _trade_pages(
    database: Database, pages: Sequence[tuple[int, int]], parameter: Any
) -> list[tuple[Bucket | None, bool]]:
    return await store.find_pages(database.collection(store.COLLECTION), pages=pages)


# Keyed by (customer, number): every `page` field of a request (aliased, or of several
# customers) is one command together.
TRADE_PAGES: LoaderSpec[tuple[int, int], tuple[Bucket | None, bool]] = LoaderSpec(
    "trade_pages", _trade_pages
)


async def page(info: Info, *, customer_id: int, number: int) -> tuple[Bucket | None, bool]:
    """Page `number` (from 1) and whether a next page exists."""
    found: tuple[Bucket | None, bool] = await info.context.loader(TRADE_PAGES).load(
        (customer_id, check_page_number(number))
    )
    return found


@dataclass(frozen=True, slots=True)
class PlacedTrade:
    """A trade and where it lies: its customer, bucket page and offset, its global key."""

    customer_id: int
    position: TradePosition
    trade: TradeDoc


TradePlace = tuple[int, int, int]  # customer, page, offset


async def _trades(
    database: Database, places: Sequence[TradePlace], parameter: Any
) -> list[PlacedTrade | None]:
    found = await store.find_trades(database.collection(store.COLLECTION), places=places)
    return [
        PlacedTrade(c, TradePosition(p, o), found[(c, p, o)]) if (c, p, o) in found else None
        for c, p, o in places
    ]


TRADES_BY_PLACE: LoaderSpec[TradePlace, PlacedTrade | None] = LoaderSpec("trades", _trades)


async def trade_by_key(info: Info, key: Key) -> PlacedTrade | None:
    """The trade of a `TRADE` key."""
    customer_id, page, offset = (int(part) for part in key)
    found: PlacedTrade | None = await info.context.loader(TRADES_BY_PLACE).load(
        (customer_id, page, offset)
    )
    return found


async def customer_by_key(info: Info, key: Key) -> int | None:
    """The id of a `CUSTOMER` key's customer when it has trades."""
    customer_id = int(key[0])
    return customer_id if (await counts(info, customer_id=customer_id)).page_count else None


def placed_trades(customer_id: int, bucket: Bucket) -> list[PlacedTrade]:
    return [
        PlacedTrade(customer_id, TradePosition(bucket.page, index), trade)
        for index, trade in enumerate(bucket.trades)
    ]


def _up_to(index: int, start: TradePosition, forward: bool) -> bool:
    """Whether the trade at `index` of the cursor's bucket is the cursor's or before it."""
    return index <= start.offset if forward else index >= start.offset


def _from_cursor(
    customer_id: int,
    buckets: list[Bucket],
    start: TradePosition | None,
    forward: bool,
    argument: str,
) -> list[PlacedTrade]:
    """The trades of `buckets` in reading order, those up to the cursor's left out."""
    if start is not None and (
        not buckets or buckets[0].page != start.page or start.offset >= len(buckets[0].trades)
    ):
        raise not_a_cursor(argument)  # no such trade: forged, or of another list
    found = []
    for bucket in buckets:
        placed = placed_trades(customer_id, bucket)
        for trade in placed if forward else reversed(placed):
            if (
                start is not None
                and bucket.page == start.page
                and _up_to(trade.position.offset, start, forward)
            ):
                continue
            found.append(trade)
    return found


async def trades(
    info: Info,
    *,
    customer_id: int,
    first: int | None,
    after: str | None,
    last: int | None,
    before: str | None,
) -> Page[PlacedTrade]:
    ctx = info.context
    request = PageRequest.from_arguments(
        first=first, after=after, last=last, before=before, maximum=ctx.settings.max_page_size
    )
    start = request.position(TRADE_CURSOR)
    size = ctx.settings.trades_per_bucket
    buckets = await store.walk_buckets(
        info.context.collection(store.COLLECTION),
        customer_id=customer_id,
        start=None if start is None else start.page,
        forward=request.forward,
        # Only the trades past the cursor count in its bucket; a forged offset changes how that
        # bucket counts (never past what it holds), and is rejected once the bucket is read.
        start_offset=None if start is None else start.offset,
        trades_wanted=request.size,
        size=size,
    )
    found = _from_cursor(customer_id, buckets, start, request.forward, request.cursor_argument)
    total = None
    if selects(info, "totalCount"):
        total = (await counts(info, customer_id=customer_id)).trade_count
    # A cursor names a trade that exists (checked against its bucket), and trades stay.
    behind = start is not None
    return Page.cut(
        found, request, lambda p: TRADE_CURSOR.encode(p.position), behind=behind, total=total
    )


class TradeArgs(Protocol):
    """A trade as the schema passes it (a `TradeInput`)."""

    @property
    def type(self) -> TradeType: ...
    @property
    def ticker(self) -> str: ...
    @property
    def qty(self) -> int: ...
    @property
    def date(self) -> datetime: ...


def _validated_trade(index: int, trade: TradeArgs) -> TradeDoc:
    where = f"trades[{index}]"
    if not (1 <= len(trade.ticker) <= MAX_TICKER_LENGTH and TICKER.fullmatch(trade.ticker)):
        raise BadUserInput(
            f"{where}.ticker: 1 to {MAX_TICKER_LENGTH} of A-Z, 0-9, '.' and '-', "
            f"got {shown(trade.ticker)}",
            argument=f"{where}.ticker",
        )
    validation.positive(trade.qty, argument=f"{where}.qty")
    if not MIN_TRADE_YEAR <= trade.date.year <= MAX_TRADE_YEAR:
        raise BadUserInput(
            f"{where}.date: must be between {MIN_TRADE_YEAR} and {MAX_TRADE_YEAR}",
            argument=f"{where}.date",
        )
    return TradeDoc(trade.type.value, trade.ticker, trade.qty, trade.date)


async def _replayed(answer: Document) -> list[int]:
    return [int(page) for page in answer.get("pages") or ()]


async def record_trades(
    info: Info,
    *,
    customer_id: int | None,
    customer: str | None,
    trades: Sequence[TradeArgs],
    key: str | None = None,
) -> tuple[int, list[int]]:
    """The customer, and the page each trade went to, in input order; with a key, stored at
    most once (a retry gets the first try's pages)."""
    key = idempotency_key(key)
    customer_id = customer_id_argument(customer_id, customer, global_argument="customer")
    validation.at_most(trades, MAX_TRADES_PER_CALL, argument="trades", minimum=1)
    validated = [_validated_trade(index, trade) for index, trade in enumerate(trades)]

    async def write() -> list[int]:
        return await store.record_trades(
            info.context.collection(store.COLLECTION),
            customer_id=customer_id,
            trades=validated,
            size=info.context.settings.trades_per_bucket,
        )

    pages = await once(
        info,
        scope="recordTrades",
        key=key,
        request=[customer_id, [[t.type, t.ticker, t.qty, t.date] for t in validated]],
        write=write,
        answer=lambda placed: {"pages": placed},
        replay=_replayed,
    )
    return customer_id, pages
