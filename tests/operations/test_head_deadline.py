"""A request's head (request line and headers) has a deadline of its own,
`ARRAYGRAPH_HEAD_TIMEOUT_S`, counted from the connection opening: a connection that sends
nothing, or dribbles a head, is closed then, not at the whole request's read deadline
(`ARRAYGRAPH_REQUEST_READ_TIMEOUT_S`). The body is not bound by it."""

from __future__ import annotations

import asyncio

from store.database import Database
from tests.operations.served import (
    QUERY,
    close_all,
    closed_by_server,
    query_head,
    served,
    status_of,
)

HEAD_S = 1
READ_S = 60  # far beyond what any test here waits: only the head's deadline can close
WAIT_S = 10


async def test_head_deadline_closes_a_connection_that_sends_nothing_not_a_slow_body(
    database: Database,
) -> None:
    async with served(database, head_timeout_s=HEAD_S, request_read_timeout_s=READ_S) as (
        host,
        port,
    ):
        silent = await asyncio.open_connection(host, port)
        sending = await asyncio.open_connection(host, port)
        sending[1].write(query_head())
        for byte in QUERY[:10]:  # past the head's deadline, the body still coming
            sending[1].write(bytes([byte]))
            await asyncio.sleep(0.25)
        sending[1].write(QUERY[10:])
        answered = await status_of(sending)
        closed = await closed_by_server(silent[0], WAIT_S)
        close_all([silent, sending])
    assert closed
    assert answered == b"HTTP/1.1 200 OK"


async def test_head_deadline_closes_a_connection_that_dribbles_a_head(database: Database) -> None:
    async with served(database, head_timeout_s=HEAD_S, request_read_timeout_s=READ_S) as (
        host,
        port,
    ):
        reader, writer = await asyncio.open_connection(host, port)
        closed = False
        for byte in (b"GET /healthz HTTP/1.1\r\n" + b"X-Pad: p\r\n" * 20)[: WAIT_S * 5]:
            writer.write(bytes([byte]))  # one byte every 0.2 s
            if closed := await closed_by_server(reader, 0.2):
                break
        writer.close()
    assert closed
