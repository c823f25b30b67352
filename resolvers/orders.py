"""The `orders` connection of a user: arguments, cursors, and the page from a DataLoader."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Protocol

import strawberry

from resolvers.context import Context
from resolvers.cursors import decode_cursor, encode_cursor
from resolvers.errors import ApiError, BadUserInput
from resolvers.validation import page_size
from schema.orders import Order, OrderConnection, OrderEdge
from schema.relay import PageInfo
from schema.scalars import parse_datetime
from settings import DEFAULT_PAGE_SIZE
from store.order_pages import PageArgs
from store.users import OrderDoc, OrderPage

Info = strawberry.Info[Context, None]


class HasOrderPages(Protocol):
    user_id: str
    pages: dict[PageArgs, OrderPage]


def order_cursor(order: OrderDoc) -> str:
    millis = int(order.create_time.timestamp() * 1000)
    return encode_cursor("order", millis, order.id)


def _position(cursor: str, *, argument: str) -> tuple[datetime, str]:
    millis, order_id = decode_cursor(cursor, kind="order", size=2, argument=argument)
    if not isinstance(millis, int) or not isinstance(order_id, str):
        raise BadUserInput(f"{argument}: not a cursor of this list", argument=argument)
    return datetime.fromtimestamp(millis / 1000, tz=UTC), order_id


def page_args(
    *,
    first: int | None,
    after: str | None,
    last: int | None,
    before: str | None,
    max_create_time: datetime | None,
    count: bool,
    maximum: int,
) -> PageArgs:
    """Validated, normalised page arguments; the same request always gives an equal key."""
    if first is not None and last is not None:
        raise BadUserInput("first and last: give one of them, not both", argument="last")
    if after is not None and before is not None:
        raise BadUserInput("after and before: give one of them, not both", argument="before")
    forward = last is None and before is None
    if forward:
        size = page_size(first, default=DEFAULT_PAGE_SIZE, maximum=maximum, argument="first")
        cursor = None if after is None else _position(after, argument="after")
    else:
        if first is not None or after is not None:
            raise BadUserInput("first/after and last/before do not mix", argument="first")
        size = page_size(last, default=DEFAULT_PAGE_SIZE, maximum=maximum, argument="last")
        cursor = None if before is None else _position(before, argument="before")
    return PageArgs(
        forward=forward, size=size, cursor=cursor, max_create_time=max_create_time, count=count
    )


def _selection_names(selections: Any) -> set[str]:
    return {getattr(s, "name", "") for s in selections or ()}


def _literal_int(value: Any) -> int | None:
    # Selection arguments hold variables' values as they are, and literals as their source text.
    return None if value is None else int(value)


def prefetch_args(info: Info) -> PageArgs | None:
    """The page an `orders` selection under this field will ask for, so that the parent's
    command can bring it along. None when there is none, or it cannot be known here."""
    for field in info.selected_fields:
        for selection in field.selections:
            if getattr(selection, "name", None) != "orders":
                continue
            raw: Mapping[str, Any] = getattr(selection, "arguments", {})
            try:
                moment = raw.get("maxCreateTime")
                if moment is not None and not isinstance(moment, datetime):
                    moment = parse_datetime(moment)
                return page_args(
                    first=_literal_int(raw.get("first")),
                    after=raw.get("after"),
                    last=_literal_int(raw.get("last")),
                    before=raw.get("before"),
                    max_create_time=moment,
                    count="totalCount" in _selection_names(getattr(selection, "selections", ())),
                    maximum=info.context.settings.max_page_size,
                )
            except (ApiError, ValueError, TypeError):
                return None  # the field itself reports the error
    return None


def connection(page: OrderPage) -> OrderConnection:
    edges = [OrderEdge(cursor=order_cursor(o), node=Order.from_doc(o)) for o in page.orders]
    return OrderConnection(
        edges=edges,
        page_info=PageInfo.of(
            [e.cursor for e in edges], has_next=page.has_next, has_previous=page.has_previous
        ),
        total_count=page.total or 0,
    )


async def user_orders(
    root: HasOrderPages,
    info: Info,
    first: int | None = None,
    after: str | None = None,
    last: int | None = None,
    before: str | None = None,
    max_create_time: datetime | None = None,
) -> OrderConnection:
    args = page_args(
        first=first,
        after=after,
        last=last,
        before=before,
        max_create_time=max_create_time,
        count="totalCount" in _selection_names(info.selected_fields[0].selections),
        maximum=info.context.settings.max_page_size,
    )
    page = root.pages.get(args)
    if page is None:
        found = await info.context.loaders.user_page.load((root.user_id, args))
        page = found.page if found is not None and found.page is not None else None
    if page is None:  # the user was deleted since it was read
        page = OrderPage(orders=(), total=0, has_next=False, has_previous=False)
    return connection(page)
