"""The customer query and the recordTrades mutation."""

from __future__ import annotations

import strawberry

from resolvers.context import Context
from resolvers.errors import ApiError
from resolvers.trades import customer_id_argument, validated_trades
from schema.customers import Customer, RecordTradesPayload
from schema.trades import TradeInput
from store import trades as store

Info = strawberry.Info[Context, None]


class Contention(ApiError):
    code = "CONFLICT"


async def customer(info: Info, customer_id: int) -> Customer | None:
    customer_id = customer_id_argument(customer_id)
    counts = await info.context.loaders.customer_counts.load(customer_id)
    return Customer(customer_id=customer_id) if counts.page_count else None


async def record_trades(
    info: Info, customer_id: int, trades: list[TradeInput]
) -> RecordTradesPayload:
    ctx = info.context
    customer_id = customer_id_argument(customer_id)
    validated = validated_trades(trades)
    try:
        pages = await store.record_trades(
            ctx.database.trades,
            customer_id=customer_id,
            trades=validated,
            size=ctx.settings.trades_per_bucket,
        )
    except store.BucketContention as exc:
        raise Contention(f"trades: too many concurrent writers, retry ({exc})") from None
    return RecordTradesPayload(customer=Customer(customer_id=customer_id), page_numbers=pages)
