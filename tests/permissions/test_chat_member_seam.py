"""Chat's member rule reads the membership store (`resolvers.access.members`): once an admin
adds user A to a session, A reads it, its messages by id, and posts to it (as A); user B, no
member, gets what a missing session answers."""

from __future__ import annotations

from pathlib import Path

from tests.permissions.callers import ADMIN, caller_named, known_callers, seed
from tests.support import ApiFactory, error_codes

READ = (
    "query($s: ID!) { chatSession(id: $s) { title messages(last: 1) { edges { node { text } } } } }"
)
POST = 'mutation($s: ID!) { postMessage(sessionId: $s, text: "hi") { seq author } }'
ADD = "mutation($s: ID!, $m: String!) { addChatMember(sessionId: $s, member: $m) { title } }"


async def test_a_member_reads_and_posts_and_a_non_member_finds_nothing(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    member, stranger = caller_named("user A"), caller_named("user B")
    async with make_api(known_callers(tmp_path)) as api:
        seeded = await seed(api)  # A is a member already
        variables = {"s": seeded.session}
        read = await api.post(READ, variables, headers=member.headers)
        edges = [{"node": {"text": "Mk-message"}}]
        assert read == {"data": {"chatSession": {"title": "Mk-chat", "messages": {"edges": edges}}}}
        node = "query($m: ID!) { node(id: $m) { ... on Message { text } } }"
        message = await api.post(node, {"m": seeded.ids["message"]}, headers=member.headers)
        assert message == {"data": {"node": {"text": "Mk-message"}}}
        assert await api.post(POST, variables, headers=member.headers) == {
            "data": {"postMessage": {"seq": 2, "author": "A"}}
        }
        assert await api.post(READ, variables, headers=stranger.headers) == {
            "data": {"chatSession": None}
        }
        refused = await api.post(POST, variables, headers=stranger.headers)
        assert error_codes(refused) == ["NOT_FOUND"]
        assert refused["errors"][0]["extensions"]["argument"] == "sessionId"
        added = await api.post(ADD, {"s": seeded.session, "m": "B"}, headers=ADMIN)
        assert added == {"data": {"addChatMember": {"title": "Mk-chat"}}}
        read = await api.post(READ, variables, headers=stranger.headers)
        assert read["data"]["chatSession"]["title"] == "Mk-chat"
