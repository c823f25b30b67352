"""User queries and the order mutations."""

from __future__ import annotations

import strawberry

from resolvers import validation
from resolvers.context import Context
from resolvers.errors import BadUserInput, LimitExceeded, NotFound
from resolvers.orders import prefetch_args
from schema.orders import OrderInput
from schema.users import User
from settings import (
    MAX_ORDER_ID_LENGTH,
    MAX_ORDER_INFO_LENGTH,
    MAX_ORDERS_PER_CALL,
    MAX_USER_ID_LENGTH,
    MAX_USER_TEXT_LENGTH,
    MAX_USERS_PER_QUERY,
)
from store import users as store
from store.order_pages import PageArgs
from store.users import OrderDoc, OrderLimitExceeded, UserWithPage

Info = strawberry.Info[Context, None]


def _user(found: UserWithPage | None, args: PageArgs | None) -> User | None:
    if found is None:
        return None
    pages = {args: found.page} if args is not None and found.page is not None else {}
    return User.from_doc(found.user, pages)


async def user(info: Info, user_id: str) -> User | None:
    user_id = validation.text(user_id, argument="userId", maximum=MAX_USER_ID_LENGTH)
    args = prefetch_args(info)
    return _user(await info.context.loaders.user_page.load((user_id, args)), args)


async def users(info: Info, user_ids: list[str]) -> list[User | None]:
    if len(user_ids) > MAX_USERS_PER_QUERY:
        raise BadUserInput(
            f"userIds: at most {MAX_USERS_PER_QUERY} ids, got {len(user_ids)}", argument="userIds"
        )
    for index, user_id in enumerate(user_ids):
        validation.text(user_id, argument=f"userIds[{index}]", maximum=MAX_USER_ID_LENGTH)
    args = prefetch_args(info)
    found = await info.context.loaders.user_page.load_many([(u, args) for u in user_ids])
    return [_user(f, args) for f in found]


def _orders(orders: list[OrderInput], *, max_orders: int) -> list[OrderDoc]:
    if len(orders) > MAX_ORDERS_PER_CALL:
        raise BadUserInput(
            f"orders: at most {MAX_ORDERS_PER_CALL} per call, got {len(orders)}",
            argument="orders",
        )
    if len(orders) > max_orders:
        raise LimitExceeded(f"orders: a user holds at most {max_orders} orders", argument="orders")
    seen: dict[str, int] = {}
    validated = []
    for index, order in enumerate(orders):
        where = f"orders[{index}]"
        order_id = validation.text(order.id, argument=f"{where}.id", maximum=MAX_ORDER_ID_LENGTH)
        if order_id in seen:
            raise BadUserInput(
                f"{where}.id: {order_id!r} is also orders[{seen[order_id]}].id",
                argument=f"{where}.id",
            )
        seen[order_id] = index
        if order.info is not None and len(order.info) > MAX_ORDER_INFO_LENGTH:
            raise BadUserInput(
                f"{where}.info: at most {MAX_ORDER_INFO_LENGTH} characters, got {len(order.info)}",
                argument=f"{where}.info",
            )
        validated.append(OrderDoc(id=order_id, create_time=order.create_time, info=order.info))
    return validated


async def upsert_orders(
    info: Info,
    user_id: str,
    user_type: str | None = None,
    name: str | None = None,
    *,
    orders: list[OrderInput],
) -> User:
    ctx = info.context
    user_id = validation.text(user_id, argument="userId", maximum=MAX_USER_ID_LENGTH)
    if user_type is not None:
        validation.text(user_type, argument="userType", maximum=MAX_USER_TEXT_LENGTH)
    if name is not None:
        validation.text(name, argument="name", maximum=MAX_USER_TEXT_LENGTH)
    max_orders = ctx.settings.max_orders_per_user
    validated = _orders(orders, max_orders=max_orders)
    try:
        doc = await store.upsert_orders(
            ctx.database.users,
            user_id=user_id,
            orders=validated,
            user_type=user_type,
            name=name,
            max_orders=max_orders,
        )
    except OrderLimitExceeded as exc:
        raise LimitExceeded(f"orders: {exc}; nothing was written", argument="orders") from None
    return User.from_doc(doc)


async def delete_orders(info: Info, user_id: str, order_ids: list[strawberry.ID]) -> User:
    user_id = validation.text(user_id, argument="userId", maximum=MAX_USER_ID_LENGTH)
    if len(order_ids) > MAX_ORDERS_PER_CALL:
        raise BadUserInput(
            f"orderIds: at most {MAX_ORDERS_PER_CALL} per call, got {len(order_ids)}",
            argument="orderIds",
        )
    doc = await store.delete_orders(
        info.context.database.users, user_id=user_id, order_ids=[str(i) for i in order_ids]
    )
    if doc is None:
        raise NotFound(f"userId: no user {user_id!r}", argument="userId")
    return User.from_doc(doc)
