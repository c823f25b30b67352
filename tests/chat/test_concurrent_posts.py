"""Concurrent posts over real HTTP, on one server and on two sharing a database: seq without
gaps or repeats, no page above the cap, no error."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from bson import ObjectId

from app import create_app
from settings import Settings
from store.database import Database
from tests.chat.conftest import CAP
from tests.chat.support import POST, SESSION, assert_page_invariants, create_session, pages
from tests.support import Api, FakeClock, live_server
from tests.support.backends import Backend


async def test_40_concurrent_posts_number_1_to_40_in_14_pages(live_api: Api) -> None:
    session_id = await create_session(live_api)

    async def send(n: int) -> dict[str, Any]:
        body: dict[str, Any] = await live_api.post(
            POST, {"s": session_id, "a": "ada", "x": f"message {n}"}
        )
        return body

    replies = await asyncio.gather(*(send(n) for n in range(40)))
    assert [r for r in replies if "errors" in r] == []
    assert sorted(r["data"]["postMessage"]["seq"] for r in replies) == list(range(1, 41))
    docs = await pages(live_api.collection("chat_pages"), ObjectId(session_id))
    assert_page_invariants(docs, CAP, 40)
    by_seq = {m["seq"]: m["text"] for d in docs for m in d["messages"]}
    assert all(
        by_seq[r["data"]["postMessage"]["seq"]] == r["data"]["postMessage"]["text"] for r in replies
    )
    session = (await live_api.data(SESSION, {"s": session_id}))["chatSession"]
    assert (session["pageCount"], session["messageCount"]) == (14, 40)


async def test_two_server_instances_posting_into_one_session_keep_every_invariant(
    database: Database, backend: Backend, clock: FakeClock
) -> None:
    settings = Settings(messages_per_page=CAP)
    twin = backend.open_twin(database, settings)
    apps = [create_app(settings, clock=clock, database=db) for db in (database, twin)]
    try:
        async with (
            live_server(apps[0]) as first,
            live_server(apps[1]) as second,
            httpx.AsyncClient(base_url=first, timeout=120) as a,
            httpx.AsyncClient(base_url=second, timeout=120) as b,
        ):
            create = 'mutation { createChatSession(title: "two") { sessionId } }'
            created = await a.post("/graphql", json={"query": create})
            session_id = created.json()["data"]["createChatSession"]["sessionId"]

            async def send(n: int) -> dict[str, Any]:
                # A retry is the same post: the same author and text with its client id.
                variables = {"s": session_id, "a": "ada", "x": f"m{n % 30}", "c": f"c{n % 30}"}
                reply = await (a, b)[n % 2].post(
                    "/graphql", json={"query": POST, "variables": variables}
                )
                body: dict[str, Any] = reply.json()
                return body

            replies = await asyncio.gather(*(send(n) for n in range(60)))
    finally:
        await backend.release_twin(twin)
    assert [r for r in replies if "errors" in r] == []
    # 30 client ids, each sent twice (once through each server): 30 messages.
    by_client_id: dict[str, set[int]] = {}
    for n, reply in enumerate(replies):
        by_client_id.setdefault(f"c{n % 30}", set()).add(reply["data"]["postMessage"]["seq"])
    assert all(len(seqs) == 1 for seqs in by_client_id.values())
    docs = await pages(database.collection("chat_pages"), ObjectId(session_id))
    assert_page_invariants(docs, CAP, 30)
    session = await database.collection("chat_sessions").find_one({"_id": ObjectId(session_id)})
    assert (session["messageCount"], session["pageCount"]) == (30, 10)
