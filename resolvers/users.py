"""Users and the order mutations, validated at the edge."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from resolvers import validation
from resolvers.access.permissions import Permission
from resolvers.access.records import may_use_user
from resolvers.context import Info
from resolvers.errors import BadUserInput, LimitExceeded, NotFound
from resolvers.global_ids import Key, NodeKind, domain_id, owned_key, text_part
from resolvers.loaders import LoaderSpec, keyed
from resolvers.orders import USERS_WITH_PAGE, prefetch_args
from settings import (
    MAX_ORDER_ID_LENGTH,
    MAX_ORDER_INFO_LENGTH,
    MAX_ORDERS_PER_CALL,
    MAX_USER_ID_LENGTH,
    MAX_USER_TEXT_LENGTH,
    MAX_USERS_PER_QUERY,
)
from store.database import Database
from store.orders import users as store
from store.orders.order_pages import PageArgs
from store.orders.users import OrderDoc, OrderPage, UserDoc, UserWithPage

USER = NodeKind("User", (text_part(MAX_USER_ID_LENGTH),), Permission.ORDERS_READ)
ORDER = NodeKind(
    "Order",
    (text_part(MAX_USER_ID_LENGTH), text_part(MAX_ORDER_ID_LENGTH)),
    Permission.ORDERS_READ,
)


@dataclass(frozen=True, slots=True)
class LoadedUser:
    """A user, with the order pages read along with it, by their arguments."""

    user: UserDoc
    pages: Mapping[PageArgs, OrderPage] = field(default_factory=dict)


def loaded_user(found: UserWithPage | None, args: PageArgs | None) -> LoadedUser | None:
    if found is None:
        return None
    pages = {args: found.page} if args is not None and found.page is not None else {}
    return LoadedUser(found.user, pages)


def user_id_argument(value: str, *, argument: str = "userId") -> str:
    """A user named by its global id or its own (`userId`)."""
    own = domain_id(value, USER, argument=argument)
    return validation.text(own, argument=argument, maximum=MAX_USER_ID_LENGTH)


def order_id_argument(value: str, *, user_id: str, argument: str) -> str:
    """An order named by its global id (of this user) or its own (`orderId`)."""
    own = owned_key(value, ORDER, user_id, argument=argument)
    return validation.text(
        value if own is None else own, argument=argument, maximum=MAX_ORDER_ID_LENGTH
    )


async def user(info: Info, *, user_id: str) -> LoadedUser | None:
    user_id = user_id_argument(user_id)
    if not await may_use_user(info, user_id, Permission.ORDERS_READ):
        return None  # as a user that does not exist
    args = prefetch_args(info)
    found = await info.context.loader(USERS_WITH_PAGE, args).load(user_id)
    return loaded_user(found, args)


async def user_by_key(info: Info, key: Key) -> LoadedUser | None:
    """The user of a `USER` key (`node(id:)`), its orders' page prefetched as `user` does."""
    args = prefetch_args(info)
    found = await info.context.loader(USERS_WITH_PAGE, args).load(str(key[0]))
    return loaded_user(found, args)


@dataclass(frozen=True, slots=True)
class OwnedOrder:
    user_id: str
    order: OrderDoc


async def _orders_by_key(
    database: Database, keys: Sequence[tuple[str, str]], parameter: object
) -> list[OrderDoc | None]:
    found = await store.find_orders(database.collection(store.COLLECTION), keys=keys)
    return keyed(found, keys)


ORDERS_BY_KEY: LoaderSpec[tuple[str, str], OrderDoc | None] = LoaderSpec("orders", _orders_by_key)


async def order_by_key(info: Info, key: Key) -> OwnedOrder | None:
    """The order of an `ORDER` key (user, order), with its user's id."""
    user_id, order_id = str(key[0]), str(key[1])
    found = await info.context.loader(ORDERS_BY_KEY).load((user_id, order_id))
    return None if found is None else OwnedOrder(user_id, found)


async def users(info: Info, *, user_ids: Sequence[str]) -> list[LoadedUser | None]:
    validation.at_most(user_ids, MAX_USERS_PER_QUERY, argument="userIds")
    ids = [user_id_argument(u, argument=f"userIds[{i}]") for i, u in enumerate(user_ids)]
    allowed = [await may_use_user(info, user_id, Permission.ORDERS_READ) for user_id in ids]
    args = prefetch_args(info)
    loader = info.context.loader(USERS_WITH_PAGE, args)
    found = await loader.load_many([u for u, ok in zip(ids, allowed, strict=True) if ok])
    loaded = iter(found)
    # Another's user reads as one that does not exist: null, and never read.
    return [loaded_user(next(loaded), args) if ok else None for ok in allowed]


