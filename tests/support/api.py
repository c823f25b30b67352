"""A GraphQL client on the real app, with the database's command log at hand."""

from __future__ import annotations

import json
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from settings import Settings
from store.commands import CommandLog
from store.database import Database
from store.protocols import AsyncCollection
from store.registry import NAMES
from tests.support.clock import FakeClock
from tests.support.examined import Examined, examined_in, require_examined


@dataclass
class Api:
    client: httpx.AsyncClient
    database: Database
    clock: FakeClock

    @property
    def commands(self) -> CommandLog:
        return self.database.commands

    @property
    def examined(self) -> Examined | None:
        """The engine's counters of documents examined; None on a real MongoDB."""
        return examined_in(self.database)

    def collection(self, name: str) -> AsyncCollection:
        return self.database.collection(name)

    async def post(
        self,
        query: str,
        variables: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        # json.dumps escapes every non-ASCII character, so hostile strings (a lone surrogate)
        # travel as JSON escapes, as a client in any language can send them.
        payload = json.dumps({"query": query, "variables": variables or {}})
        response = await self.client.post(
            "/graphql",
            content=payload,
            headers={"content-type": "application/json", **(headers or {})},
        )
        body: dict[str, Any] = response.json()
        return body

    async def data(self, query: str, variables: dict[str, Any] | None = None) -> Any:
        body = await self.post(query, variables)
        assert "errors" not in body, body
        return body["data"]

    async def round_trips(self, query: str, variables: dict[str, Any] | None = None) -> int:
        self.commands.reset()
        await self.data(query, variables)
        return self.commands.count

    async def examines(self, query: str, variables: dict[str, Any] | None = None) -> dict[str, int]:
        """The stored documents the request examines, by collection (collections it examines
        none of left out); skips the test where the backend has no counters."""
        counters = require_examined(self.database)
        counters.reset()
        await self.data(query, variables)
        return counters.by_collection

    async def snapshot(self) -> dict[str, list[dict[str, Any]]]:
        """Every document of every collection, to compare before and after a call."""
        found = {}
        for name in NAMES:
            docs = await self.collection(name).find({}, sort=[("_id", 1)]).to_list()
            found[name] = docs
        return found


class ApiFactory(Protocol):
    """An app with other settings: `async with make_api(settings) as api: ...`; `demo`: on a
    copy of the demo data (or of the demo's collections named); `seed_demo`: started as
    `serve --demo` is, seeding the demo."""

    def __call__(
        self,
        settings: Settings,
        *,
        demo: bool | tuple[str, ...] = False,
        seed_demo: bool = False,
        database: Database | None = None,
    ) -> AbstractAsyncContextManager[Api]: ...


def error_codes(body: dict[str, Any]) -> list[str]:
    return [error["extensions"]["code"] for error in body.get("errors", [])]


async def assert_rejected(
    api: Api,
    query: str,
    variables: dict[str, Any] | None = None,
    *,
    code: str,
    argument: str | None = None,
) -> dict[str, Any]:
    """The call fails with one error of `code` (naming `argument`), and writes nothing."""
    before = await api.snapshot()
    body = await api.post(query, variables)
    assert error_codes(body) == [code], body
    if argument is not None:
        assert body["errors"][0]["extensions"]["argument"] == argument, body
        assert argument in body["errors"][0]["message"], body
    assert await api.snapshot() == before
    return body
