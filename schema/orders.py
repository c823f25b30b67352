"""User and order types, and the user fields of Query and Mutation; `Order.from_doc` and
`User.from_loaded` are the conversions from stored users and orders."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import ClassVar

import strawberry

from resolvers import orders as resolve_orders
from resolvers import users as resolve
from resolvers.context import Info
from resolvers.global_ids import Key, NodeKind
from resolvers.paging import Page
from resolvers.users import LoadedUser
from runtime.execution.input_builders import build_directly
from schema.mutation import write_mutation
from schema.node import Node, node_id_field
from schema.relay import Connection
from store.orders.order_pages import PageArgs
from store.orders.users import OrderDoc, OrderPage


@strawberry.type(description="An order embedded in its user.")
class Order(Node):
    KIND: ClassVar[NodeKind] = resolve.ORDER
    id: strawberry.ID = node_id_field(lambda order: (order.user_id, order.order_id))
    order_id: strawberry.ID = strawberry.field(description="The order's own id, in its user.")
    user_id: str
    info: str | None
    create_time: datetime

    @classmethod
    async def resolve_node(cls, info: Info, key: Key) -> Order | None:
        found = await resolve.order_by_key(info, key)
        return None if found is None else cls.from_doc(found.order, user_id=found.user_id)

    @classmethod
    def from_doc(cls, doc: OrderDoc, *, user_id: str) -> Order:
        # The dataclass's `__init__` without its keyword matching (a page builds one per order):
        # the same object, every field set (tests/server/test_direct_construction.py).
        order: Order = object.__new__(cls)
        order.order_id = strawberry.ID(doc.id)
        order.user_id = user_id
        order.info = doc.info
        order.create_time = doc.create_time
        return order


@strawberry.type(description="A page of a user's orders, newest first (Relay connection).")
class OrderConnection(Connection[Order]):
    pass


async def _then(
    page: Awaitable[Page[OrderDoc]], connection: Callable[[Page[OrderDoc]], OrderConnection]
) -> OrderConnection:
    return connection(await page)


def _orders(
    root: User,
    info: Info,
    first: int | None = None,
    after: str | None = None,
    last: int | None = None,
    before: str | None = None,
    max_create_time: datetime | None = None,
) -> OrderConnection | Awaitable[OrderConnection]:
    """Synchronous when the page came with its user (graphql-core completes it at once), a
    coroutine when it must be loaded: graphql-core takes either."""
    page = resolve_orders.user_orders(
        info,
        user_id=root.user_id,
        prefetched=root.pages,
        first=first,
        after=after,
        last=last,
        before=before,
        max_create_time=max_create_time,
    )
    user_id = root.user_id

    def connection(page: Page[OrderDoc]) -> OrderConnection:
        return OrderConnection.from_page(page, lambda doc: Order.from_doc(doc, user_id=user_id))

    if isinstance(page, Page):
        return connection(page)
    return _then(page, connection)


@strawberry.type(description="A user and the orders embedded in it.")
class User(Node):
    KIND: ClassVar[NodeKind] = resolve.USER
    id: strawberry.ID = node_id_field(lambda user: (user.user_id,))
    user_id: str
    user_type: str | None
    name: str | None
    order_count: int = strawberry.field(description="All orders of the user, unfiltered.")
    # Pages read together with the user (same command), by their arguments.
    pages: strawberry.Private[Mapping[PageArgs, OrderPage]]

    @classmethod
    async def resolve_node(cls, info: Info, key: Key) -> User | None:
        found = await resolve.user_by_key(info, key)
        return None if found is None else cls.from_loaded(found)

    @classmethod
    def from_loaded(cls, loaded: LoadedUser) -> User:
        user = loaded.user
        return cls(
            user_id=user.user_id,
            user_type=user.user_type,
            name=user.name,
            order_count=user.order_count,
            pages=loaded.pages,
        )

    orders = strawberry.field(
        resolver=_orders,
        graphql_type=OrderConnection,
        description="Newest first; `maxCreateTime` keeps orders created at or before it; "
        "`totalCount` counts the orders that pass it.",
    )


def _user(loaded: LoadedUser | None) -> User | None:
    return None if loaded is None else User.from_loaded(loaded)


@strawberry.input(description="An order to replace (same id) or insert.")
class OrderInput:
    id: strawberry.ID
    create_time: datetime
    info: str | None = None


build_directly(OrderInput)


async def _user_field(info: Info, user_id: str) -> User | None:
    return _user(await resolve.user(info, user_id=user_id))


async def _users(info: Info, user_ids: list[str]) -> list[User | None]:
    return [_user(found) for found in await resolve.users(info, user_ids=user_ids)]


@strawberry.type
class UserQueries:
    user: User | None = strawberry.field(resolver=_user_field)
    users: list[User | None] = strawberry.field(
        resolver=_users, description="In the order asked, null where unknown; at most 100 ids."
    )


async def _upsert_orders(
    info: Info,
    user_id: str,
    user_type: str | None = None,
    name: str | None = None,
    *,
    orders: list[OrderInput],
) -> User:
    loaded = await resolve.upsert_orders(
        info, user_id=user_id, user_type=user_type, name=name, orders=orders
    )
    return User.from_loaded(loaded)


async def _delete_orders(info: Info, user_id: str, order_ids: list[strawberry.ID]) -> User:
    return User.from_loaded(await resolve.delete_orders(info, user_id=user_id, order_ids=order_ids))


@strawberry.type
class UserMutations:
    upsert_orders: User = write_mutation(
        _upsert_orders,
        description="Replace orders by id, insert new ones, create the user when missing.",
    )
    delete_orders: User = write_mutation(
        _delete_orders,
        description="Remove orders by id; unknown ids are ignored.",
    )
