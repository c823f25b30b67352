"""`chatSessions` lists an end user's own sessions only, newest first, paged in the database:
one read of their memberships, one of those sessions; `totalCount` counts theirs. Admin lists
every session."""

from __future__ import annotations

from tests.chat.members import ADD, ADMIN, POST, created, member_settings, ok, user
from tests.support import ApiFactory

LIST = """query($first: Int, $after: String) { chatSessions(first: $first, after: $after) {
  edges { node { ...T } } pageInfo { hasNextPage endCursor } } }
fragment T on ChatSession { title }"""
COUNT = "{ chatSessions(first: 1) { totalCount } }"


def _titles(data: dict[str, object]) -> list[str]:
    page = data["chatSessions"]
    assert isinstance(page, dict)
    return [edge["node"]["title"] for edge in page["edges"]]


async def test_a_user_pages_through_their_own_sessions_newest_first(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        for title in ("one", "two"):
            await created(api, user("ada"), title)
        await created(api, user("bo"), "bo's")
        theirs = await created(api, user("cy"), "cy's, ada a member")
        await ok(api, ADD, {"s": theirs, "m": "ada"}, user("cy"))
        first = await ok(api, LIST, {"first": 2}, user("ada"))
        assert _titles(first) == ["cy's, ada a member", "two"]
        assert dict(api.commands.by_name) == {"find": 2}  # memberships, then those sessions
        after = first["chatSessions"]["pageInfo"]["endCursor"]
        rest = await ok(api, LIST, {"first": 2, "after": after}, user("ada"))
        assert _titles(rest) == ["one"]
        assert rest["chatSessions"]["pageInfo"]["hasNextPage"] is False
        assert first["chatSessions"]["pageInfo"]["hasNextPage"] is True


async def test_own_sessions_with_their_newest_message_are_three_commands(
    make_api: ApiFactory,
) -> None:
    newest = "{ chatSessions(first: 20) { edges { node { messages(last: 1) { ...N } } } } }"
    newest += " fragment N on MessageConnection { edges { node { text } } }"
    async with make_api(member_settings()) as api:
        for n in range(3):
            session = await created(api, user("ada"), f"session {n}")
            await ok(api, POST, {"s": session, "x": f"newest of {n}"}, user("ada"))
        found = await ok(api, newest, {}, user("ada"))
        texts = [
            e["node"]["messages"]["edges"][0]["node"]["text"]
            for e in found["chatSessions"]["edges"]
        ]
        assert texts == ["newest of 2", "newest of 1", "newest of 0"]
        # Memberships, those sessions, their messages: no membership read per session.
        assert dict(api.commands.by_name) == {"find": 2, "aggregate": 1}


async def test_total_count_counts_the_users_sessions_only(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        for title in ("one", "two"):
            await created(api, user("ada"), title)
        await created(api, user("bo"), "bo's")
        counted = await ok(api, COUNT, {}, user("ada"))
        assert counted == {"chatSessions": {"totalCount": 2}}
        assert await ok(api, COUNT, {}, ADMIN) == {"chatSessions": {"totalCount": 3}}


async def test_a_user_without_sessions_lists_none(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        await created(api, user("ada"))
        assert _titles(await ok(api, LIST, {"first": 5}, user("bo"))) == []
        assert _titles(await ok(api, LIST, {"first": 5}, ADMIN)) == ["support"]
