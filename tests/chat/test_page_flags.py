"""A page's flag for the side it does not read is exact, whatever cursor it is given: a
message lies before a cursor when the session has any, and after it when its number does."""

from __future__ import annotations

from typing import Any

from resolvers.chat.messages import MESSAGE_CURSOR, MessagePosition
from tests.chat.support import MESSAGES, create_session, post
from tests.support import Api


def _cursor(seq: int) -> str:
    return MESSAGE_CURSOR.encode(MessagePosition(seq))


async def _page(api: Api, session_id: str, **arguments: Any) -> dict[str, Any]:
    data = await api.data(MESSAGES, {"s": session_id, **arguments})
    connection: dict[str, Any] = data["chatSession"]["messages"]
    return connection


async def _session_of(api: Api, messages: int) -> str:
    session_id = await create_session(api)
    for n in range(1, messages + 1):
        await post(api, session_id, f"m{n}")
    return session_id


async def test_messages_before_a_cursor_past_the_newest_tell_no_next_page(api: Api) -> None:
    session_id = await _session_of(api, 7)
    for seq in (8, 1_000_000):
        page = await _page(api, session_id, last=2, before=_cursor(seq))
        assert [e["node"]["seq"] for e in page["edges"]] == [6, 7]
        assert page["pageInfo"]["hasNextPage"] is False


async def test_messages_before_a_message_tell_a_next_page(api: Api) -> None:
    session_id = await _session_of(api, 7)
    page = await _page(api, session_id, last=2, before=_cursor(7))
    assert [e["node"]["seq"] for e in page["edges"]] == [5, 6]
    assert page["pageInfo"]["hasNextPage"] is True


async def test_messages_of_an_empty_session_tell_no_page_on_either_side(api: Api) -> None:
    session_id = await _session_of(api, 0)
    after = await _page(api, session_id, first=2, after=_cursor(1))
    before = await _page(api, session_id, last=2, before=_cursor(5))
    assert after["edges"] == before["edges"] == []
    assert after["pageInfo"]["hasPreviousPage"] is False
    assert before["pageInfo"]["hasNextPage"] is False


async def test_messages_after_any_cursor_tell_a_previous_page(api: Api) -> None:
    session_id = await _session_of(api, 3)
    for seq in (1, 3, 50):
        page = await _page(api, session_id, first=2, after=_cursor(seq))
        assert page["pageInfo"]["hasPreviousPage"] is True, seq
