"""User and order types, and the user fields of Query and Mutation; `Order.from_doc` and
`User.from_loaded` are the conversions from stored users and orders."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any, ClassVar

import strawberry

from resolvers import orders as resolve_orders
from resolvers import users as resolve
from resolvers.access.permissions import Permission
from resolvers.context import Info
from resolvers.global_ids import MAX_GLOBAL_ID_LENGTH, Key, NodeKind
from resolvers.orders import ORDER_CURSOR
from resolvers.paging import Page, check_page_arguments
from resolvers.users import LoadedUser
from runtime.execution.input_builders import build_directly
from schema.facts import (
    AS_ITS_OBJECT,
    NO_WORK,
    SHORT,
    byte_units,
    facts,
    given,
    length_of,
    per_item,
    text_units,
)
from schema.mutation import write_mutation
from schema.node import Node, node_id_field
from schema.relay import Connection
from settings import (
    COST_VALUE_BYTES,
    MAX_ORDER_INFO_LENGTH,
    MAX_USER_ID_LENGTH,
    MAX_USER_TEXT_LENGTH,
    MAX_USERS_PER_QUERY,
    Settings,
)
from store.orders.order_pages import PageArgs
from store.orders.users import OrderDoc, OrderPage

ID_UNITS = byte_units(MAX_GLOBAL_ID_LENGTH)  # a user's and an order's ids hold a user id
USER_TEXT_UNITS = text_units(MAX_USER_TEXT_LENGTH)
UNITS_PER_ORDER = 2  # an upserted order's id and its time; its info by its bytes besides


def _check_page(arguments: Mapping[str, Any], settings: Settings) -> None:
    """`User.orders`' page arguments, as its resolver checks them first."""
    check_page_arguments(arguments, ORDER_CURSOR, maximum=settings.max_page_size)


@strawberry.type(description="An order embedded in its user.")
class Order(Node):
    KIND: ClassVar[NodeKind] = resolve.ORDER
    id: strawberry.ID = node_id_field(
        lambda order: (order.user_id, order.order_id), value_units=ID_UNITS
    )
    order_id: strawberry.ID = strawberry.field(
        description="The order's own id, in its user.",
        metadata=facts(value_units=SHORT, permission=AS_ITS_OBJECT),
    )
    user_id: str = strawberry.field(
        metadata=facts(value_units=text_units(MAX_USER_ID_LENGTH), permission=AS_ITS_OBJECT)
    )
    info: str | None = strawberry.field(
        metadata=facts(value_units=text_units(MAX_ORDER_INFO_LENGTH), permission=AS_ITS_OBJECT)
    )
    create_time: datetime = strawberry.field(metadata=facts(permission=AS_ITS_OBJECT))

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
    id: strawberry.ID = node_id_field(lambda user: (user.user_id,), value_units=ID_UNITS)
    user_id: str = strawberry.field(
        metadata=facts(value_units=text_units(MAX_USER_ID_LENGTH), permission=AS_ITS_OBJECT)
    )
    # What the user holds is `orders:read`'s: a caller reaching the user by writing its orders
    # (`ingest`, `orders:write` alone) is answered its id, never the rest.
    user_type: str | None = strawberry.field(
        metadata=facts(value_units=USER_TEXT_UNITS, permission=Permission.ORDERS_READ)
    )
    name: str | None = strawberry.field(
        metadata=facts(value_units=USER_TEXT_UNITS, permission=Permission.ORDERS_READ)
    )
    order_count: int = strawberry.field(
        description="All orders of the user, unfiltered.",
        metadata=facts(permission=Permission.ORDERS_READ),
    )
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
        metadata=facts(
            cursors=(ORDER_CURSOR,), payload_check=_check_page, permission=Permission.ORDERS_READ
        ),
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
    user: User | None = strawberry.field(
        resolver=_user_field,
        description="Null when unknown, or not the caller's own (for a signed-in user).",
        metadata=facts(work_units=NO_WORK, permission=Permission.ORDERS_READ),
    )
    users: list[User | None] = strawberry.field(
        resolver=_users,
        description="In the order asked, null where unknown; at most 100 ids.",
        # One entry per id asked, in the order asked, a repeated one each time.
        metadata=facts(
            list_size=length_of("userIds", MAX_USERS_PER_QUERY),
            work_units=NO_WORK,
            permission=Permission.ORDERS_READ,
        ),
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


def _info_units(info: Any) -> int:
    if not isinstance(info, str) or not info:
        return 0
    size = len(info) if info.isascii() else len(info.encode("utf-8", "surrogatepass"))
    return math.ceil(size / COST_VALUE_BYTES)


def _orders_written(arguments: Mapping[str, Any]) -> int:
    """What upserting the orders writes: each its id and time, its info by its bytes (one unit
    per COST_VALUE_BYTES, as an answer's texts count); one user document in all."""
    orders = given(arguments, "orders")
    return UNITS_PER_ORDER * len(orders) + sum(_info_units(_info(o)) for o in orders)


def _info(order: Any) -> Any:
    # As coercion built it: an input object, or a mapping by the schema's names.
    return order.get("info") if isinstance(order, Mapping) else getattr(order, "info", None)


@strawberry.type
class UserMutations:
    upsert_orders: User = write_mutation(
        _upsert_orders,
        permission=Permission.ORDERS_WRITE,
        work_units=_orders_written,
        description="Replace orders by id, insert new ones, create the user when missing.",
    )
    delete_orders: User = write_mutation(
        _delete_orders,
        permission=Permission.ORDERS_WRITE,
        work_units=per_item("orderIds", 1),
        description="Remove orders by id; unknown ids are ignored.",
    )
