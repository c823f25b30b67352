"""`ingest` upserts and deletes any user's orders (`orders:write`) and reads none
(`orders:read` is admin's, and a signed-in user's own): the payload answers it the user it
wrote, and a query for that user or its orders is FORBIDDEN."""

from __future__ import annotations

from pathlib import Path

from tests.permissions.callers import caller_named, known_callers, seed
from tests.support import ApiFactory, error_codes

UPSERT = """mutation { upsertOrders(userId: "B", orders: [{id: "new",
    createTime: "2024-01-02T00:00:00Z", info: "from ingest"}]) { orderCount ...Infos } }
fragment Infos on User { orders(first: 5) { edges { node { info } } } }"""
READS = {
    "user": '{ user(userId: "B") { name } }',
    "users": '{ users(userIds: ["B"]) { name } }',
    "node": "query($id: ID!) { node(id: $id) { ... on Order { info } } }",
}


async def test_ingest_writes_a_users_orders_and_reads_them_only_in_the_payload(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    ingest = caller_named("ingest")
    async with make_api(known_callers(tmp_path)) as api:
        seeded = await seed(api)
        written = await api.post(UPSERT, headers=ingest.headers)
        user = written["data"]["upsertOrders"]
        infos = [edge["node"]["info"] for edge in user["orders"]["edges"]]
        assert (user["orderCount"], "from ingest" in infos) == (2, True)
        for name, query in READS.items():
            body = await api.post(query, {"id": seeded.ids["order B"]}, headers=ingest.headers)
            assert error_codes(body) == ["FORBIDDEN"], name
            assert "Mk-" not in str(body), name
