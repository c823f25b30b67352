"""Customer and trade types, and the customer fields of Query and Mutation; the conversions
from stored buckets live here, once."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, ClassVar

import strawberry

from resolvers import trades as resolve
from resolvers.access.permissions import Permission
from resolvers.context import Info
from resolvers.global_ids import Key, NodeKind
from resolvers.idempotency import DESCRIPTION as KEY_DESCRIPTION
from resolvers.paging import check_page_arguments, check_page_number
from resolvers.trades import TRADE_CURSOR, PlacedTrade
from runtime.execution.input_builders import build_directly
from schema.facts import AS_ITS_OBJECT, NO_WORK, SHORT, facts, length_of, per_item
from schema.mutation import write_mutation
from schema.node import Node, node_id_field
from schema.relay import Connection
from settings import MAX_TRADES_PER_CALL, Settings
from store.trades import Bucket
from store.trades import TradeType as StoredTradeType

# What a recorded trade counts in the cost for its write: its check, its conversion and its
# place in a bucket (tests/trades/test_trade_writes_within_charge.py).
UNITS_PER_TRADE = 60


def _check_page(arguments: Mapping[str, Any], settings: Settings) -> None:
    """`Customer.trades`' page arguments, as its resolver checks them first."""
    check_page_arguments(arguments, TRADE_CURSOR, maximum=settings.max_page_size)


strawberry.enum(StoredTradeType, name="TradeType")


def _trade_key(trade: Trade) -> tuple[int, int, int]:
    placed = trade.placed
    return placed.customer_id, placed.position.page, placed.position.offset


@strawberry.type(
    description="A trade; its place (page and offset) in its customer's trades never changes."
)
class Trade(Node):
    KIND: ClassVar[NodeKind] = resolve.TRADE
    id: strawberry.ID = node_id_field(_trade_key, value_units=SHORT)
    type: StoredTradeType = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    ticker: str = strawberry.field(metadata=facts(value_units=SHORT, permission=AS_ITS_OBJECT))
    qty: int = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    date: datetime = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    placed: strawberry.Private[PlacedTrade]

    @classmethod
    async def resolve_node(cls, info: Info, key: Key) -> Trade | None:
        found = await resolve.trade_by_key(info, key)
        return None if found is None else cls.from_placed(found)

    @classmethod
    def from_placed(cls, placed: PlacedTrade) -> Trade:
        doc = placed.trade
        return cls(
            type=StoredTradeType(doc.type),
            ticker=doc.ticker,
            qty=doc.qty,
            date=doc.date,
            placed=placed,
        )


@strawberry.type(description="One bucket: the trades of one page, oldest first.")
class TradePage:
    number: int = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    trades: list[Trade] = strawberry.field(
        metadata=facts(list_size=lambda s: s.settings.trades_per_bucket, permission=AS_ITS_OBJECT)
    )
    has_next_page: bool = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))

    @classmethod
    def from_bucket(cls, bucket: Bucket, *, customer_id: int, has_next: bool) -> TradePage:
        trades = [Trade.from_placed(t) for t in resolve.placed_trades(customer_id, bucket)]
        return cls(number=bucket.page, trades=trades, has_next_page=has_next)


@strawberry.type(description="A customer's trades in insertion order (Relay connection).")
class TradeConnection(Connection[Trade]):
    pass


async def _trade_count(root: Customer, info: Info) -> int:
    return (await resolve.counts(info, customer_id=root.customer_id)).trade_count


async def _page_count(root: Customer, info: Info) -> int:
    return (await resolve.counts(info, customer_id=root.customer_id)).page_count


async def _page(root: Customer, info: Info, number: int) -> TradePage | None:
    bucket, has_next = await resolve.page(info, customer_id=root.customer_id, number=number)
    if bucket is None:
        return None
    return TradePage.from_bucket(bucket, customer_id=root.customer_id, has_next=has_next)


