"""A member posts with the author their identity names; `author` is for the roles that write to
every session (ingest, admin: bridges), refused to an end user as FORBIDDEN naming it, with
nothing written; a service must send it."""

from __future__ import annotations

from tests.chat.members import (
    ADD,
    INGEST,
    POST,
    POST_AS,
    call,
    created,
    member_settings,
    ok,
    refusal,
    user,
)
from tests.support import ApiFactory


async def test_a_member_posts_as_themselves_in_four_commands(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        posted = await ok(api, POST, {"s": session, "x": "hi"}, user("bo"))
        assert posted["postMessage"]["author"] == "bo"
        assert posted["postMessage"]["seq"] == 1
        # The membership, the page, the counters, and the membership again (a racing removal).
        assert dict(api.commands.by_name) == {"find": 2, "findAndModify": 1, "update": 1}


async def test_an_end_user_sending_author_is_forbidden_and_nothing_is_written(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        before = await api.snapshot()
        body = await call(api, POST_AS, {"s": session, "a": "ada", "x": "hi"}, user("ada"))
        assert refusal(body) == ("FORBIDDEN", "author")
        assert await api.snapshot() == before


async def test_ingest_posts_to_any_session_as_any_author_in_two_commands(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        posted = await ok(api, POST_AS, {"s": session, "a": "bridge", "x": "hi"}, INGEST)
        assert posted["postMessage"]["author"] == "bridge"
        assert dict(api.commands.by_name) == {"findAndModify": 1, "update": 1}


async def test_a_service_posting_without_author_is_bad_user_input(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        before = await api.snapshot()
        body = await call(api, POST, {"s": session, "x": "hi"}, INGEST)
        assert refusal(body) == ("BAD_USER_INPUT", "author")
        assert await api.snapshot() == before
