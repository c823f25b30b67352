"""Round trips of chat, counted by the engine or by PyMongo's command monitoring."""

from __future__ import annotations

from settings import Settings
from tests.chat.support import MESSAGES, POST, create_session, post
from tests.support import Api, ApiFactory

SESSIONS_WITH_NEWEST = """
query { chatSessions(first: 20) { edges { node { id messageCount
    messages(last: 1) { edges { node { seq text } } } } } } }
"""


async def test_post_message_into_an_open_page_is_two_commands(api: Api) -> None:
    session_id = await create_session(api)
    variables = {"s": session_id, "a": "ada", "x": "hello", "c": None}
    assert await api.round_trips(POST, variables) == 2
    assert dict(api.commands.by_name) == {"findAndModify": 1, "update": 1}


async def test_post_message_that_opens_a_page_is_three_commands(api: Api) -> None:
    session_id = await create_session(api)
    for n in range(3):
        await post(api, session_id, f"m{n}")
    variables = {"s": session_id, "a": "ada", "x": "fourth", "c": None}
    assert await api.round_trips(POST, variables) == 3  # seal, insert the next page, counters
    assert dict(api.commands.by_name) == {"findAndModify": 1, "insert": 1, "update": 1}


async def test_last_fifty_in_one_page_or_across_two_is_one_command(make_api: ApiFactory) -> None:
    async with make_api(Settings(messages_per_page=100)) as api:
        session_id = await create_session(api)
        for n in range(1, 161):
            await post(api, session_id, f"m{n}")  # page 0: 1..100, page 1: 101..160
        newest = {"s": session_id, "last": 50}  # 111..160 (and 110, to tell more exist)
        assert await api.round_trips(MESSAGES, newest) == 2  # the session, then its messages
        assert dict(api.commands.by_name) == {"find": 1, "aggregate": 1}
        before_121 = await _cursor_of(api, session_id, 121)
        across = {"s": session_id, "last": 50, "before": before_121}  # 71..120: pages 0 and 1
        assert await api.round_trips(MESSAGES, across) == 2
        assert dict(api.commands.by_name) == {"find": 1, "aggregate": 1}
        data = await api.data(MESSAGES, across)
        seqs = [e["node"]["seq"] for e in data["chatSession"]["messages"]["edges"]]
        assert seqs == list(range(71, 121))


async def _cursor_of(api: Api, session_id: str, seq: int) -> str:
    data = await api.data(MESSAGES, {"s": session_id, "first": 1, "after": None})
    cursor: str = data["chatSession"]["messages"]["edges"][0]["cursor"]
    while True:
        page = await api.data(MESSAGES, {"s": session_id, "first": 100, "after": cursor})
        for edge in page["chatSession"]["messages"]["edges"]:
            if edge["node"]["seq"] == seq:
                found: str = edge["cursor"]
                return found
        cursor = page["chatSession"]["messages"]["pageInfo"]["endCursor"]


async def test_message_counts_come_with_the_session_read(api: Api) -> None:
    session_id = await create_session(api)
    await post(api, session_id, "one")
    query = "query($s: ID!) { chatSession(id: $s) { messageCount pageCount title } }"
    assert await api.round_trips(query, {"s": session_id}) == 1


async def test_twenty_sessions_with_their_newest_message_are_two_commands(api: Api) -> None:
    for n in range(20):
        session_id = await create_session(api, f"session {n}")
        await post(api, session_id, f"newest of {n}")
    assert await api.round_trips(SESSIONS_WITH_NEWEST) == 2
    data = await api.data(SESSIONS_WITH_NEWEST)
    newest = [
        e["node"]["messages"]["edges"][0]["node"]["text"] for e in data["chatSessions"]["edges"]
    ]
    assert newest == [f"newest of {n}" for n in reversed(range(20))]
