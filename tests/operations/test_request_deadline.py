"""The deadline on receiving a request is lifted once the request is in, also for one that came
pipelined behind another: its answer may take longer than the deadline (it was armed again as
the first answer ended, and cut the second)."""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from tests.support import live_server
from web.server.protocol import server_protocol

READ_TIMEOUT = 0.3


async def _answer(request: Request) -> PlainTextResponse:
    await asyncio.sleep(float(request.query_params.get("sleep", "0")))
    return PlainTextResponse(request.url.path)


APP = Starlette(routes=[Route("/{name}", _answer)])


async def _exchange(port: int, payload: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(payload)
    await writer.drain()
    answers = b""
    try:
        while answers.count(b"HTTP/1.1 200") < 2:
            chunk = await asyncio.wait_for(reader.read(65536), 5)
            if not chunk:
                break
            answers += chunk
    finally:
        writer.close()
    return answers


async def test_request_deadline_spares_a_slow_answer_to_a_pipelined_request() -> None:
    protocol: Any = server_protocol(read_timeout=READ_TIMEOUT, max_head_bytes=8192)
    async with live_server(APP, http=protocol) as url:
        port = int(url.rsplit(":", 1)[1])
        slow = 4 * READ_TIMEOUT
        answers = await _exchange(
            port,
            b"GET /first HTTP/1.1\r\nHost: x\r\n\r\n"
            + f"GET /second?sleep={slow} HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
        )
    assert answers.count(b"HTTP/1.1 200") == 2, answers
    assert answers.endswith(b"/second")


async def test_request_deadline_still_closes_a_pipelined_request_that_never_ends() -> None:
    protocol: Any = server_protocol(read_timeout=READ_TIMEOUT, max_head_bytes=8192)
    async with live_server(APP, http=protocol) as url:
        port = int(url.rsplit(":", 1)[1])
        answers = await _exchange(
            port,
            b"GET /first HTTP/1.1\r\nHost: x\r\n\r\n"
            + b"POST /second HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc",
        )
    assert answers.count(b"HTTP/1.1 200") == 1, answers  # then closed at the deadline
