"""Users examined per request (the engine's counters, as a server's explain counts
`totalDocsExamined`): a user is found by `userId` on its unique index, one document whatever
the number of users, with its page of orders cut inside that document."""

from __future__ import annotations

import pytest

from tests.orders.support import BASE, DELETE, PAGE, UPSERT, order, seed_orders
from tests.support import Api

SIZES = [10, 1_000]


async def _users(api: Api, size: int) -> None:
    """`size` other users with a few orders each, and `target` with 500."""
    orders = [{"_id": str(n), "info": None, "createTime": BASE} for n in range(3)]
    others = [{"userId": f"user{n}", "userType": "C", "orderList": orders} for n in range(size)]
    await api.collection("users").insert_many(others)
    await seed_orders(api, "target", 500)


@pytest.mark.parametrize("size", SIZES)
async def test_user_with_an_orders_page_examines_one_user(api: Api, size: int) -> None:
    await _users(api, size)
    variables = {"userId": "target", "first": 20, "max": "2030-01-01T00:00:00Z"}
    assert await api.examines(PAGE, variables) == {"users": 1}


@pytest.mark.parametrize("size", SIZES)
async def test_users_of_three_ids_examine_the_users_found(api: Api, size: int) -> None:
    await _users(api, size)
    query = '{ users(userIds: ["user1", "target", "nobody"]) { orders(first: 5) { totalCount } } }'
    assert await api.examines(query) == {"users": 2}


@pytest.mark.parametrize("size", SIZES)
async def test_upsert_orders_examines_one_user(api: Api, size: int) -> None:
    await _users(api, size)
    variables = {"userId": "target", "orders": [order("new", 5, "late"), order("o000001", 6)]}
    assert await api.examines(UPSERT, variables) == {"users": 1}


@pytest.mark.parametrize("size", SIZES)
async def test_upsert_orders_of_a_new_user_examines_no_user(api: Api, size: int) -> None:
    await _users(api, size)
    variables = {"userId": "newcomer", "orders": [order("1", 5)]}
    assert await api.examines(UPSERT, variables) == {}


@pytest.mark.parametrize("size", SIZES)
async def test_delete_orders_examines_one_user(api: Api, size: int) -> None:
    await _users(api, size)
    assert await api.examines(DELETE, {"userId": "target", "ids": ["o000001"]}) == {"users": 1}
