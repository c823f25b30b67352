"""Bounds on a user: orders per user and 16 MiB; a write over either changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from settings import MAX_BSON_DOCUMENT_BYTES, Settings
from tests.orders.support import BASE, DELETE, UPSERT, order, stored_orders
from tests.support import Api, ApiFactory, assert_rejected, error_codes


async def test_upsert_orders_over_max_orders_per_user_is_refused_and_writes_nothing(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings(max_orders_per_user=5)) as api:
        await api.data(
            UPSERT, {"userId": "u", "name": "Ann", "orders": [order(str(i), i) for i in range(4)]}
        )
        before = await api.collection("users").find_one({"userId": "u"})
        body = await api.post(
            UPSERT,
            {
                "userId": "u",
                "name": "Bob",
                "orders": [order("3", 30), order("8", 8), order("9", 9)],
            },
        )
        assert error_codes(body) == ["LIMIT_EXCEEDED"]
        assert body["errors"][0]["extensions"]["argument"] == "orders"
        assert await api.collection("users").find_one({"userId": "u"}) == before


async def test_upsert_orders_replacing_at_the_limit_is_allowed(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings(max_orders_per_user=3)) as api:
        await api.data(UPSERT, {"userId": "u", "orders": [order(str(i), i) for i in range(3)]})
        data = await api.data(UPSERT, {"userId": "u", "orders": [order("1", 10, "new")]})
        assert data["upsertOrders"]["orderCount"] == 3


async def test_upsert_orders_past_16_mib_is_refused_as_a_server_refuses_it(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings(max_orders_per_user=100_000)) as api:
        info = "i" * 1000
        count = MAX_BSON_DOCUMENT_BYTES // 1060  # just under 16 MiB of orders
        big = [
            {"_id": f"o{i:06}", "info": info, "createTime": BASE + timedelta(minutes=i)}
            for i in reversed(range(count))
        ]
        await api.collection("users").insert_one({"userId": "big", "orderList": big})
        before = len(await stored_orders(api, "big"))
        more = [order(f"n{i:03}", 10**6 + i, info) for i in range(100)]
        body = await api.post(UPSERT, {"userId": "big", "orders": more})
        assert error_codes(body) == ["LIMIT_EXCEEDED"]
        assert "16 MiB" in body["errors"][0]["message"]
        assert len(await stored_orders(api, "big")) == before


@pytest.mark.parametrize(
    ("orders", "argument"),
    [
        ([order("same", 1), order("same", 2)], "orders[1].id"),
        ([order("", 1)], "orders[0].id"),
        ([order("x" * 65, 1)], "orders[0].id"),
        ([order("ok", 1, "i" * 1001)], "orders[0].info"),
        ([order(str(i), i) for i in range(501)], "orders"),
    ],
)
async def test_upsert_orders_rejects_bad_orders_and_writes_nothing(
    api: Api, orders: list[dict[str, Any]], argument: str
) -> None:
    await api.data(UPSERT, {"userId": "u", "orders": [order("kept", 1)]})
    variables = {"userId": "u", "orders": orders}
    await assert_rejected(api, UPSERT, variables, code="BAD_USER_INPUT", argument=argument)


async def test_upsert_orders_accepts_ids_of_64_characters(api: Api) -> None:
    data = await api.data(UPSERT, {"userId": "u", "orders": [order("x" * 64, 1)]})
    assert data["upsertOrders"]["orderCount"] == 1


async def test_users_rejects_more_than_100_ids(api: Api) -> None:
    body = await api.post(
        "query($ids: [String!]!) { users(userIds: $ids) { userId } }", {"ids": ["u"] * 101}
    )
    assert error_codes(body) == ["BAD_USER_INPUT"]


@pytest.mark.parametrize("info", ["\u0000", "a\ud800b", "x" * 1001])
async def test_upsert_orders_rejects_info_that_cannot_be_stored(api: Api, info: str) -> None:
    variables = {"userId": "u", "orders": [order("1", 1, info)]}
    await assert_rejected(api, UPSERT, variables, code="BAD_USER_INPUT", argument="orders[0].info")


async def test_upsert_orders_keeps_newlines_and_tabs_in_info(api: Api) -> None:
    await api.data(UPSERT, {"userId": "u", "orders": [order("1", 1, "line\n\tindented")]})
    [stored] = (await api.collection("users").find_one({"userId": "u"}))["orderList"]
    assert stored["info"] == "line\n\tindented"


@pytest.mark.parametrize("order_id", ["", "x" * 65, "a\u0000", "\ud800", "tab\t"])
async def test_delete_orders_rejects_an_id_no_order_can_have(api: Api, order_id: str) -> None:
    await api.data(UPSERT, {"userId": "u", "orders": [order("1", 1)]})
    variables = {"userId": "u", "ids": ["1", order_id]}
    await assert_rejected(api, DELETE, variables, code="BAD_USER_INPUT", argument="orderIds[1]")
