"""A message's text keeps tabs and line breaks (a newline, CRLF) and no other control character,
as titles and authors keep none: an escape sequence (`\\x1b[31m`) recolours the terminal or log
viewer that shows it, a lone carriage return rewrites the line it ends. postMessage and
editMessage refuse it, BAD_USER_INPUT naming `text`, nothing written."""

from __future__ import annotations

import pytest

from tests.chat.support import EDIT, POST, create_session, post
from tests.support import Api, assert_rejected

CONTROLLED = {
    "escape sequence": "\x1b[31mred\x1b[0m",
    "bell": "ding\x07",
    "backspace": "abc\x08\x08\x08xyz",
    "lone carriage return": "approved\rdenied",
    "carriage return before a carriage return": "a\r\r\nb",
    "vertical tab": "a\x0bb",
    "form feed": "a\x0cb",
    "unit separator": "a\x1fb",
    "delete": "a\x7fb",
    "C1 control sequence introducer": "\x9b31mred",
    "C1 next line": "a\x85b",
}


@pytest.mark.parametrize("text", CONTROLLED.values(), ids=CONTROLLED.keys())
async def test_post_message_refuses_control_characters_in_text(api: Api, text: str) -> None:
    session_id = await create_session(api)
    variables = {"s": session_id, "a": "ada", "x": text, "c": None}
    await assert_rejected(api, POST, variables, code="BAD_USER_INPUT", argument="text")


@pytest.mark.parametrize("text", CONTROLLED.values(), ids=CONTROLLED.keys())
async def test_edit_message_refuses_control_characters_in_text(api: Api, text: str) -> None:
    session_id = await create_session(api)
    message = await post(api, session_id, "plain")
    variables = {"s": session_id, "m": message["messageId"], "x": text}
    await assert_rejected(api, EDIT, variables, code="BAD_USER_INPUT", argument="text")


async def test_tabs_and_line_breaks_are_the_only_control_characters_kept(api: Api) -> None:
    session_id = await create_session(api)
    kept = "col\tcol\nline\r\nline\n\n\tend"
    assert (await post(api, session_id, kept))["text"] == kept
    variables = {"s": session_id, "a": "ada", "x": kept + "\x1b[0m", "c": None}
    await assert_rejected(api, POST, variables, code="BAD_USER_INPUT", argument="text")
