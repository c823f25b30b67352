"""Trade and customer types; conversions from stored buckets live here, once."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import Enum
from typing import Any

import strawberry

from schema.relay import PageInfo
from store.trades import TradeDoc


@strawberry.enum
class TradeType(Enum):
    BUY = "buy"
    SELL = "sell"


@strawberry.type
class Trade:
    type: TradeType
    ticker: str
    qty: int
    date: datetime

    @classmethod
    def from_doc(cls, doc: TradeDoc) -> Trade:
        return cls(type=TradeType(doc.type), ticker=doc.ticker, qty=doc.qty, date=doc.date)


@strawberry.type(description="One bucket: the trades of one page, oldest first.")
class TradePage:
    number: int
    trades: list[Trade]
    has_next_page: bool


@strawberry.type
class TradeEdge:
    cursor: str
    node: Trade


@strawberry.type(description="A customer's trades in insertion order (Relay connection).")
class TradeConnection:
    edges: list[TradeEdge]
    page_info: PageInfo
    total_count: int


@strawberry.input
class TradeInput:
    type: TradeType
    ticker: str
    qty: int
    date: datetime


def trade_type(kind: Any) -> TradeType:
    """The enum from whatever graphql-core coerced it to: the member, its name or its value."""
    if isinstance(kind, TradeType):
        return kind
    return TradeType[kind] if kind in TradeType.__members__ else TradeType(kind)


def _trade_from_input(cls: type, value: Mapping[str, Any], context: object) -> TradeInput:
    # graphql-core has coerced every field already (the enum to its Python value too).
    return TradeInput(
        type=trade_type(value["type"]),
        ticker=value["ticker"],
        qty=value["qty"],
        date=value["date"],
    )


TradeInput.__strawberry_definition__.from_input = _trade_from_input  # type: ignore[attr-defined]
