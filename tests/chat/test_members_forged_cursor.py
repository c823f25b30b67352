"""A cursor `members` did not hand out (forged, malformed, another list's) is BAD_USER_INPUT
naming `after` or `before`, as is a page larger than the largest; in `addChatMember`'s payload,
the call is refused before it writes."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from resolvers.chat.members import MAX_MEMBER_LENGTH
from tests.chat.members import MEMBERS, call, created, member_settings, ok, user
from tests.support import ApiFactory

ADD_WITH_MEMBERS = """mutation($s: ID!, $m: String!, $after: String) {
  addChatMember(sessionId: $s, member: $m) { ...S } }
fragment S on ChatSession { title members(after: $after) { edges { node { member } } } }"""


def _cursor(*values: Any) -> str:
    raw = json.dumps(list(values)).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


FORGED = [
    "not a cursor",
    _cursor("chat-member", 7),
    _cursor("chat-member", "bo", "cy"),
    _cursor("chat-member", ""),
    _cursor("chat-member", "b" * (MAX_MEMBER_LENGTH + 1)),
    _cursor("message", 1),
    _cursor("member-session", "65f000000000000000000000"),
]


def _refusal(body: dict[str, Any]) -> tuple[str, str]:
    [error] = body["errors"]
    return error["extensions"]["code"], error["extensions"]["argument"]


@pytest.mark.parametrize("cursor", FORGED)
async def test_a_cursor_not_handed_out_by_members_is_refused(
    make_api: ApiFactory, cursor: str
) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        # The list's own cursor passes.
        good = await ok(api, MEMBERS, {"s": session, "first": 1}, user("ada"))
        mine = good["chatSession"]["members"]["pageInfo"]["endCursor"]
        await ok(api, MEMBERS, {"s": session, "after": mine}, user("ada"))
        for where in ("after", "before"):
            body = await call(api, MEMBERS, {"s": session, where: cursor}, user("ada"))
            assert _refusal(body) == ("BAD_USER_INPUT", where), body
            assert body["data"] == {"chatSession": None}
            assert "not a cursor of this list" in body["errors"][0]["message"]


async def test_a_page_past_the_largest_is_refused(make_api: ApiFactory) -> None:
    settings = member_settings()
    async with make_api(settings) as api:
        session = await created(api, user("ada"))
        past = settings.max_page_size + 1  # the largest page, as every list's
        body = await call(api, MEMBERS, {"s": session, "first": past}, user("ada"))
        assert _refusal(body) == ("BAD_USER_INPUT", "first")
        body = await call(api, MEMBERS, {"s": session, "last": -1}, user("ada"))
        assert _refusal(body) == ("BAD_USER_INPUT", "last")


async def test_a_forged_cursor_in_a_payload_refuses_the_call_before_it_writes(
    make_api: ApiFactory,
) -> None:
    async with make_api(member_settings()) as api:
        session = await created(api, user("ada"))
        variables = {"s": session, "m": "bo", "after": FORGED[1]}
        body = await call(api, ADD_WITH_MEMBERS, variables, user("ada"))
        assert _refusal(body) == ("BAD_USER_INPUT", "after")
        assert body["data"] is None
        after = await ok(api, MEMBERS, {"s": session}, user("ada"))
        assert [e["node"]["member"] for e in after["chatSession"]["members"]["edges"]] == ["ada"]
