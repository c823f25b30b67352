"""A retry of postMessage with a clientMessageId already stored in the session returns the
stored message and stores nothing; without one, identical messages are distinct."""

from __future__ import annotations

import asyncio

from bson import ObjectId

from tests.chat.conftest import CAP
from tests.chat.support import POST, SESSION, assert_page_invariants, create_session, pages, post
from tests.support import Api


async def test_post_message_retry_returns_the_stored_message(api: Api) -> None:
    session_id = await create_session(api)
    first = await post(api, session_id, "hello", client_id="c-1")
    before = await api.snapshot()
    api.clock.set("2031-01-01T00:00:00Z")  # a retry comes later
    again = await post(api, session_id, "hello", client_id="c-1")
    assert again == first  # same id, seq, time
    assert await api.snapshot() == before


async def test_post_message_retry_after_a_rollover_stores_nothing(api: Api) -> None:
    session_id = await create_session(api)
    first = await post(api, session_id, "kept", client_id="early")
    for n in range(2 * CAP):  # two more pages open after the message's own
        await post(api, session_id, f"later {n}")
    before = await api.snapshot()
    assert await post(api, session_id, "kept", client_id="early") == first
    assert await api.snapshot() == before


async def test_post_message_retry_into_a_full_page_stores_nothing(api: Api) -> None:
    session_id = await create_session(api)
    await post(api, session_id, "one")
    await post(api, session_id, "two")
    third = await post(api, session_id, "three", client_id="last-of-page")
    before = await api.snapshot()
    assert await post(api, session_id, "three", client_id="last-of-page") == third
    after = await api.snapshot()
    assert after == before
    [page] = after["chat_pages"]
    assert page["sealed"] is True  # by the post that filled it


async def test_post_message_concurrent_tries_store_one_message(api: Api) -> None:
    session_id = await create_session(api)
    await post(api, session_id, "first")
    variables = {"s": session_id, "a": "ada", "x": "once", "c": "same-try"}
    replies = await asyncio.gather(*(api.data(POST, variables) for _ in range(10)))
    assert len({reply["postMessage"]["id"] for reply in replies}) == 1
    docs = await pages(api.collection("chat_pages"), ObjectId(session_id))
    assert_page_invariants(docs, CAP, 2)
    session = (await api.data(SESSION, {"s": session_id}))["chatSession"]
    assert session["messageCount"] == 2


async def test_post_message_without_client_id_stores_identical_messages_twice(api: Api) -> None:
    session_id = await create_session(api)
    one = await post(api, session_id, "same words")
    two = await post(api, session_id, "same words")
    assert (one["seq"], two["seq"]) == (1, 2)
    assert one["id"] != two["id"]


async def test_post_message_same_client_id_in_two_sessions_is_two_messages(api: Api) -> None:
    first, second = await create_session(api, "a"), await create_session(api, "b")
    one = await post(api, first, "hi", client_id="shared")
    two = await post(api, second, "hi", client_id="shared")
    assert one["id"] != two["id"]
    assert (one["seq"], two["seq"]) == (1, 1)
