"""A GraphQL client over one keep-alive HTTP/1.1 connection, for the soak, the memory checks and
the costliest requests (with a bearer token, for writes)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import orjson

from bench.load import read_status_and_body


class GraphQLFailure(Exception):
    """An answer that is not a clean success: a status other than 200, or `errors`."""


class GraphQLClient:
    def __init__(self, port: int, *, token: str | None = None) -> None:
        self.port = port
        self._authorization = "" if token is None else f"Authorization: Bearer {token}\r\n"
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def _connection(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._streams is None:
            self._streams = await asyncio.open_connection("127.0.0.1", self.port)
        return self._streams

    def _request(self, body: dict[str, Any]) -> bytes:
        payload = orjson.dumps(body)
        head = (
            f"POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
            f"{self._authorization}\r\n"
        )
        return head.encode() + payload

    async def exchange(self, body: dict[str, Any]) -> tuple[int, bytes]:
        """The status and the body of the answer. A broken connection is dropped, so that the
        next call opens a new one."""
        reader, writer = await self._connection()
        try:
            writer.write(self._request(body))
            return await read_status_and_body(reader)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            await self.close()
            raise

    async def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """The answer's `data`; GraphQLFailure for any other answer."""
        status, raw = await self.exchange(body)
        answer = orjson.loads(raw) if raw else {}
        if status != 200 or answer.get("errors") or not isinstance(answer.get("data"), dict):
            raise GraphQLFailure(f"HTTP {status}: {raw[:300]!r}")
        data: dict[str, Any] = answer["data"]
        return data

    async def call(self, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
        return await self.post({"query": query, "variables": variables or {}})

    async def close(self) -> None:
        if self._streams is not None:
            writer = self._streams[1]
            self._streams = None
            writer.close()
            with contextlib.suppress(OSError):  # the server may have closed its side first
                await writer.wait_closed()
