"""The fuzz's client on the real app: every answer goes through the oracle, a rejected
mutation is checked against a snapshot taken before it, and `/healthz` must still answer.

The client is the tests' own (`httpx.ASGITransport`, lifespan included), except that an
exception escaping the app becomes the 500 a real server would send instead of raising into
the test, so that the oracle sees what a client would.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import httpx

from app import create_app
from settings import Settings
from store.database import Database
from tests.fuzz import oracle
from tests.fuzz.oracle import Answer
from tests.fuzz.strategies import RawRequest
from tests.fuzz.tally import TALLY, root_fields
from tests.support import Api, FakeClock


@dataclass
class Fuzz:
    client: httpx.AsyncClient
    api: Api  # the same client, for seeding and snapshots

    async def request(
        self,
        method: str,
        *,
        content: bytes | str | None = None,
        params: dict[str, str] | None = None,
        content_type: str = "application/json",
    ) -> Answer:
        # Encoded here: httpx refuses a lone surrogate, which a client may well send.
        query = urlencode(params or {}, encoding="utf-8", errors="surrogatepass")
        response = await self.client.request(
            method,
            "/graphql" + (f"?{query}" if query else ""),
            content=content,
            headers={"content-type": content_type, "accept": "application/json"},
        )
        kind = response.headers.get("content-type", "")
        return oracle.parse(response.status_code, kind, response.text)

    async def post(self, payload: dict[str, Any]) -> Answer:
        # json.dumps escapes every non-ASCII character: a lone surrogate travels as "\ud800".
        return await self.request("POST", content=json.dumps(payload))

    async def exercise(
        self, test: str, query: str, variables: dict[str, Any] | None = None, **extra: Any
    ) -> dict[str, Any]:
        """Send one operation and apply the whole oracle to it; the answer's body."""
        kind, roots = root_fields(query)
        payload = {"query": query, "variables": variables or {}, **extra}
        sent = query + json.dumps(payload, ensure_ascii=False)
        guarded = kind == "mutation" and len(roots) == 1
        return await self._checked(test, roots, guarded, sent, lambda: self.post(payload))

    async def exercise_raw(self, test: str, request: RawRequest) -> dict[str, Any]:
        """Send one raw request and apply the whole oracle to it; the answer's body."""
        _, roots = root_fields(request.query) if request.query else ("?", ["(no document)"])
        guarded = request.method == "POST" and "mutation" in request.query and len(roots) == 1

        def send() -> Awaitable[Answer]:
            return self.request(
                request.method,
                content=request.content,
                params=request.params,
                content_type=request.content_type,
            )

        return await self._checked(test, roots, guarded, request.sent, send)

    async def _checked(
        self,
        test: str,
        roots: list[str],
        guarded: bool,
        sent: str,
        send: Callable[[], Awaitable[Answer]],
    ) -> dict[str, Any]:
        """The oracle on one answer; when `guarded` (a mutation of one root field) and it was
        rejected, the data must be as a snapshot taken before it found it."""
        before = await self.api.snapshot() if guarded else None
        answer = await send()
        TALLY.record(test, roots, answer.status, _codes(answer))
        body = oracle.check(answer, sent)
        if before is not None and rejected_whole(body):
            TALLY.snapshots_compared += 1
            after = await self.api.snapshot()
            assert after == before, f"a rejected mutation wrote: {_diff(before, after)}; {body}"
        return body

    async def assert_healthy(self) -> None:
        response = await self.client.get("/healthz")
        assert response.status_code == 200, response.text


def rejected_whole(body: dict[str, Any]) -> bool:
    """Whether a one-field mutation was rejected: no data for its field, and an error of the
    request (no path) or of the mutation field itself (a path of one).

    A mutation that partly succeeds by design (recordSensorEvents rejects events one by one)
    answers data, and is not compared. Nor is a mutation that was applied and whose answer
    then failed in a field selected under it (`createChatSession { messages(before: "x") }`):
    its error's path is longer, and it did write.
    """
    errors = body.get("errors") or []
    data = body.get("data")
    if isinstance(data, dict) and any(value is not None for value in data.values()):
        return False
    return any(len(error.get("path") or []) <= 1 for error in errors)


def _codes(answer: Answer) -> list[str]:
    body = answer.body
    if not isinstance(body, dict) or not isinstance(body.get("errors"), list):
        return [] if answer.status < 400 else [f"(HTTP {answer.status})"]
    return [
        str(error.get("extensions", {}).get("code", "(no code)"))
        if isinstance(error, dict) and isinstance(error.get("extensions"), dict)
        else "(no code)"
        for error in body["errors"]
    ]


def _diff(before: dict[str, list[Any]], after: dict[str, list[Any]]) -> str:
    changed = [
        name for name in sorted(set(before) | set(after)) if before.get(name) != after.get(name)
    ]
    shown = {name: (len(before.get(name, [])), len(after.get(name, []))) for name in changed}
    return f"collections changed (documents before, after): {shown}"


@asynccontextmanager
async def fuzz_client(
    settings: Settings, clock: FakeClock, database: Database
) -> AsyncIterator[Fuzz]:
    app = create_app(settings, clock=clock, database=database)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://testserver", timeout=120
        ) as client:
            yield Fuzz(client=client, api=Api(client=client, database=database, clock=clock))
