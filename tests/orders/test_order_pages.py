"""The orders connection: newest first, cut in the database, stable keyset cursors."""

from __future__ import annotations

from typing import Any

import pytest

from tests.orders.support import DELETE, PAGE, UPSERT, at, order, seed_orders
from tests.support import Api, error_codes


async def _page(api: Api, **variables: Any) -> dict[str, Any]:
    data = await api.data(PAGE, {"userId": "u", **variables})
    connection: dict[str, Any] = data["user"]["orders"]
    return connection


def _ids(connection: dict[str, Any]) -> list[str]:
    return [edge["node"]["orderId"] for edge in connection["edges"]]


async def test_orders_are_newest_first_and_counted(api: Api) -> None:
    await seed_orders(api, "u", 30)
    page = await _page(api, first=5)
    assert _ids(page) == ["o000029", "o000028", "o000027", "o000026", "o000025"]
    assert page["totalCount"] == 30
    assert page["pageInfo"]["hasNextPage"] is True
    assert page["pageInfo"]["hasPreviousPage"] is False


async def test_orders_max_create_time_keeps_orders_up_to_it(api: Api) -> None:
    await seed_orders(api, "u", 30)
    page = await _page(api, first=3, max=at(10))
    assert _ids(page) == ["o000010", "o000009", "o000008"]
    assert page["totalCount"] == 11
    rest = await _page(api, first=20, after=page["pageInfo"]["endCursor"], max=at(10))
    assert _ids(rest) == [f"o{i:06}" for i in range(7, -1, -1)]
    assert rest["pageInfo"]["hasNextPage"] is False
    assert rest["pageInfo"]["hasPreviousPage"] is True


async def test_orders_default_page_is_20(api: Api) -> None:
    await seed_orders(api, "u", 30)
    assert len(_ids(await _page(api))) == 20


async def test_orders_last_reads_the_oldest_orders(api: Api) -> None:
    await seed_orders(api, "u", 30)
    page = await _page(api, last=3)
    assert _ids(page) == ["o000002", "o000001", "o000000"]
    assert page["pageInfo"]["hasPreviousPage"] is True
    assert page["pageInfo"]["hasNextPage"] is False


async def test_orders_last_before_with_filter(api: Api) -> None:
    await seed_orders(api, "u", 30)
    start = await _page(api, first=1, after=None, max=at(5))
    assert _ids(start) == ["o000005"]
    cursor = (await _page(api, first=1, max=at(2)))["pageInfo"]["endCursor"]  # o000002
    page = await _page(api, last=10, before=cursor, max=at(5))
    assert _ids(page) == ["o000005", "o000004", "o000003"]
    assert page["pageInfo"]["hasPreviousPage"] is False
    assert page["pageInfo"]["hasNextPage"] is True
    assert page["totalCount"] == 6


async def test_orders_page_walk_through_10000_sees_each_order_once_despite_writes(
    api: Api,
) -> None:
    await seed_orders(api, "u", 10_000)
    seen: list[str] = []
    unread_deleted: list[str] = []
    after, pages = None, 0
    while True:
        page = await _page(api, first=100, after=after)
        seen += _ids(page)
        pages += 1
        more = page["pageInfo"]["hasNextPage"]
        if more and pages % 20 == 0:  # between pages: delete a read and an unread order, add one
            unread_deleted.append(f"o{pages:06}")
            await api.data(DELETE, {"userId": "u", "ids": [seen[-50], unread_deleted[-1]]})
            await api.data(UPSERT, {"userId": "u", "orders": [order(f"new{pages}", 10**6 + pages)]})
        if not more:
            break
        after = page["pageInfo"]["endCursor"]
    expected = [f"o{i:06}" for i in range(9_999, -1, -1) if f"o{i:06}" not in unread_deleted]
    assert seen == expected
    assert len(unread_deleted) == 4


async def test_orders_backward_walk_sees_each_order_once(api: Api) -> None:
    await seed_orders(api, "u", 1_000)
    seen: list[str] = []
    before = None
    while True:
        page = await _page(api, last=100, before=before)
        seen = _ids(page) + seen
        if not page["pageInfo"]["hasPreviousPage"]:
            break
        before = page["pageInfo"]["startCursor"]
    assert seen == [f"o{i:06}" for i in range(999, -1, -1)]


async def test_orders_page_reply_is_small(api: Api) -> None:
    await seed_orders(api, "u", 10_000, info="i" * 100)
    api.commands.reset()
    api.commands.count_reply_bytes = True
    page = await _page(api, first=20, max=at(5_000))
    assert len(page["edges"]) == 20
    assert api.commands.count == 1
    assert api.commands.reply_bytes < 20 * 1024


@pytest.mark.parametrize("cursor", ["garbage", "WyJzZW5zb3I6dGl0bGUiLCJhIiwiYiJd", ""])
async def test_orders_rejects_a_malformed_cursor(api: Api, cursor: str) -> None:
    await seed_orders(api, "u", 3)
    body = await api.post(PAGE, {"userId": "u", "after": cursor})
    assert error_codes(body) == ["BAD_USER_INPUT"]


async def test_orders_rejects_first_and_last_together(api: Api) -> None:
    await seed_orders(api, "u", 3)
    body = await api.post(PAGE, {"userId": "u", "first": 1, "last": 1})
    assert error_codes(body) == ["BAD_USER_INPUT"]


async def test_orders_rejects_a_page_over_100(api: Api) -> None:
    await seed_orders(api, "u", 3)
    body = await api.post(PAGE, {"userId": "u", "first": 101})
    assert error_codes(body) == ["BAD_USER_INPUT"]


async def test_orders_backward_walk_sees_each_order_once_despite_writes(api: Api) -> None:
    await seed_orders(api, "u", 1_000)
    seen: list[str] = []
    deleted_unread: list[str] = []
    added: list[str] = []
    before, pages = None, 0
    while True:
        page = await _page(api, last=100, before=before)
        seen = _ids(page) + seen
        pages += 1
        more = page["pageInfo"]["hasPreviousPage"]
        if more and pages % 3 == 0:  # between pages: delete a read and an unread order, add one
            deleted_unread.append(f"o{999 - pages:06}")  # newest orders are read last
            await api.data(DELETE, {"userId": "u", "ids": [seen[50], deleted_unread[-1]]})
            added.append(f"new{pages}")
            await api.data(UPSERT, {"userId": "u", "orders": [order(added[-1], 10**6 + pages)]})
        if not more:
            break
        before = page["pageInfo"]["startCursor"]
    originals = [f"o{i:06}" for i in range(999, -1, -1) if f"o{i:06}" not in deleted_unread]
    assert seen == list(reversed(added)) + originals
    assert len(seen) == len(set(seen))
