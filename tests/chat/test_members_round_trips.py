"""A page of sessions each selecting `members` reads every session's members in one command
(an aggregate of a bounded branch per session), its `totalCount` in the same command; each
distinct page asked (`first`, `after`...) is one command more, never one per session."""

from __future__ import annotations

from typing import Any

from resolvers.global_ids import global_id
from tests.chat.members import ADD, ADMIN, created, member_settings, ok, user
from tests.support import Api, ApiFactory

SESSIONS = """query { chatSessions(first: 20) { edges { node { ...S } } } }
fragment S on ChatSession {
  title members(first: 2) { totalCount edges { node { member role } } pageInfo { hasNextPage } }
}"""
TWO_PAGES = """query { chatSessions(first: 20) { edges { node {
  title
  few: members(first: 1) { edges { node { member } } }
  more: members(first: 3) { totalCount edges { node { member } } } } } } }"""


async def _ada_owns_twenty_sessions_of_three(api: Api) -> list[str]:
    sessions = []
    for n in range(20):
        sessions.append(await created(api, user("ada"), f"session {n:02}"))
        for name in ("bo", "cy"):
            await ok(api, ADD, {"s": sessions[-1], "m": name}, user("ada"))
    return sessions


def _member_lists(data: dict[str, Any], field: str = "members") -> list[list[str]]:
    nodes = [edge["node"] for edge in data["chatSessions"]["edges"]]
    return [[e["node"]["member"] for e in node[field]["edges"]] for node in nodes]


async def test_an_admins_page_of_sessions_and_their_members_is_two_commands(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        await _ada_owns_twenty_sessions_of_three(api)
        data = await ok(api, SESSIONS, {}, ADMIN)
        assert dict(api.commands.by_name) == {"find": 1, "aggregate": 1}  # sessions, members
        assert _member_lists(data) == [["ada", "bo"]] * 20
        nodes = [edge["node"] for edge in data["chatSessions"]["edges"]]
        assert {
            (n["members"]["totalCount"], n["members"]["pageInfo"]["hasNextPage"]) for n in nodes
        } == {(3, True)}


async def test_a_members_page_of_sessions_and_their_members_is_three_commands(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        await _ada_owns_twenty_sessions_of_three(api)
        data = await ok(api, SESSIONS, {}, user("cy"))
        # Cy's memberships, those sessions, then every session's members.
        assert dict(api.commands.by_name) == {"find": 2, "aggregate": 1}
        assert _member_lists(data) == [["ada", "bo"]] * 20


async def test_each_distinct_page_asked_is_one_command_more(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        await _ada_owns_twenty_sessions_of_three(api)
        data = await ok(api, TWO_PAGES, {}, ADMIN)
        assert dict(api.commands.by_name) == {"find": 1, "aggregate": 2}
        assert _member_lists(data, "few") == [["ada"]] * 20
        assert _member_lists(data, "more") == [["ada", "bo", "cy"]] * 20


NODES = """query($ids: [ID!]!) { nodes(ids: $ids) { ... on ChatSession {
  members(first: 2) { totalCount edges { node { member } } } } } }"""


async def test_nodes_over_twenty_sessions_read_their_members_in_one_command(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        sessions = await _ada_owns_twenty_sessions_of_three(api)
        ids = [global_id("ChatSession", session) for session in sessions]
        data = await ok(api, NODES, {"ids": ids}, user("bo"))
        # Bo's memberships of those sessions, the sessions, then their members.
        assert dict(api.commands.by_name) == {"find": 2, "aggregate": 1}
        assert {node["members"]["totalCount"] for node in data["nodes"]} == {3}
        assert [len(node["members"]["edges"]) for node in data["nodes"]] == [2] * 20


ADD_WITH_MEMBERS = """mutation($s: ID!, $m: String!) { addChatMember(sessionId: $s, member: $m) {
  title members { totalCount edges { node { member } } } } }"""


async def test_add_chat_members_payload_reads_its_members_in_one_command(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        # The owner's membership, the membership added, the session: then its members.
        assert dict(api.commands.by_name) == {"find": 2, "findAndModify": 1}
        data = await ok(api, ADD_WITH_MEMBERS, {"s": session, "m": "cy"}, user("ada"))
        assert dict(api.commands.by_name) == {"find": 2, "findAndModify": 1, "aggregate": 1}
        assert data["addChatMember"]["members"]["totalCount"] == 3
