"""Whether the caller is a member is one read per request, whatever the number of sessions:
`nodes(ids:)` over many sessions reads the caller's memberships once (then the sessions they
may read), and sessions they are no member of answer null."""

from __future__ import annotations

from resolvers.global_ids import global_id
from tests.chat.members import ADD, created, member_settings, ok, user
from tests.support import ApiFactory

NODES = """query($ids: [ID!]!) { nodes(ids: $ids) { ...T } }
fragment T on ChatSession { title }"""


async def test_nodes_over_many_sessions_read_memberships_once(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        mine = [await created(api, user("ada"), f"ada {n}") for n in range(3)]
        shared = await created(api, user("bo"), "bo, shared")
        await ok(api, ADD, {"s": shared, "m": "ada"}, user("bo"))
        others = [await created(api, user("bo"), f"bo {n}") for n in range(2)]
        ids = [global_id("ChatSession", s) for s in [*mine, shared, *others]]
        found = await ok(api, NODES, {"ids": ids}, user("ada"))
        titles = [None if node is None else node["title"] for node in found["nodes"]]
        assert titles == ["ada 0", "ada 1", "ada 2", "bo, shared", None, None]
        assert dict(api.commands.by_name) == {"find": 2}  # memberships, then sessions
