"""Order types and inputs; `Order.from_doc` is the one conversion from a stored order."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import strawberry

from schema.relay import PageInfo
from store.users import OrderDoc


@strawberry.type(description="An order embedded in its user.")
class Order:
    id: strawberry.ID
    info: str | None
    create_time: datetime

    @classmethod
    def from_doc(cls, doc: OrderDoc) -> Order:
        return cls(id=strawberry.ID(doc.id), info=doc.info, create_time=doc.create_time)


@strawberry.type
class OrderEdge:
    cursor: str
    node: Order


@strawberry.type(description="A page of a user's orders, newest first (Relay connection).")
class OrderConnection:
    edges: list[OrderEdge]
    page_info: PageInfo
    total_count: int = strawberry.field(description="Orders that pass `maxCreateTime`.")


@strawberry.input(description="An order to replace (same id) or insert.")
class OrderInput:
    id: strawberry.ID
    create_time: datetime
    info: str | None = None


def _order_from_input(cls: type, value: Mapping[str, Any], context: object) -> OrderInput:
    # graphql-core has coerced every field already; skip the generic per-field conversion.
    return OrderInput(id=value["id"], create_time=value["createTime"], info=value.get("info"))


OrderInput.__strawberry_definition__.from_input = _order_from_input  # type: ignore[attr-defined]
