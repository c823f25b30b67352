"""A user's `orders` page: its arguments, its cursor, and the loader that brings pages along
with their users (one command for every user of a batch with the same page arguments)."""

from __future__ import annotations

from collections.abc import Awaitable, Mapping, Sequence
from datetime import datetime
from typing import Any

from resolvers.context import Info
from resolvers.cursors import CursorCodec, Millis, Text
from resolvers.errors import ApiError
from resolvers.loaders import LoaderSpec, keyed
from resolvers.paging import Page, PageRequest
from resolvers.validation import parse_datetime
from runtime.selection.fields import selected, selects
from runtime.selection.memo import SelectionMemo
from settings import MAX_ORDER_ID_LENGTH
from store.database import Database
from store.orders import users as store
from store.orders.order_pages import OrderPosition, PageArgs
from store.orders.users import OrderDoc, OrderPage, UserWithPage

ORDER_CURSOR = CursorCodec("order", (Millis(), Text(MAX_ORDER_ID_LENGTH)), OrderPosition)
NO_ORDERS = OrderPage(orders=(), total=0, has_next=False, has_previous=False)


async def _users_with_page(
    database: Database, user_ids: Sequence[str], page: PageArgs | None
) -> list[UserWithPage | None]:
    found = await store.load_users(
        database.collection(store.COLLECTION), user_ids=user_ids, page=page
    )
    return keyed(dict(found), user_ids)


# Parameterised by the page arguments: 100 users with the same page are one command.
USERS_WITH_PAGE: LoaderSpec[str, UserWithPage | None] = LoaderSpec(
    "users_with_page", _users_with_page
)


def page_args(request: PageRequest, *, max_create_time: datetime | None, count: bool) -> PageArgs:
    """The store's page request; the same arguments always give an equal key."""
    return PageArgs(
        forward=request.forward,
        size=request.size,
        cursor=request.position(ORDER_CURSOR),
        max_create_time=max_create_time,
        count=count,
    )


def _literal_int(value: Any) -> int | None:
    # Selection arguments hold variables' values as they are, and literals as their source text.
    return None if value is None else int(value)


_PREFETCH = SelectionMemo[PageArgs | None]("orders")


def prefetch_args(info: Info) -> PageArgs | None:
    """The page the first `orders` selection under this field will ask for, so that the
    parent's command can bring it along. None when there is none, or it cannot be known here
    (the field itself then reports any error)."""
    maximum = info.context.settings.max_page_size
    return _PREFETCH.get(info, lambda: _prefetch_args(info, maximum), maximum)


def _prefetch_args(info: Info, maximum: int) -> PageArgs | None:
    found = selected(info, "orders")
    if not found:
        return None
    raw: Mapping[str, Any] = found[0].arguments
    try:
        moment = raw.get("maxCreateTime")
        if moment is not None and not isinstance(moment, datetime):
            moment = parse_datetime(moment)
        request = PageRequest.from_arguments(
            first=_literal_int(raw.get("first")),
            after=raw.get("after"),
            last=_literal_int(raw.get("last")),
            before=raw.get("before"),
            maximum=maximum,
        )
        # Fields of one response key are merged: `totalCount` in any of them is selected.
        key = found[0].alias or found[0].name
        merged = [field for field in found if (field.alias or field.name) == key]
        count = any(field.selects("totalCount") for field in merged)
        return page_args(request, max_create_time=moment, count=count)
    except (ApiError, ValueError, TypeError):
        return None


def user_orders(
    info: Info,
    *,
    user_id: str,
    prefetched: Mapping[PageArgs, OrderPage],
    first: int | None,
    after: str | None,
    last: int | None,
    before: str | None,
    max_create_time: datetime | None,
) -> Page[OrderDoc] | Awaitable[Page[OrderDoc]]:
    """The page: at once when it came with its user (the common case: no coroutine, no await),
    else (another page of the same field, a user read without it) loaded."""
    ctx = info.context
    request = PageRequest.from_arguments(
        first=first, after=after, last=last, before=before, maximum=ctx.settings.max_page_size
    )
    args = page_args(request, max_create_time=max_create_time, count=selects(info, "totalCount"))
    page = prefetched.get(args)
    if page is None:
        return _loaded_page(info, user_id, args)
    return _page_of(page)


async def _loaded_page(info: Info, user_id: str, args: PageArgs) -> Page[OrderDoc]:
    found: UserWithPage | None = await info.context.loader(USERS_WITH_PAGE, args).load(user_id)
    return _page_of(found.page if found is not None and found.page is not None else NO_ORDERS)


def _page_of(page: OrderPage) -> Page[OrderDoc]:
    return Page.of(
        page.orders,
        lambda order: ORDER_CURSOR.encode_pair(order.create_time, order.id),
        has_next=page.has_next,
        has_previous=page.has_previous,
        total=page.total,
    )
