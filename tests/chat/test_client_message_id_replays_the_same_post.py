"""A `clientMessageId` already stored in the session replays that message only to a retry of
the same post (same author, same text): any other post naming it (another member, a service
posting to a session it may not read) is BAD_USER_INPUT naming `clientMessageId`, writes
nothing, and its answer holds nothing of the stored message."""

from __future__ import annotations

import json

from tests.chat.members import ADD, EDIT, INGEST, REMOVE, call, created, member_settings, ok, user
from tests.support import Api, ApiFactory

POST = """mutation($s: ID!, $a: String, $x: String!, $c: String) {
  postMessage(sessionId: $s, author: $a, text: $x, clientMessageId: $c) { ...M } }
fragment M on Message { messageId seq author text }"""
SECRET = "only-for-the-members"


async def _session_with_a_message(api: Api) -> tuple[str, dict[str, object]]:
    session = await created(api, user("ada"))
    await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
    posted = await ok(api, POST, {"s": session, "x": SECRET, "c": "ada-1"}, user("ada"))
    return session, posted["postMessage"]


async def test_a_retry_of_the_same_post_answers_the_stored_message(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session, first = await _session_with_a_message(api)
        before = await api.snapshot()
        again = await ok(api, POST, {"s": session, "x": SECRET, "c": "ada-1"}, user("ada"))
        assert again["postMessage"] == first
        assert await api.snapshot() == before


async def test_a_service_that_reads_no_session_is_not_answered_anothers_message(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session, _ = await _session_with_a_message(api)
        before = await api.snapshot()
        variables = {"s": session, "a": "bridge", "x": "guess", "c": "ada-1"}
        body = await call(api, POST, variables, INGEST)
        assert body["data"] is None, body
        [error] = body["errors"]
        assert error["extensions"] == {"code": "BAD_USER_INPUT", "argument": "clientMessageId"}
        assert SECRET not in json.dumps(body)
        assert await api.snapshot() == before


async def test_another_member_naming_the_id_posts_nothing_and_gets_no_message(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session, _ = await _session_with_a_message(api)
        before = await api.snapshot()
        body = await call(api, POST, {"s": session, "x": "mine", "c": "ada-1"}, user("bo"))
        assert body["data"] is None, body
        [error] = body["errors"]
        assert error["extensions"] == {"code": "BAD_USER_INPUT", "argument": "clientMessageId"}
        assert SECRET not in json.dumps(body)
        assert await api.snapshot() == before


async def test_the_authors_retry_after_an_edit_answers_the_message_as_it_is_now(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session, first = await _session_with_a_message(api)
        edit = {"s": session, "m": first["messageId"], "x": "edited"}
        await ok(api, EDIT, edit, user("ada"))
        before = await api.snapshot()
        again = await ok(api, POST, {"s": session, "x": SECRET, "c": "ada-1"}, user("ada"))
        assert again["postMessage"] == {**first, "text": "edited"}
        assert await api.snapshot() == before


async def test_a_removed_member_naming_the_id_is_answered_as_a_stranger(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session, _ = await _session_with_a_message(api)
        await ok(api, REMOVE, {"s": session, "m": "bo"}, user("ada"))
        body = await call(api, POST, {"s": session, "x": SECRET, "c": "ada-1"}, user("bo"))
        assert body["data"] is None, body
        assert [e["extensions"]["code"] for e in body["errors"]] == ["NOT_FOUND"]
        assert SECRET not in json.dumps(body)
