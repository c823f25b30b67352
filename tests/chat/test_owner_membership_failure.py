"""A create whose owner's membership fails to be written: the call answers
SERVICE_UNAVAILABLE, and what stays stored is the session naming its owner, with no membership
and no page; `arraygraph migrate` writes the owner's membership from the session's `owner`
(and a second run changes nothing)."""

from __future__ import annotations

import dataclasses
from typing import Any

import jwt
import pytest
from pymongo.errors import AutoReconnect

from store.chat import chat_members
from store.migrations import migrate
from tests.chat.support import CREATE
from tests.support import ApiFactory, error_codes
from tests.support.jwks import bearer, claims, jwt_settings

SECRET = "a-shared-secret-of-at-least-32-bytes!"


async def test_the_session_stays_naming_its_owner_and_migrate_writes_the_membership(
    make_api: ApiFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def unreachable(coll: Any, **kwargs: Any) -> Any:
        raise AutoReconnect("the database went away")

    settings = dataclasses.replace(jwt_settings(jwt_secret=SECRET), messages_per_page=3)
    async with make_api(settings) as api:
        token = jwt.encode(claims("ada"), SECRET, algorithm="HS256")
        with monkeypatch.context() as patched:
            patched.setattr(chat_members, "add_member", unreachable)
            body = await api.post(CREATE, {"t": "support"}, headers=bearer(token))
        assert error_codes(body) == ["SERVICE_UNAVAILABLE"]
        [session] = await api.collection("chat_sessions").find({}).to_list()
        assert session["owner"] == "ada"
        assert await api.collection("chat_members").count_documents({}) == 0
        assert await api.collection("chat_pages").count_documents({}) == 0
        done = {d.what: d.documents for d in await migrate(api.database)}
        assert (done["chat memberships written"], done["chat sessions given an owner"]) == (1, 0)
        members = await api.collection("chat_members").find({}, {"_id": 0}).to_list()
        assert members == [
            {"member": "ada", "session": session["_id"], "role": "owner",
             "joinedAt": session["createdAt"]}
        ]  # fmt: skip
        again = {d.what: d.documents for d in await migrate(api.database)}
        assert again["chat memberships written"] == 0