async def _trades(
    root: Customer,
    info: Info,
    first: int | None = None,
    after: str | None = None,
    last: int | None = None,
    before: str | None = None,
) -> TradeConnection:
    page = await resolve.trades(
        info, customer_id=root.customer_id, first=first, after=after, last=last, before=before
    )
    return TradeConnection.from_page(page, Trade.from_placed)


@strawberry.type(description="A customer's trades, grouped 10 to a bucket document (page).")
class Customer(Node):
    KIND: ClassVar[NodeKind] = resolve.CUSTOMER
    id: strawberry.ID = node_id_field(lambda customer: (customer.customer_id,), value_units=SHORT)
    customer_id: int = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    trade_count: int = strawberry.field(
        resolver=_trade_count, metadata=facts(permission=AS_ITS_OBJECT)
    )
    page_count: int = strawberry.field(
        resolver=_page_count, metadata=facts(permission=AS_ITS_OBJECT)
    )
    page: TradePage | None = strawberry.field(
        resolver=_page,
        description="Page `number`, from 1, oldest first; null past the end.",
        metadata=facts(
            payload_check=lambda arguments, _: check_page_number(arguments["number"]),
            permission=AS_ITS_OBJECT,
        ),
    )
    trades: TradeConnection = strawberry.field(
        resolver=_trades,
        description="In insertion order; `last`/`before` read newest first.",
        metadata=facts(
            cursors=(TRADE_CURSOR,), payload_check=_check_page, permission=AS_ITS_OBJECT
        ),
    )

    @classmethod
    async def resolve_node(cls, info: Info, key: Key) -> Customer | None:
        found = await resolve.customer_by_key(info, key)
        return None if found is None else cls.of(found)

    @classmethod
    def of(cls, customer_id: int) -> Customer:
        return cls(customer_id=customer_id)


@strawberry.input
class TradeInput:
    type: StoredTradeType
    ticker: str
    qty: int
    date: datetime


build_directly(TradeInput)


@strawberry.type
class RecordTradesPayload:
    customer: Customer = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))
    page_numbers: list[int] = strawberry.field(
        description="The page each trade went to, in input order.",
        metadata=facts(
            list_size=length_of("trades", MAX_TRADES_PER_CALL, parent=True),
            permission=AS_ITS_OBJECT,
        ),
    )


async def _customer(
    info: Info,
    customer_id: int | None = None,
    id: Annotated[
        strawberry.ID | None,
        strawberry.argument(description="The customer's global id, instead of customerId."),
    ] = None,
) -> Customer | None:
    found = await resolve.customer(info, customer_id=customer_id, id=id)
    return None if found is None else Customer.of(found)


@strawberry.type
class CustomerQueries:
    customer: Customer | None = strawberry.field(
        resolver=_customer,
        description="Null when the customer has no trades.",
        metadata=facts(work_units=NO_WORK, permission=Permission.TRADES_READ),
    )


async def _record_trades(
    info: Info,
    customer_id: int | None = None,
    customer: Annotated[
        strawberry.ID | None,
        strawberry.argument(description="The customer's global id, instead of customerId."),
    ] = None,
    *,
    trades: list[TradeInput],
    idempotency_key: Annotated[str | None, strawberry.argument(description=KEY_DESCRIPTION)] = None,
) -> RecordTradesPayload:
    customer_id, pages = await resolve.record_trades(
        info, customer_id=customer_id, customer=customer, trades=trades, key=idempotency_key
    )
    return RecordTradesPayload(customer=Customer.of(customer_id), page_numbers=pages)


@strawberry.type
class CustomerMutations:
    record_trades: RecordTradesPayload = write_mutation(
        _record_trades,
        permission=Permission.TRADES_WRITE,
        work_units=per_item("trades", UNITS_PER_TRADE),
        description="Append 1 to 100 trades, 10 to a bucket, in order.",
    )
