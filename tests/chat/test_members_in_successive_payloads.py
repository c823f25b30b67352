"""Mutations run one after another, and each payload's `members` is read after its own write:
two `addChatMember` calls in one request answer the members as each left them, never a list a
loader kept from before."""

from __future__ import annotations

from tests.chat.members import created, member_settings, ok, user
from tests.support import ApiFactory

TWO_ADDS = """mutation($s: ID!) {
  first: addChatMember(sessionId: $s, member: "bo") { ...Members }
  second: addChatMember(sessionId: $s, member: "cy") { ...Members }
}
fragment Members on ChatSession { members { totalCount edges { node { member } } } }"""


async def test_each_payload_reads_the_members_its_call_left(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        data = await ok(api, TWO_ADDS, {"s": session}, user("ada"))
        lists = {
            alias: [e["node"]["member"] for e in data[alias]["members"]["edges"]]
            for alias in ("first", "second")
        }
        assert lists == {"first": ["ada", "bo"], "second": ["ada", "bo", "cy"]}
        assert [data[a]["members"]["totalCount"] for a in ("first", "second")] == [2, 3]
