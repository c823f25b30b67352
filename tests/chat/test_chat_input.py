"""Bad input to chat mutations: BAD_USER_INPUT naming the argument, nothing written."""

from __future__ import annotations

import pytest

from tests.chat.support import CREATE, EDIT, POST, create_session, post
from tests.support import Api, assert_rejected

BAD_POSTS = [
    ({"x": ""}, "text"),
    ({"x": "   \n"}, "text"),
    ({"x": "\u200b\u2060 \ufeff"}, "text"),
    ({"a": "\u200b"}, "author"),
    # Characters that show nothing though they are no space nor format character.
    ({"x": "\ufe0f"}, "text"),
    ({"x": "\u034f \u3164"}, "text"),
    ({"x": "\u2800\u115f\u1160\uffa0"}, "text"),
    ({"a": "\U000e0100"}, "author"),
    ({"x": "x" * 4_001}, "text"),
    ({"x": "nul \x00 inside"}, "text"),
    ({"x": "lone \ud800"}, "text"),
    ({"a": ""}, "author"),
    ({"a": "a" * 101}, "author"),
    ({"a": "line\nbreak"}, "author"),
    ({"c": ""}, "clientMessageId"),
    ({"c": "c" * 65}, "clientMessageId"),
    ({"c": "has space"}, "clientMessageId"),
    ({"c": "{$gt: ''}"}, "clientMessageId"),
    ({"c": "é"}, "clientMessageId"),
    ({"s": "not-an-id"}, "sessionId"),
]


@pytest.mark.parametrize(("changed", "argument"), BAD_POSTS)
async def test_post_message_bad_input_names_the_argument(
    api: Api, changed: dict[str, str], argument: str
) -> None:
    session_id = await create_session(api)
    await post(api, session_id, "before")
    variables = {"s": session_id, "a": "ada", "x": "fine", "c": None, **changed}
    await assert_rejected(api, POST, variables, code="BAD_USER_INPUT", argument=argument)


async def test_post_message_limits_are_inclusive(api: Api) -> None:
    session_id = await create_session(api)
    message = await post(
        api, session_id, "\U0001f600" * 4_000, author="a" * 100, client_id="Az09_-" + "x" * 58
    )
    assert len(message["text"]) == 4_000


async def test_post_message_unknown_session_is_not_found(api: Api) -> None:
    variables = {"s": "65f000000000000000000000", "a": "ada", "x": "hi", "c": None}
    await assert_rejected(api, POST, variables, code="NOT_FOUND", argument="sessionId")


@pytest.mark.parametrize("title", ["", "   ", "t" * 201, "tab\there", "\u200b", "\u202e", "\u3164"])
async def test_create_chat_session_bad_title_is_bad_user_input(api: Api, title: str) -> None:
    await assert_rejected(api, CREATE, {"t": title}, code="BAD_USER_INPUT", argument="title")


async def test_edit_message_empty_text_is_bad_user_input(api: Api) -> None:
    session_id = await create_session(api)
    message = await post(api, session_id, "text")
    variables = {"s": session_id, "m": message["id"], "x": ""}
    await assert_rejected(api, EDIT, variables, code="BAD_USER_INPUT", argument="text")


async def test_messages_forged_cursor_is_bad_user_input(api: Api) -> None:
    session_id = await create_session(api)
    query = """query($s: ID!, $b: String) {
      chatSession(id: $s) { messages(last: 2, before: $b) { edges { cursor } } } }"""
    for forged in ["eyJ4Ijox", "WyJtZXNzYWdlIiwwXQ", "WyJ0cmFkZSIsMSwwXQ", "$gt"]:
        body = await api.post(query, {"s": session_id, "b": forged})
        assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", body
        assert body["errors"][0]["extensions"]["argument"] == "before"
