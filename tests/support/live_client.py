"""An httpx client for a live server that holds requests past its connections itself.

httpx's pool (httpcore 1.0) keeps requests waiting for a connection in a list it scans against
every connection on each event: quadratic. 200 calls over 64 connections then cost the client
more CPU than the server, starving the server's loop in the same process until its database
pool times out. Here a request waits for a connection slot before it reaches the pool, so the
pool never queues.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx


class _ReleasingStream(httpx.AsyncByteStream):
    """A response body that gives its connection slot back once closed."""

    def __init__(self, stream: httpx.AsyncByteStream, slots: asyncio.Semaphore) -> None:
        self._stream = stream
        self._slots = slots
        self._released = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._stream:
            yield chunk

    async def aclose(self) -> None:
        try:
            await self._stream.aclose()
        finally:
            if not self._released:
                self._released = True
                self._slots.release()


class SlotTransport(httpx.AsyncBaseTransport):
    """httpx's HTTP transport, with at most `connections` requests in it at once."""

    def __init__(self, connections: int) -> None:
        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        self._transport = httpx.AsyncHTTPTransport(limits=limits)
        self._slots = asyncio.Semaphore(connections)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        # Waiting for a slot is waiting for the pool: its timeout, not a silent hang.
        async with asyncio.timeout(request.extensions.get("timeout", {}).get("pool")):
            await self._slots.acquire()
        try:
            response = await self._transport.handle_async_request(request)
        except BaseException:
            self._slots.release()
            raise
        assert isinstance(response.stream, httpx.AsyncByteStream)
        stream = _ReleasingStream(response.stream, self._slots)
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=stream,
            extensions=response.extensions,
        )

    async def aclose(self) -> None:
        await self._transport.aclose()


def live_client(url: str, *, connections: int = 64, timeout: float = 120) -> httpx.AsyncClient:
    """A client of up to `connections` connections to `url`; more calls at once wait their turn."""
    return httpx.AsyncClient(base_url=url, timeout=timeout, transport=SlotTransport(connections))
