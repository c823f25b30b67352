"""`createChatSession` makes an end user (a JWT) the session's owner and first member: the
session names them, their membership says `owner`, three commands in all. A service's session
without `owner` has none: no membership, two commands."""

from __future__ import annotations

import dataclasses

import jwt
from bson import ObjectId

from settings import Settings
from tests.support import Api, ApiFactory
from tests.support.jwks import bearer, claims, jwt_settings

SECRET = "a-shared-secret-of-at-least-32-bytes!"
SERVICE = "svc-token-for-chat"
CREATE = """
mutation($t: String!) { createChatSession(title: $t) { ...Created } }
fragment Created on ChatSession { sessionId title }
"""


def _settings() -> Settings:
    return dataclasses.replace(jwt_settings(jwt_secret=SECRET), api_tokens=(f"ingest:{SERVICE}",))


async def _create(api: Api, token: str) -> ObjectId:
    api.commands.reset()
    body = await api.post(CREATE, {"t": "support"}, headers=bearer(token))
    assert "errors" not in body, body
    return ObjectId(body["data"]["createChatSession"]["sessionId"])


async def test_an_end_users_session_is_theirs_in_three_commands(make_api: ApiFactory) -> None:
    async with make_api(_settings()) as api:
        session = await _create(api, jwt.encode(claims("ada"), SECRET, algorithm="HS256"))
        assert dict(api.commands.by_name) == {"insert": 2, "findAndModify": 1}
        stored = await api.collection("chat_sessions").find_one({"_id": session})
        assert stored is not None and stored["owner"] == "ada"
        members = await api.collection("chat_members").find({}, {"_id": 0}).to_list()
        assert members == [
            {"member": "ada", "session": session, "role": "owner", "joinedAt": stored["createdAt"]}
        ]


async def test_a_services_session_has_no_owner_in_two_commands(make_api: ApiFactory) -> None:
    async with make_api(_settings()) as api:
        session = await _create(api, SERVICE)
        assert dict(api.commands.by_name) == {"insert": 2}
        stored = await api.collection("chat_sessions").find_one({"_id": session})
        assert stored is not None and stored["owner"] is None
        assert await api.collection("chat_members").count_documents({}) == 0
