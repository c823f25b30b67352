"""The User type; `User.from_doc` is the one conversion from a stored user."""

from __future__ import annotations

import strawberry

from resolvers.orders import user_orders
from schema.orders import OrderConnection
from store.order_pages import PageArgs
from store.users import OrderPage, UserDoc


@strawberry.type(description="A user and the orders embedded in it.")
class User:
    user_id: str
    user_type: str | None
    name: str | None
    order_count: int = strawberry.field(description="All orders of the user, unfiltered.")
    orders: OrderConnection = strawberry.field(
        resolver=user_orders,
        description="Newest first; `maxCreateTime` keeps orders created at or before it.",
    )
    # Pages read together with the user (same command), by their arguments.
    pages: strawberry.Private[dict[PageArgs, OrderPage]]

    @classmethod
    def from_doc(cls, doc: UserDoc, pages: dict[PageArgs, OrderPage] | None = None) -> User:
        return cls(
            user_id=doc.user_id,
            user_type=doc.user_type,
            name=doc.name,
            order_count=doc.order_count,
            pages=pages or {},
        )
