"""A session's members are answered to whoever is answered the session: each member (the
owner and the others), an admin, and a mutation's caller in its payload (`addChatMember`'s,
`createChatSession`'s by a service naming the owner); to anyone else the session is null, and
no member's id appears anywhere in the answer."""

from __future__ import annotations

import json

from resolvers.global_ids import global_id
from tests.chat.members import (
    ADD,
    ADMIN,
    INGEST,
    MEMBERS,
    call,
    created,
    member_settings,
    ok,
    user,
)
from tests.support import ApiFactory

ADD_WITH_MEMBERS = """mutation($s: ID!, $m: String!) {
  addChatMember(sessionId: $s, member: $m) { ...S } }
fragment S on ChatSession { members { totalCount edges { node { member role } } } }"""
CREATE_FOR = """mutation($t: String!, $o: String) { createChatSession(title: $t, owner: $o) {
  members { totalCount edges { node { member role } } } } }"""
NODE = """query($id: ID!) { node(id: $id) { ... on ChatSession {
  members { totalCount edges { node { member } } } } } }"""
LIST = """query { chatSessions { totalCount edges { node {
  members { totalCount edges { node { member } } } } } } }"""


def _names(members: dict[str, list[dict[str, dict[str, str]]]]) -> list[str]:
    return [edge["node"]["member"] for edge in members["edges"]]


async def test_members_are_shown_to_members_admin_and_a_payload(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        added = await ok(api, ADD_WITH_MEMBERS, {"s": session, "m": "bo"}, user("ada"))
        assert added["addChatMember"]["members"] == {
            "totalCount": 2,
            "edges": [
                {"node": {"member": "ada", "role": "OWNER"}},
                {"node": {"member": "bo", "role": "MEMBER"}},
            ],
        }
        by_admin = await ok(api, ADD_WITH_MEMBERS, {"s": session, "m": "cy"}, ADMIN)
        assert _names(by_admin["addChatMember"]["members"]) == ["ada", "bo", "cy"]
        for caller in (user("ada"), user("cy"), ADMIN):
            data = await ok(api, MEMBERS, {"s": session}, caller)
            assert _names(data["chatSession"]["members"]) == ["ada", "bo", "cy"]
        node = await ok(api, NODE, {"id": global_id("ChatSession", session)}, user("bo"))
        assert _names(node["node"]["members"]) == ["ada", "bo", "cy"]


async def test_a_services_created_session_shows_its_owner_in_the_payload(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        data = await ok(api, CREATE_FOR, {"t": "bridged", "o": "ada"}, INGEST)
        members = data["createChatSession"]["members"]
        assert members == {"totalCount": 1, "edges": [{"node": {"member": "ada", "role": "OWNER"}}]}


async def test_a_non_member_never_sees_them(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"), "secret")
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        await created(api, user("zed"), "zed's own")
        answers = [
            await call(api, MEMBERS, {"s": session}, user("zed")),
            await call(api, NODE, {"id": global_id("ChatSession", session)}, user("zed")),
            await call(api, LIST, {}, user("zed")),
        ]
        assert answers[0] == {"data": {"chatSession": None}}
        assert answers[1] == {"data": {"node": None}}
        assert answers[2]["data"]["chatSessions"]["totalCount"] == 1
        [own] = answers[2]["data"]["chatSessions"]["edges"]
        assert own["node"]["members"] == {"totalCount": 1, "edges": [{"node": {"member": "zed"}}]}
        for answer in answers:
            assert '"ada"' not in json.dumps(answer) and '"bo"' not in json.dumps(answer)
