"""The demo data holds a session of 2,500 messages, read backwards as any other."""

from __future__ import annotations

from settings import Settings
from store.chat import chat_pages, chat_sessions
from store.chat.demo_chat import DEMO_SESSION_ID
from tests.chat.support import MESSAGES
from tests.support import ApiFactory


async def test_demo_session_holds_2500_messages_read_from_the_newest(make_api: ApiFactory) -> None:
    async with make_api(Settings(), demo=(chat_sessions.COLLECTION, chat_pages.COLLECTION)) as api:
        data = await api.data(MESSAGES, {"s": str(DEMO_SESSION_ID), "last": 3})
        session = data["chatSession"]
        assert (session["messageCount"], session["pageCount"]) == (2_500, 5)
        seqs = [e["node"]["seq"] for e in session["messages"]["edges"]]
        assert seqs == [2_498, 2_499, 2_500]
        listed = await api.data("{ chatSessions(first: 1) { edges { node { sessionId } } } }")
        assert listed["chatSessions"]["edges"][0]["node"]["sessionId"] == str(DEMO_SESSION_ID)
        post = 'mutation($s: ID!) { postMessage(sessionId: $s, author: "me", text: "hi") { seq } }'
        assert (await api.data(post, {"s": str(DEMO_SESSION_ID)}))["postMessage"]["seq"] == 2_501
