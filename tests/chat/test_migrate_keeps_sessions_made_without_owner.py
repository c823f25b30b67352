"""A session a service creates without `owner` has no owner for good: `arraygraph migrate`
picks only sessions stored before sessions had members, so a later run never makes the first
author of such a session its owner (who could then remove members and delete it), nor its
authors members (who could then read it)."""

from __future__ import annotations

import json

from store.migrations import migrate
from tests.chat.members import (
    ADD,
    ADMIN,
    INGEST,
    POST,
    POST_AS,
    REMOVE,
    SESSION,
    call,
    member_settings,
    ok,
    user,
)
from tests.support import Api, ApiFactory

CREATE = 'mutation { createChatSession(title: "staff only") { sessionId } }'
DELETE_SESSION = "mutation($s: ID!) { deleteChatSession(id: $s) }"


async def _created_by(api: Api, headers: dict[str, str]) -> str:
    session: str = (await ok(api, CREATE, {}, headers))["createChatSession"]["sessionId"]
    return session


async def test_a_member_of_an_admins_session_never_becomes_its_owner(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session = await _created_by(api, ADMIN)
        for member in ("bo", "ada"):
            await ok(api, ADD, {"s": session, "m": member}, ADMIN)
        await ok(api, POST, {"s": session, "x": "first"}, user("bo"))
        await migrate(api.database)
        before = await api.snapshot()
        for call_ in (
            (REMOVE, {"s": session, "m": "ada"}),
            (DELETE_SESSION, {"s": session}),
        ):
            body = await call(api, *call_, user("bo"))
            assert body["data"] is None, body
            assert [e["extensions"]["code"] for e in body["errors"]] == ["FORBIDDEN"]
        assert await api.snapshot() == before


async def test_authors_a_service_wrote_as_read_nothing_after_a_migration(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session = await _created_by(api, INGEST)
        await ok(api, POST_AS, {"s": session, "a": "eve", "x": "for the staff"}, INGEST)
        await migrate(api.database)
        body = await call(api, SESSION, {"s": session}, user("eve"))
        assert body == {"data": {"chatSession": None}}
        assert "for the staff" not in json.dumps(body)
        members = await api.collection("chat_members").count_documents({})
        assert members == 0
