"""The demo data holds a session of 2,500 messages, read backwards as any other; the author of
its first message owns it and every author is a member, as `arraygraph migrate` would pick."""

from __future__ import annotations

from settings import Settings
from store.chat import chat_members, chat_pages, chat_sessions
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


async def test_demo_session_is_owned_by_its_first_author_and_its_authors_are_members(
    make_api: ApiFactory,
) -> None:
    chat = (chat_sessions.COLLECTION, chat_pages.COLLECTION, chat_members.COLLECTION)
    async with make_api(Settings(), demo=chat) as api:
        session = await api.collection(chat_sessions.COLLECTION).find_one({"_id": DEMO_SESSION_ID})
        pages = (
            await api.collection(chat_pages.COLLECTION)
            .find({"sessionId": DEMO_SESSION_ID}, sort=[("page", 1)])
            .to_list()
        )
        first_message: dict[str, object] = {}
        for message in (m for page in pages for m in page["messages"]):
            first_message.setdefault(message["author"], message["sentAt"])
        members = await api.collection(chat_members.COLLECTION).find({}).to_list()
        assert session is not None and session["owner"] == pages[0]["messages"][0]["author"]
        assert {m["member"]: (m["role"], m["joinedAt"]) for m in members} == {
            author: ("owner" if author == session["owner"] else "member", sent_at)
            for author, sent_at in first_message.items()
        }
        assert session["createdAt"] == first_message[session["owner"]]