class OrderArgs(Protocol):
    """An order as the schema passes it (an `OrderInput`)."""

    @property
    def id(self) -> str: ...
    @property
    def create_time(self) -> datetime: ...
    @property
    def info(self) -> str | None: ...


def _plain_order_id(value: str) -> str | None:
    """`value` when `order_id_argument` would take it as it is without a look at it as a global
    id: 1 to MAX_ORDER_ID_LENGTH printable characters, the first not "W" (every global id's);
    None for anything else, which `order_id_argument` reads or refuses. A batch names hundreds
    of orders, each read so without an argument name built."""
    if 0 < len(value) <= MAX_ORDER_ID_LENGTH and value[0] != "W" and value.isprintable():
        return value
    return None


def _info(index: int, info: str | None) -> str | None:
    """An order's info, checked; a common one (ASCII: storable, but for a NUL) builds no
    argument name."""
    if info is not None and not (
        len(info) <= MAX_ORDER_INFO_LENGTH and info.isascii() and "\x00" not in info
    ):
        validation.free_text(info, argument=f"orders[{index}].info", maximum=MAX_ORDER_INFO_LENGTH)
    return info


def _orders(orders: Sequence[OrderArgs], *, user_id: str, max_orders: int) -> list[OrderDoc]:
    validation.at_most(orders, MAX_ORDERS_PER_CALL, argument="orders")
    if len(orders) > max_orders:
        raise LimitExceeded(f"orders: a user holds at most {max_orders} orders", argument="orders")
    seen: dict[str, int] = {}
    validated = []
    for index, order in enumerate(orders):
        order_id = _plain_order_id(order.id) or order_id_argument(
            order.id, user_id=user_id, argument=f"orders[{index}].id"
        )
        if order_id in seen:
            where = f"orders[{index}].id"
            raise BadUserInput(
                f"{where}: {order_id!r} is also orders[{seen[order_id]}].id", argument=where
            )
        seen[order_id] = index
        # Positional: a frozen dataclass's __init__ with keywords costs more, once per order.
        validated.append(OrderDoc(order_id, order.create_time, _info(index, order.info)))
    return validated


async def upsert_orders(
    info: Info,
    *,
    user_id: str,
    user_type: str | None,
    name: str | None,
    orders: Sequence[OrderArgs],
) -> LoadedUser:
    ctx = info.context
    user_id = user_id_argument(user_id)
    if not await may_use_user(info, user_id, Permission.ORDERS_WRITE):
        raise _no_user(user_id)
    if user_type is not None:
        validation.text(user_type, argument="userType", maximum=MAX_USER_TEXT_LENGTH)
    if name is not None:
        validation.text(name, argument="name", maximum=MAX_USER_TEXT_LENGTH)
    max_orders = ctx.settings.max_orders_per_user
    doc = await store.upsert_orders(
        ctx.collection(store.COLLECTION),
        user_id=user_id,
        orders=_orders(orders, user_id=user_id, max_orders=max_orders),
        user_type=user_type,
        name=name,
        max_orders=max_orders,
    )
    return LoadedUser(doc)


async def delete_orders(info: Info, *, user_id: str, order_ids: Sequence[str]) -> LoadedUser:
    user_id = user_id_argument(user_id)
    if not await may_use_user(info, user_id, Permission.ORDERS_WRITE):
        raise _no_user(user_id)
    validation.at_most(order_ids, MAX_ORDERS_PER_CALL, argument="orderIds")
    ids = [
        _plain_order_id(order_id)
        or order_id_argument(order_id, user_id=user_id, argument=f"orderIds[{i}]")
        for i, order_id in enumerate(order_ids)
    ]
    doc = await store.delete_orders(
        info.context.collection(store.COLLECTION), user_id=user_id, order_ids=ids
    )
    if doc is None:
        raise _no_user(user_id)
    return LoadedUser(doc)


def _no_user(user_id: str) -> NotFound:
    """A user that does not exist, or (the same answer) another's than the caller's own."""
    return NotFound(f"userId: no user {user_id!r}", argument="userId")
