"""upsertOrders: replace by id, insert in sorted place, create the user; one atomic command."""

from __future__ import annotations

from tests.orders.support import UPSERT, at, order, stored_orders
from tests.support import Api


async def test_upsert_orders_follows_the_article_scenario(api: Api) -> None:
    first = await api.data(
        UPSERT,
        {
            "userId": "user9",
            "userType": "C",
            "orders": [order("1", 1), order("2", 2), order("3", 3)],
        },
    )
    assert first["upsertOrders"] == {
        "userId": "user9",
        "userType": "C",
        "name": None,
        "orderCount": 3,
    }
    again = await api.data(UPSERT, {"userId": "user9", "orders": [order("2", 2, "new info")]})
    assert again["upsertOrders"]["orderCount"] == 3
    stored = await stored_orders(api, "user9")
    assert [(o["_id"], o.get("info")) for o in stored] == [
        ("3", None),
        ("2", "new info"),
        ("1", None),
    ]


async def test_upsert_orders_moves_a_replaced_order_to_its_new_time(api: Api) -> None:
    await api.data(UPSERT, {"userId": "u", "orders": [order("a", 1), order("b", 2), order("c", 3)]})
    await api.data(UPSERT, {"userId": "u", "orders": [order("a", 5), order("d", 2)]})
    stored = await stored_orders(api, "u")
    assert [o["_id"] for o in stored] == ["a", "c", "d", "b"]  # equal times: larger id first
    assert stored[0]["createTime"].isoformat().startswith(at(5)[:19])


async def test_upsert_orders_stores_dollar_strings_literally(api: Api) -> None:
    values = {"userId": "$userId", "userType": "$$ROOT", "name": "$orderList"}
    orders = [order("$_id", 1, "$$ROOT"), order("$$CURRENT", 2, "$orderList.0")]
    data = await api.data(UPSERT, {**values, "orders": orders})
    assert data["upsertOrders"] == {**values, "orderCount": 2}
    stored = await stored_orders(api, "$userId")
    assert [(o["_id"], o["info"]) for o in stored] == [
        ("$$CURRENT", "$orderList.0"),
        ("$_id", "$$ROOT"),
    ]


async def test_upsert_orders_keeps_fields_not_given(api: Api) -> None:
    await api.data(UPSERT, {"userId": "u", "userType": "A", "name": "Ann", "orders": []})
    data = await api.data(UPSERT, {"userId": "u", "orders": [order("1", 1)]})
    assert data["upsertOrders"] == {"userId": "u", "userType": "A", "name": "Ann", "orderCount": 1}


async def test_upsert_orders_is_one_command(api: Api) -> None:
    await api.data(UPSERT, {"userId": "u", "orders": [order("1", 1)]})
    variables = {"userId": "u", "orders": [order(str(i), i) for i in range(500)]}
    assert await api.round_trips(UPSERT, variables) == 1
