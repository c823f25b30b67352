"""`node(id:)` and `nodes(ids:)` apply each Node type's permission to each id: an object the
caller may not read answers exactly as one that does not exist (null), so nothing tells it
apart from an id never used."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolvers.access.permissions import Permission
from resolvers.global_ids import global_id
from tests.permissions.callers import (
    SESSION_MEMBER,
    Caller,
    caller_named,
    hidden_markers,
    known_callers,
    seed,
)
from tests.permissions.calls import QUERIES
from tests.support import ApiFactory

# What reading each seeded object takes, and whose it is.
READ: dict[str, tuple[Permission, str | None]] = {
    "sensor": (Permission.SENSORS_READ, None),
    "session": (Permission.CHAT_READ, "session"),
    "message": (Permission.CHAT_READ, "session"),
    "user A": (Permission.ORDERS_READ, "A"),
    "user B": (Permission.ORDERS_READ, "B"),
    "order A": (Permission.ORDERS_READ, "A"),
    "order B": (Permission.ORDERS_READ, "B"),
    "customer": (Permission.TRADES_READ, None),
    "trade": (Permission.TRADES_READ, None),
    "measurement": (Permission.SERIES_READ, None),
}


def readable(caller: Caller, what: str) -> bool:
    permission, owner = READ[what]
    access = caller.access
    if access.reaches_every(permission):
        return True
    if owner == "session":
        owner = SESSION_MEMBER
    return owner in ("A", "B") and access.is_user(str(owner))


# Every caller holding a read permission: one holding none (ingest, which only writes) is refused
# `nodes` itself, FORBIDDEN, as the matrix (test_permission_matrix.py) checks.
@pytest.mark.parametrize("name", ["reader", "admin", "user A", "user B"])
async def test_nodes_answer_null_where_the_caller_may_not_read(
    make_api: ApiFactory, tmp_path: Path, name: str
) -> None:
    caller = caller_named(name)
    async with make_api(known_callers(tmp_path)) as api:
        seeded = await seed(api)
        call = QUERIES["nodes"]
        body = await api.post(call.document, call.variables(seeded), headers=caller.headers)
        assert "errors" not in body, body
        shown = [node is not None for node in body["data"]["nodes"]]
        assert shown == [readable(caller, what) for what in seeded.ids], body
        assert [m for m in hidden_markers(caller) if m in str(body)] == []


async def test_another_users_order_answers_as_an_order_never_stored(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    user_a = caller_named("user A")
    async with make_api(known_callers(tmp_path)) as api:
        seeded = await seed(api)
        query = "query($id: ID!) { node(id: $id) { id ... on Order { info } } }"
        theirs = await api.post(query, {"id": seeded.ids["order B"]}, headers=user_a.headers)
        never = global_id("Order", "B", "never-stored")
        missing = await api.post(query, {"id": never}, headers=user_a.headers)
        assert theirs == missing == {"data": {"node": None}}
        own = await api.post(query, {"id": seeded.ids["order A"]}, headers=user_a.headers)
        assert own["data"]["node"]["info"] == "Mk-order-A"
