"""`createChatSession(owner:)`: a service (ingest, admin) names the new session's owner, who
then lists it and adds members; an end user sending it, even naming themselves, is FORBIDDEN
naming `owner`, nothing written."""

from __future__ import annotations

from tests.chat.members import ADD, INGEST, call, member_settings, ok, refusal, user
from tests.support import ApiFactory

CREATE_FOR = """mutation($t: String!, $o: String) { createChatSession(title: $t, owner: $o) {
  sessionId } }"""
LIST = "{ chatSessions(first: 5) { edges { node { title } } } }"


async def test_a_service_names_the_owner(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        made = await ok(api, CREATE_FOR, {"t": "for ada", "o": "ada"}, INGEST)
        assert dict(api.commands.by_name) == {"insert": 2, "findAndModify": 1}
        session = made["createChatSession"]["sessionId"]
        listed = await ok(api, LIST, {}, user("ada"))
        assert listed == {"chatSessions": {"edges": [{"node": {"title": "for ada"}}]}}
        await ok(api, ADD, {"s": session, "m": "bo"}, user("ada"))


async def test_an_end_user_naming_an_owner_is_forbidden(make_api: ApiFactory) -> None:
    async with make_api(member_settings()) as api:
        before = await api.snapshot()
        for owner in ("bo", "ada"):
            body = await call(api, CREATE_FOR, {"t": "mine", "o": owner}, user("ada"))
            assert refusal(body) == ("FORBIDDEN", "owner")
        assert await api.snapshot() == before
