"""A member edits and deletes their own messages, and another member's is FORBIDDEN naming
`messageId`, nothing written; the owner edits and deletes any; a non-member is NOT_FOUND."""

from __future__ import annotations

from typing import Any

from tests.chat.members import (
    ADD,
    DELETE,
    EDIT,
    POST,
    call,
    created,
    member_settings,
    ok,
    refusal,
    user,
)
from tests.support import Api, ApiFactory


async def _two_messages(api: Api) -> tuple[str, str, str]:
    """A session of ada's with bo a member, and a message of each: (session, ada's, bo's)."""
    session = await created(api, user("ada"))
    await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
    ada = await ok(api, POST, {"s": session, "x": "by ada"}, user("ada"))
    bo = await ok(api, POST, {"s": session, "x": "by bo"}, user("bo"))
    return session, ada["postMessage"]["messageId"], bo["postMessage"]["messageId"]


def _edit(session: str, message: str) -> dict[str, Any]:
    return {"s": session, "m": message, "x": "edited"}


async def test_a_member_edits_and_deletes_their_own_in_two_commands(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session, _, theirs = await _two_messages(api)
        edited = await ok(api, EDIT, _edit(session, theirs), user("bo"))
        assert edited == {"editMessage": {"text": "edited"}}
        assert dict(api.commands.by_name) == {"find": 1, "findAndModify": 1}
        deleted = await ok(api, DELETE, {"s": session, "m": theirs}, user("bo"))
        assert deleted == {"deleteMessage": {"deleted": True}}


async def test_another_members_message_is_forbidden(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session, owners, _ = await _two_messages(api)
        before = await api.snapshot()
        body = await call(api, EDIT, _edit(session, owners), user("bo"))
        assert refusal(body) == ("FORBIDDEN", "messageId")
        body = await call(api, DELETE, {"s": session, "m": owners}, user("bo"))
        assert refusal(body) == ("FORBIDDEN", "messageId")
        assert await api.snapshot() == before


async def test_the_owner_edits_and_deletes_any(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session, _, members = await _two_messages(api)
        edited = await ok(api, EDIT, _edit(session, members), user("ada"))
        assert edited == {"editMessage": {"text": "edited"}}
        deleted = await ok(api, DELETE, {"s": session, "m": members}, user("ada"))
        assert deleted == {"deleteMessage": {"deleted": True}}


async def test_a_non_member_is_not_found(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session, owners, _ = await _two_messages(api)
        before = await api.snapshot()
        body = await call(api, EDIT, _edit(session, owners), user("cy"))
        assert refusal(body) == ("NOT_FOUND", "sessionId")
        body = await call(api, DELETE, {"s": session, "m": owners}, user("cy"))
        assert refusal(body) == ("NOT_FOUND", "sessionId")
        assert await api.snapshot() == before
