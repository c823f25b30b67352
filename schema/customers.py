"""The Customer type and the recordTrades payload."""

from __future__ import annotations

import strawberry

from resolvers import trades as resolve
from schema.trades import TradeConnection, TradePage


@strawberry.type(description="A customer's trades, grouped 10 to a bucket document (page).")
class Customer:
    customer_id: int
    trade_count: int = strawberry.field(resolver=resolve.trade_count)
    page_count: int = strawberry.field(resolver=resolve.page_count)
    page: TradePage | None = strawberry.field(
        resolver=resolve.page, description="Page `number`, from 1, oldest first; null past the end."
    )
    trades: TradeConnection = strawberry.field(
        resolver=resolve.trades,
        description="In insertion order; `last`/`before` read newest first.",
    )


@strawberry.type
class RecordTradesPayload:
    customer: Customer
    page_numbers: list[int] = strawberry.field(
        description="The page each trade went to, in input order."
    )
