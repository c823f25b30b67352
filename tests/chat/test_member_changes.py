"""`addChatMember` and `removeChatMember` are the owner's (or an admin's): a member who is not
the owner is FORBIDDEN, anyone else NOT_FOUND as for a missing session, nothing written; each
answers the session; the owner is never removed."""

from __future__ import annotations

from tests.chat.members import (
    ADD,
    ADMIN,
    REMOVE,
    SESSION,
    call,
    created,
    member_settings,
    ok,
    refusal,
    user,
)
from tests.support import ApiFactory


async def test_the_owner_adds_a_member_who_then_reads_the_session(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        assert (await ok(api, SESSION, {"s": session}, user("bo")))["chatSession"] is None
        added = await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        assert added == {"addChatMember": {"sessionId": session, "title": "support"}}
        # The owner's membership, the new one, the session.
        assert dict(api.commands.by_name) == {"find": 2, "findAndModify": 1}
        read = await ok(api, SESSION, {"s": session}, user("bo"))
        assert read == {"chatSession": {"title": "support"}}


async def test_the_owner_removes_a_member_who_then_finds_nothing(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        removed = await ok(api, REMOVE, {"s": session, "m": "bo"}, user("ada"))
        assert removed == {"removeChatMember": {"title": "support"}}
        assert dict(api.commands.by_name) == {"find": 2, "delete": 1}
        assert (await ok(api, SESSION, {"s": session}, user("bo")))["chatSession"] is None


async def test_a_member_who_is_not_the_owner_is_forbidden(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        before = await api.snapshot()
        for query, member in ((ADD, "cy"), (REMOVE, "ada")):
            body = await call(api, query, {"s": session, "m": member}, user("bo"))
            assert refusal(body) == ("FORBIDDEN", None)
        delete = "mutation($s: ID!) { deleteChatSession(id: $s) }"
        assert refusal(await call(api, delete, {"s": session}, user("bo")))[0] == "FORBIDDEN"
        assert await api.snapshot() == before


async def test_a_non_member_is_answered_as_for_a_missing_session(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        before = await api.snapshot()
        for query in (ADD, REMOVE):
            body = await call(api, query, {"s": session, "m": "cy"}, user("cy"))
            assert refusal(body) == ("NOT_FOUND", "sessionId")
            missing = "0" * 24
            body = await call(api, query, {"s": missing, "m": "cy"}, ADMIN)
            assert refusal(body) == ("NOT_FOUND", "sessionId")
        assert await api.snapshot() == before


async def test_the_owner_cannot_be_removed(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        before = await api.snapshot()
        for caller in (user("ada"), ADMIN):
            body = await call(api, REMOVE, {"s": session, "m": "ada"}, caller)
            assert refusal(body) == ("BAD_USER_INPUT", "member")
        assert await api.snapshot() == before


async def test_adding_twice_or_removing_a_non_member_changes_nothing(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        await ok(api, ADD, {"s": session, "m": "bo"}, ADMIN)
        before = await api.snapshot()
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))
        removed = await ok(api, REMOVE, {"s": session, "m": "cy"}, ADMIN)
        assert removed == {"removeChatMember": {"title": "support"}}
        assert await api.snapshot() == before
