"""Callers of the chat member tests: end users (HS256 JWTs), an `ingest` and an `admin`
service; and the calls they make, each answering its body and counting its commands."""

from __future__ import annotations

import dataclasses
from typing import Any

import jwt

from settings import Settings
from tests.support import Api
from tests.support.jwks import bearer, claims, jwt_settings

SECRET = "a-shared-secret-of-at-least-32-bytes!"
INGEST = bearer("ingest-token-for-chat")
ADMIN = bearer("admin-token-for-chat")

CREATE = "mutation($t: String!) { createChatSession(title: $t) { sessionId } }"
ADD = """mutation($s: ID!, $m: String!) { addChatMember(sessionId: $s, member: $m) { ...S } }
fragment S on ChatSession { sessionId title }"""
REMOVE = "mutation($s: ID!, $m: String!) { removeChatMember(sessionId: $s, member: $m) { title } }"
POST = """mutation($s: ID!, $x: String!) { postMessage(sessionId: $s, text: $x) { ...M } }
fragment M on Message { messageId seq author text deleted }"""
POST_AS = """mutation($s: ID!, $a: String, $x: String!) {
  postMessage(sessionId: $s, author: $a, text: $x) { messageId seq author text } }"""
EDIT = """mutation($s: ID!, $m: ID!, $x: String!) {
  editMessage(sessionId: $s, messageId: $m, text: $x) { text } }"""
DELETE = "mutation($s: ID!, $m: ID!) { deleteMessage(sessionId: $s, messageId: $m) { deleted } }"
SESSION = "query($s: ID!) { chatSession(id: $s) { title } }"
MEMBERS = """query($s: ID!, $first: Int, $after: String, $last: Int, $before: String) {
  chatSession(id: $s) { members(first: $first, after: $after, last: $last, before: $before) {
    ...Members } } }
fragment Members on ChatMemberConnection {
  edges { cursor node { ...Member } }
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }
fragment Member on ChatMember { member role joinedAt }"""


def member_settings(settings: Settings | None = None) -> Settings:
    """JWTs signed with SECRET, and the two service tokens (besides `settings`' others)."""
    found = jwt_settings(jwt_secret=SECRET)
    tokens = ("ingest:ingest-token-for-chat", "admin:admin-token-for-chat")
    messages_per_page = 3 if settings is None else settings.messages_per_page
    return dataclasses.replace(found, api_tokens=tokens, messages_per_page=messages_per_page)


def user(name: str) -> dict[str, str]:
    """An end user's headers: a JWT without roles."""
    return bearer(jwt.encode(claims(name, lifetime=3600), SECRET, algorithm="HS256"))


async def call(
    api: Api, query: str, variables: dict[str, Any], headers: dict[str, str]
) -> dict[str, Any]:
    """The call's body, the command log counting its commands only."""
    api.commands.reset()
    return await api.post(query, variables, headers=headers)


async def created(api: Api, headers: dict[str, str], title: str = "support") -> str:
    """A new session's id, created by the caller of `headers` (an end user: its owner)."""
    body = await api.post(CREATE, {"t": title}, headers=headers)
    assert "errors" not in body, body
    session_id: str = body["data"]["createChatSession"]["sessionId"]
    return session_id


async def ok(
    api: Api, query: str, variables: dict[str, Any], headers: dict[str, str]
) -> dict[str, Any]:
    """The call's data, asserting it raised no error."""
    body = await call(api, query, variables, headers)
    assert "errors" not in body, body
    data: dict[str, Any] = body["data"]
    return data


def refusal(body: dict[str, Any]) -> tuple[str, str | None]:
    """The one error's code and the argument it names."""
    assert body["data"] is None, body
    [error] = body["errors"]
    extensions = error["extensions"]
    return extensions["code"], extensions.get("argument")
