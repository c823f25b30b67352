"""Chat's member rule asks one function, `resolvers.access.members.is_member` (False for every
end user until memberships are stored): a member reads the session, its messages by id, and
posts to it; a non-member gets what a missing session answers. Here a stand-in makes user A
a member, as the membership store will."""

from __future__ import annotations

from pathlib import Path

import pytest
from bson import ObjectId

from resolvers.access import members
from resolvers.context import Context
from resolvers.identity import Identity
from tests.permissions.callers import caller_named, known_callers, seed
from tests.support import ApiFactory, error_codes

READ = (
    "query($s: ID!) { chatSession(id: $s) { title messages(last: 1) { edges { node { text } } } } }"
)
POST = 'mutation($s: ID!) { postMessage(sessionId: $s, author: "A", text: "hi") { seq } }'


async def _a_is_a_member(context: Context, identity: Identity, session_id: ObjectId) -> bool:
    return identity.user_id == "A"


async def test_a_member_reads_and_posts_and_a_non_member_finds_nothing(
    make_api: ApiFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(members, "is_member", _a_is_a_member)
    member, stranger = caller_named("user A"), caller_named("user B")
    async with make_api(known_callers(tmp_path)) as api:
        seeded = await seed(api)
        variables = {"s": seeded.session}
        read = await api.post(READ, variables, headers=member.headers)
        edges = [{"node": {"text": "Mk-message"}}]
        assert read == {"data": {"chatSession": {"title": "Mk-chat", "messages": {"edges": edges}}}}
        node = "query($m: ID!) { node(id: $m) { ... on Message { text } } }"
        message = await api.post(node, {"m": seeded.ids["message"]}, headers=member.headers)
        assert message == {"data": {"node": {"text": "Mk-message"}}}
        assert await api.post(POST, variables, headers=member.headers) == {
            "data": {"postMessage": {"seq": 2}}
        }
        assert await api.post(READ, variables, headers=stranger.headers) == {
            "data": {"chatSession": None}
        }
        refused = await api.post(POST, variables, headers=stranger.headers)
        assert error_codes(refused) == ["NOT_FOUND"]
        assert refused["errors"][0]["extensions"]["argument"] == "sessionId"
