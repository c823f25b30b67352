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
        for n in range(1, 131):
            await post(api, session_id, f"m{n}")
        in_one = {"s": session_id, "last": 20}  # 111..130: the newest page holds them
        assert await api.round_trips(MESSAGES, in_one) == 2  # the session, then its messages
        assert dict(api.commands.by_name) == {"find": 1, "aggregate": 1}
        across = {"s": session_id, "last": 50}  # 81..130: pages 0 and 1
        assert await api.round_trips(MESSAGES, across) == 2
        data = await api.data(MESSAGES, across)
        seqs = [e["node"]["seq"] for e in data["chatSession"]["messages"]["edges"]]
        assert seqs == list(range(81, 131))


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
