"""chatSessions pages by activity (most recent first); chatSession reads one; a new session is
active from its creation."""

from __future__ import annotations

from tests.chat.support import CREATE, create_session, post
from tests.support import Api
from tests.support.relay import walk

LIST = """
query($first: Int, $after: String) {
  chatSessions(first: $first, after: $after) {
    totalCount
    edges { cursor node { ...S } }
    pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}
fragment S on ChatSession { id title lastMessageAt messageCount }
"""


async def _titles(api: Api, first: int = 10) -> list[str]:
    data = await api.data(LIST, {"first": first})
    return [e["node"]["title"] for e in data["chatSessions"]["edges"]]


async def test_create_chat_session_starts_empty(api: Api) -> None:
    api.clock.set("2030-01-02T03:04:05.678901Z")
    created = await api.data(
        CREATE.replace("pageCount", "pageCount createdAt lastMessageAt"), {"t": "hello"}
    )
    assert created["createChatSession"]["title"] == "hello"
    assert created["createChatSession"]["createdAt"] == "2030-01-02T03:04:05.678Z"
    assert (
        created["createChatSession"]["messageCount"],
        created["createChatSession"]["pageCount"],
    ) == (0, 0)
    assert created["createChatSession"]["lastMessageAt"] is None


async def test_chat_sessions_lists_the_most_recently_active_first(api: Api) -> None:
    ids = {}
    for n, title in enumerate(["old", "middle", "new"]):
        api.clock.set(f"2030-01-01T00:0{n}:00Z")
        ids[title] = await create_session(api, title)
    assert await _titles(api) == ["new", "middle", "old"]
    api.clock.set("2030-01-01T00:10:00Z")
    await post(api, ids["old"], "wakes up")
    assert await _titles(api) == ["old", "new", "middle"]


async def test_chat_sessions_walk_visits_each_session_once(api: Api) -> None:
    for n in range(7):
        api.clock.set(f"2030-01-01T00:00:0{n % 3}Z")  # ties in activity, broken by id
        await create_session(api, f"s{n}")

    async def fetch(cursor: str | None) -> dict[str, object]:
        connection: dict[str, object] = (await api.data(LIST, {"first": 3, "after": cursor}))[
            "chatSessions"
        ]
        return connection

    nodes = await walk(fetch)
    assert sorted(n["title"] for n in nodes) == [f"s{n}" for n in range(7)]
    assert len(nodes) == 7
    assert (await api.data(LIST, {"first": 1}))["chatSessions"]["totalCount"] == 7


async def test_chat_session_unknown_id_is_null(api: Api) -> None:
    query = "query($s: ID!) { chatSession(id: $s) { id } }"
    assert (await api.data(query, {"s": "65f000000000000000000000"}))["chatSession"] is None
    body = await api.post(query, {"s": "zzz"})
    assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"


async def test_chat_sessions_read_forward_tell_no_previous_page_after_a_cursor(api: Api) -> None:
    # A list read forward only: the spec lets the flag be false, and "a cursor was given" was
    # not exact (a forged cursor may come before every session).
    for n in range(2):
        await create_session(api, f"s{n}")
    first = (await api.data(LIST, {"first": 1}))["chatSessions"]
    rest = (await api.data(LIST, {"first": 1, "after": first["pageInfo"]["endCursor"]}))[
        "chatSessions"
    ]
    assert len(rest["edges"]) == 1
    assert rest["pageInfo"]["hasPreviousPage"] is False
