"""editMessage and deleteMessage: one command each; a deleted message keeps its seq and cannot
be edited."""

from __future__ import annotations

from tests.chat.support import DELETE, EDIT, MESSAGES, create_session, post
from tests.support import Api, assert_rejected


async def test_edit_message_changes_text_and_stamps_edited_at(api: Api) -> None:
    session_id = await create_session(api)
    message = await post(api, session_id, "helo")
    api.clock.set("2030-05-05T10:00:00Z")
    variables = {"s": session_id, "m": message["id"], "x": "hello"}
    assert await api.round_trips(EDIT, variables) == 1
    edited = (await api.data(EDIT, variables))["editMessage"]
    assert edited == {
        "id": message["id"],
        "seq": 1,
        "text": "hello",
        "editedAt": "2030-05-05T10:00:00.000Z",
        "deleted": False,
    }


async def test_edit_message_in_an_older_page_changes_only_that_message(api: Api) -> None:
    session_id = await create_session(api)
    posted = [await post(api, session_id, f"m{n}") for n in range(1, 8)]
    await api.data(EDIT, {"s": session_id, "m": posted[4]["id"], "x": "changed"})
    data = await api.data(MESSAGES, {"s": session_id, "first": 10})
    texts = [e["node"]["text"] for e in data["chatSession"]["messages"]["edges"]]
    assert texts == ["m1", "m2", "m3", "m4", "changed", "m6", "m7"]


async def test_delete_message_leaves_a_tombstone_with_its_seq(api: Api) -> None:
    session_id = await create_session(api)
    await post(api, session_id, "first")
    second = await post(api, session_id, "second")
    variables = {"s": session_id, "m": second["id"]}
    assert await api.round_trips(DELETE, variables) == 1
    again = (await api.data(DELETE, variables))["deleteMessage"]  # idempotent
    assert again == {"id": second["id"], "seq": 2, "text": "", "deleted": True}
    data = await api.data(MESSAGES, {"s": session_id, "last": 5})
    nodes = [e["node"] for e in data["chatSession"]["messages"]["edges"]]
    assert [(n["seq"], n["text"]) for n in nodes] == [(1, "first"), (2, "")]


async def test_edit_message_of_a_deleted_message_is_bad_user_input(api: Api) -> None:
    session_id = await create_session(api)
    message = await post(api, session_id, "gone soon")
    await api.data(DELETE, {"s": session_id, "m": message["id"]})
    await assert_rejected(
        api,
        EDIT,
        {"s": session_id, "m": message["id"], "x": "back"},
        code="BAD_USER_INPUT",
        argument="messageId",
    )


async def test_edit_message_unknown_message_is_not_found(api: Api) -> None:
    session_id = await create_session(api)
    await post(api, session_id, "exists")
    unknown = {"s": session_id, "m": "65f000000000000000000000", "x": "x"}
    await assert_rejected(api, EDIT, unknown, code="NOT_FOUND", argument="messageId")
    await assert_rejected(
        api, DELETE, {"s": session_id, "m": unknown["m"]}, code="NOT_FOUND", argument="messageId"
    )


async def test_edit_message_of_another_session_is_not_found(api: Api) -> None:
    first, second = await create_session(api, "a"), await create_session(api, "b")
    message = await post(api, first, "mine")
    await assert_rejected(
        api,
        EDIT,
        {"s": second, "m": message["messageId"], "x": "x"},
        code="NOT_FOUND",
        argument="messageId",
    )


async def test_edit_message_unknown_session_is_not_found(api: Api) -> None:
    unknown = {"s": "65f000000000000000000000", "m": "65f000000000000000000001", "x": "x"}
    await assert_rejected(api, EDIT, unknown, code="NOT_FOUND", argument="sessionId")
