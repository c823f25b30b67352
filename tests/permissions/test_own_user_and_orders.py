"""A signed-in end user without a role reads and changes their own user (userId = their id)
and its orders, and nothing else of the users domain: another user's id answers as a user
that does not exist (null; NOT_FOUND for a mutation, writing nothing)."""

from __future__ import annotations

from pathlib import Path

from tests.permissions.callers import caller_named, known_callers, seed
from tests.support import ApiFactory, error_codes

USERS = "query($u: [String!]!) { users(userIds: $u) { userId name } }"
UPSERT = """mutation($u: String!) { upsertOrders(userId: $u, orders: [{id: "n",
    createTime: "2024-02-01T00:00:00Z", info: "mine"}]) { userId orderCount } }"""
DELETE = 'mutation($u: String!) { deleteOrders(userId: $u, orderIds: ["o-B"]) { orderCount } }'


async def test_users_answers_the_callers_own_and_null_for_any_other(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    user_a = caller_named("user A")
    async with make_api(known_callers(tmp_path)) as api:
        await seed(api)
        body = await api.post(USERS, {"u": ["A", "B", "nobody"]}, headers=user_a.headers)
        assert body == {"data": {"users": [{"userId": "A", "name": "Mk-user-A"}, None, None]}}


async def test_a_user_writes_their_own_orders(make_api: ApiFactory, tmp_path: Path) -> None:
    user_a = caller_named("user A")
    async with make_api(known_callers(tmp_path)) as api:
        await seed(api)
        body = await api.post(UPSERT, {"u": "A"}, headers=user_a.headers)
        assert body == {"data": {"upsertOrders": {"userId": "A", "orderCount": 2}}}


async def test_another_users_orders_are_not_found_and_nothing_is_written(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    user_a = caller_named("user A")
    async with make_api(known_callers(tmp_path)) as api:
        await seed(api)
        before = await api.snapshot()
        for document in (UPSERT, DELETE):
            theirs = await api.post(document, {"u": "B"}, headers=user_a.headers)
            assert error_codes(theirs) == ["NOT_FOUND"], theirs
            assert theirs["errors"][0]["message"] == "userId: no user 'B'"
        missing = await api.post(DELETE, {"u": "nobody"}, headers=user_a.headers)
        assert missing["errors"][0]["message"] == "userId: no user 'nobody'"
        assert await api.snapshot() == before
