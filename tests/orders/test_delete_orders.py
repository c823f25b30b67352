"""deleteOrders: one command; unknown order ids are ignored; an unknown user is NOT_FOUND."""

from __future__ import annotations

from tests.orders.support import DELETE, UPSERT, order, stored_orders
from tests.support import Api, error_codes


async def test_delete_orders_removes_only_known_ids(api: Api) -> None:
    await api.data(UPSERT, {"userId": "u", "orders": [order("1", 1), order("2", 2), order("3", 3)]})
    data = await api.data(DELETE, {"userId": "u", "ids": ["2", "nope"]})
    assert data["deleteOrders"]["orderCount"] == 2
    assert [o["_id"] for o in await stored_orders(api, "u")] == ["3", "1"]


async def test_delete_orders_of_an_unknown_user_is_not_found(api: Api) -> None:
    body = await api.post(DELETE, {"userId": "ghost", "ids": ["1"]})
    assert error_codes(body) == ["NOT_FOUND"]
    assert await api.collection("users").count_documents({}) == 0


async def test_delete_orders_is_one_command(api: Api) -> None:
    await api.data(UPSERT, {"userId": "u", "orders": [order("1", 1)]})
    assert await api.round_trips(DELETE, {"userId": "u", "ids": ["1"]}) == 1
