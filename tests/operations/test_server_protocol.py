"""What `arraygraph serve` refuses before the app sees a request, answered as GraphQL: a head
(URL and headers) over its bound is 431 `LIMIT_EXCEEDED` (issue 14: uvicorn read any header
size). The 503 past the cap on requests in flight: tests/operations/test_requests_in_flight.py."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from app import create_app
from settings import Settings
from store.database import Database
from tests.support import live_server
from web.server.protocol import server_protocol

HEAD_LIMIT = 1024
# "/healthz" (8), "host: x" (4 + 1 + 4), "x-pad: <pad>" (5 + pad + 4): 26 bytes besides the pad.
PAD_AT_THE_LIMIT = HEAD_LIMIT - 26


@asynccontextmanager
async def server(database: Database, **options: object) -> AsyncIterator[tuple[str, int]]:
    app = create_app(Settings(), database=database)
    protocol = server_protocol(read_timeout=5.0, max_head_bytes=HEAD_LIMIT)
    async with app.router.lifespan_context(app), live_server(app, http=protocol, **options) as url:
        host, port = url.removeprefix("http://").split(":")
        yield host, int(port)


def request_with_pad(pad: int) -> bytes:
    return b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * pad + b"\r\n\r\n"


async def answer(host: str, port: int, *chunks: bytes) -> tuple[bytes, dict[str, object]]:
    """The status line and JSON body of what the server answers to `chunks`, then closes."""
    reader, writer = await asyncio.open_connection(host, port)
    for chunk in chunks:
        writer.write(chunk)
        await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 5)  # to the end: the server closes
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0], json.loads(body) if body.startswith(b"{") else {}


async def test_server_protocol_answers_a_head_at_its_bound(database: Database) -> None:
    async with server(database) as (host, port):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(request_with_pad(PAD_AT_THE_LIMIT))
        assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"HTTP/1.1 200")
        writer.close()


async def test_server_protocol_refuses_a_head_one_byte_over_its_bound(database: Database) -> None:
    async with server(database) as (host, port):
        status, body = await answer(host, port, request_with_pad(PAD_AT_THE_LIMIT + 1))
    assert status == b"HTTP/1.1 431 Request Header Fields Too Large"
    assert body == {
        "errors": [
            {
                "message": f"the request line and headers are over {HEAD_LIMIT} bytes",
                "extensions": {"code": "LIMIT_EXCEEDED"},
            }
        ]
    }


async def test_server_protocol_refuses_a_head_that_never_ends(database: Database) -> None:
    endless = [b"GET /healthz HTTP/1.1\r\nX-Pad: "] + [b"p" * 512] * 8  # no end of the header
    async with server(database) as (host, port):
        status, body = await answer(host, port, *endless)
    assert status.startswith(b"HTTP/1.1 431")
    assert body["errors"][0]["extensions"] == {"code": "LIMIT_EXCEEDED"}  # type: ignore[index]


async def _read_answer(reader: asyncio.StreamReader) -> bytes:
    """One answer's status line, read whole (its body by its content-length)."""
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )
    await asyncio.wait_for(reader.readexactly(length), 5)
    return head.split(b"\r\n")[0]


async def test_server_protocol_counts_no_body_of_an_early_answer_as_the_next_head(
    database: Database,
) -> None:
    # A PUT is answered 405 before its body is read; the body, four times the head bound,
    # still arrives, and the next request on the connection is answered as any other.
    body = b"a" * (4 * HEAD_LIMIT)
    put = b"PUT /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body)
    async with server(database) as (host, port):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(put)
        first = await _read_answer(reader)
        for start in range(0, len(body), HEAD_LIMIT):  # as a client streams it
            writer.write(body[start : start + HEAD_LIMIT])
            await writer.drain()
            await asyncio.sleep(0.02)
        writer.write(request_with_pad(0))
        second = await _read_answer(reader)
        writer.close()
    assert (first, second) == (b"HTTP/1.1 405 Method Not Allowed", b"HTTP/1.1 200 OK")


async def test_server_protocol_answers_pipelined_requests_whose_body_passes_the_head_bound(
    database: Database,
) -> None:
    # A POST with a body four times the head bound and the start of the next request in one
    # write, the rest of that request in another: two ordinary requests, two answers.
    body = b'{"query": "{ __typename }"}' + b" " * (4 * HEAD_LIMIT)
    post = b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    post += b"Content-Length: %d\r\n\r\n" % len(body) + body
    second = request_with_pad(0)
    async with server(database) as (host, port):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(post + second[:10])
        await writer.drain()
        await asyncio.sleep(0.2)
        writer.write(second[10:])
        answers = (await _read_answer(reader), await _read_answer(reader))
        writer.close()
    assert answers == (b"HTTP/1.1 200 OK", b"HTTP/1.1 200 OK")
