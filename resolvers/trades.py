"""Customer queries, trade pages and the trades connection, and recordTrades."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

import strawberry

from resolvers.context import Context
from resolvers.cursors import decode_cursor, encode_cursor
from resolvers.errors import BadUserInput
from resolvers.validation import page_size
from schema.relay import PageInfo
from schema.trades import Trade, TradeConnection, TradeEdge, TradeInput, TradePage
from settings import (
    DEFAULT_PAGE_SIZE,
    MAX_TICKER_LENGTH,
    MAX_TRADE_YEAR,
    MAX_TRADES_PER_CALL,
    MIN_TRADE_YEAR,
)
from store import trades as store
from store.trades import Bucket, TradeDoc

Info = strawberry.Info[Context, None]
TICKER = re.compile(r"[A-Z0-9.\-]+")


class HasCustomerId(Protocol):
    customer_id: int


def customer_id_argument(value: int) -> int:
    if value < 1:
        raise BadUserInput(f"customerId: must be positive, got {value}", argument="customerId")
    return value


async def trade_count(root: HasCustomerId, info: Info) -> int:
    counts = await info.context.loaders.customer_counts.load(root.customer_id)
    return counts.trade_count


async def page_count(root: HasCustomerId, info: Info) -> int:
    counts = await info.context.loaders.customer_counts.load(root.customer_id)
    return counts.page_count


async def page(root: HasCustomerId, info: Info, number: int) -> TradePage | None:
    if number < 1:
        raise BadUserInput(f"number: pages start at 1, got {number}", argument="number")
    bucket, has_next = await store.find_page(
        info.context.database.trades, customer_id=root.customer_id, number=number
    )
    if bucket is None:
        return None
    trades = [Trade.from_doc(t) for t in bucket.trades]
    return TradePage(number=bucket.page, trades=trades, has_next_page=has_next)


@dataclass(frozen=True, slots=True)
class _Position:
    bucket: str
    index: int
    trade: TradeDoc


def _cursor(position: _Position) -> str:
    return encode_cursor("trade", position.bucket, position.index)


def _decode(cursor: str, customer_id: int, *, argument: str) -> tuple[str, int]:
    bucket, index = decode_cursor(cursor, kind="trade", size=2, argument=argument)
    if (
        not isinstance(bucket, str)
        or not isinstance(index, int)
        or index < 0
        or not bucket.startswith(store.id_prefix(customer_id))
    ):
        raise BadUserInput(f"{argument}: not a cursor of this list", argument=argument)
    return bucket, index


def _positions(buckets: list[Bucket], *, forward: bool) -> list[_Position]:
    found = []
    for bucket in buckets:
        indexed = list(enumerate(bucket.trades))
        for index, trade in indexed if forward else reversed(indexed):
            found.append(_Position(bucket.id, index, trade))
    return found


async def trades(
    root: HasCustomerId,
    info: Info,
    first: int | None = None,
    after: str | None = None,
    last: int | None = None,
    before: str | None = None,
) -> TradeConnection:
    ctx = info.context
    maximum = ctx.settings.max_page_size
    if (first is not None or after is not None) and (last is not None or before is not None):
        raise BadUserInput("first/after and last/before do not mix", argument="last")
    forward = last is None and before is None
    size = page_size(
        first if forward else last,
        default=DEFAULT_PAGE_SIZE,
        maximum=maximum,
        argument="first" if forward else "last",
    )
    cursor = after if forward else before
    start = None
    if cursor is not None:
        start = _decode(cursor, root.customer_id, argument="after" if forward else "before")
    buckets = await store.walk_buckets(
        ctx.database.trades,
        customer_id=root.customer_id,
        start=None if start is None else start[0],
        forward=forward,
        trades_wanted=(start[1] + 1 if start else 0) + size,
        size=ctx.settings.trades_per_bucket,
    )
    positions = _positions(buckets, forward=forward)
    if start is not None:
        # Drop the cursor's trade and those on its side of it, in the cursor's own bucket.
        bucket, index = start
        positions = [
            p
            for p in positions
            if p.bucket != bucket or (p.index > index if forward else p.index < index)
        ]
    chosen = positions[:size]
    more = len(positions) > size
    if not forward:
        chosen.reverse()
    edges = [TradeEdge(cursor=_cursor(p), node=Trade.from_doc(p.trade)) for p in chosen]
    counts = await ctx.loaders.customer_counts.load(root.customer_id)
    return TradeConnection(
        edges=edges,
        page_info=PageInfo.of(
            [e.cursor for e in edges],
            has_next=more if forward else cursor is not None,
            has_previous=cursor is not None if forward else more,
        ),
        total_count=counts.trade_count,
    )


def validated_trades(trades: list[TradeInput]) -> list[TradeDoc]:
    if not 1 <= len(trades) <= MAX_TRADES_PER_CALL:
        raise BadUserInput(
            f"trades: 1 to {MAX_TRADES_PER_CALL} per call, got {len(trades)}", argument="trades"
        )
    validated = []
    for index, trade in enumerate(trades):
        where = f"trades[{index}]"
        if not (1 <= len(trade.ticker) <= MAX_TICKER_LENGTH and TICKER.fullmatch(trade.ticker)):
            raise BadUserInput(
                f"{where}.ticker: 1 to {MAX_TICKER_LENGTH} of A-Z, 0-9, '.' and '-', "
                f"got {trade.ticker!r}",
                argument=f"{where}.ticker",
            )
        if trade.qty < 1:
            raise BadUserInput(
                f"{where}.qty: must be positive, got {trade.qty}", argument=f"{where}.qty"
            )
        if not MIN_TRADE_YEAR <= trade.date.year <= MAX_TRADE_YEAR:
            raise BadUserInput(
                f"{where}.date: must be between {MIN_TRADE_YEAR} and {MAX_TRADE_YEAR}",
                argument=f"{where}.date",
            )
        validated.append(TradeDoc(trade.type.value, trade.ticker, trade.qty, trade.date))
    return validated
