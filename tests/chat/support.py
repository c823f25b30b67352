"""GraphQL documents and helpers the chat tests share."""

from __future__ import annotations

from typing import Any

from store.chat import chat_members
from store.database import Database
from store.protocols import AsyncCollection
from tests.support import Api

CREATE = """
mutation($t: String!) { createChatSession(title: $t) { sessionId title messageCount pageCount } }
"""
POST = """
mutation($s: ID!, $a: String!, $x: String!, $c: String) {
  postMessage(sessionId: $s, author: $a, text: $x, clientMessageId: $c) { ...M }
}
fragment M on Message { id messageId seq author text sentAt editedAt deleted }
"""
EDIT = """
mutation($s: ID!, $m: ID!, $x: String!) {
  editMessage(sessionId: $s, messageId: $m, text: $x) { id seq text editedAt deleted }
}
"""
DELETE = """
mutation($s: ID!, $m: ID!) { deleteMessage(sessionId: $s, messageId: $m) { id seq text deleted } }
"""
DELETE_SESSION = "mutation($s: ID!) { deleteChatSession(id: $s) }"
MESSAGES = """
query($s: ID!, $first: Int, $after: String, $last: Int, $before: String) {
  chatSession(id: $s) {
    messageCount pageCount
    messages(first: $first, after: $after, last: $last, before: $before) {
      totalCount
      edges { cursor node { seq text author } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }
}
"""
SESSION = "query($s: ID!) { chatSession(id: $s) { id title messageCount pageCount lastMessageAt } }"


async def create_session(api: Api, title: str = "support") -> str:
    session_id: str = (await api.data(CREATE, {"t": title}))["createChatSession"]["sessionId"]
    return session_id


async def post(
    api: Api, session_id: str, text: str, *, author: str = "ada", client_id: str | None = None
) -> dict[str, Any]:
    variables = {"s": session_id, "a": author, "x": text, "c": client_id}
    message: dict[str, Any] = (await api.data(POST, variables))["postMessage"]
    return message


async def pages(coll: AsyncCollection, session_id: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = await coll.find(
        {"sessionId": session_id}, sort=[("page", 1)]
    ).to_list()
    return found


def assert_page_invariants(docs: list[dict[str, Any]], cap: int, messages: int) -> None:
    """Pages 0..n, each within the cap, `firstSeq` where the page before ended, `seq` 1 to
    `messages` with no gap or repeat, in page order."""
    assert [d["page"] for d in docs] == list(range(len(docs)))
    assert all(d["count"] == len(d["messages"]) <= cap for d in docs)
    expected_first = 1
    for doc in docs:
        assert doc["firstSeq"] == expected_first
        expected_first += doc["count"]
    seqs = [m["seq"] for d in docs for m in d["messages"]]
    assert seqs == list(range(1, messages + 1))


async def members_collection(database: Database) -> AsyncCollection:
    """`chat_members` with its indexes, for tests of the store's functions."""
    await database.create_indexes()
    database.commands.reset()
    return database.collection(chat_members.COLLECTION)
