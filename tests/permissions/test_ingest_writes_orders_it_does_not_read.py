"""`ingest` upserts and deletes any user's orders (`orders:write`) and reads none
(`orders:read` is admin's, and a signed-in user's own): a query for a user or its orders is
FORBIDDEN, and the user its call wrote answers it its id alone, so a write that changes nothing
(no order, unknown ids) reads nothing either."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.permissions.callers import caller_named, known_callers, seed
from tests.support import ApiFactory, error_codes

UPSERT = """mutation($o: [OrderInput!]!) { upsertOrders(userId: "B", orders: $o) { userId } }"""
DELETE = """mutation($o: [ID!]!) { deleteOrders(userId: "B", orderIds: $o) { userId } }"""
NEW = [{"id": "new", "createTime": "2024-01-02T00:00:00Z", "info": "from ingest"}]
READS = {
    "user": '{ user(userId: "B") { name } }',
    "users": '{ users(userIds: ["B"]) { name } }',
    "node": "query($id: ID!) { node(id: $id) { ... on Order { info } } }",
}
FIELDS = ("name", "userType", "orderCount", "orders { edges { node { info } } }")


@pytest.mark.parametrize(("write", "variables"), [(UPSERT, NEW), (UPSERT, []), (DELETE, [])])
async def test_ingest_writes_a_users_orders_and_reads_only_its_id(
    make_api: ApiFactory, tmp_path: Path, write: str, variables: list[object]
) -> None:
    ingest = caller_named("ingest")
    async with make_api(known_callers(tmp_path)) as api:
        await seed(api)
        written = await api.post(write, {"o": variables}, headers=ingest.headers)
        assert "errors" not in written, written
        for field in FIELDS:  # the same call, asking for what the user holds
            asked = write.replace("{ userId }", f"{{ userId {field} }}")
            body = await api.post(asked, {"o": variables}, headers=ingest.headers)
            assert error_codes(body) == ["FORBIDDEN"], field
            assert "Mk-" not in str(body), field


async def test_ingest_is_refused_every_read_of_users_and_orders(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    ingest = caller_named("ingest")
    async with make_api(known_callers(tmp_path)) as api:
        seeded = await seed(api)
        for name, query in READS.items():
            body = await api.post(query, {"id": seeded.ids["order B"]}, headers=ingest.headers)
            assert error_codes(body) == ["FORBIDDEN"], name
            assert "Mk-" not in str(body), name
