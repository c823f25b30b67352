"""Databases that fail the way real ones do: a socket that accepts and never answers, a port
nobody listens on, and a proxy in front of a working server that can stop answering."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def hanging_server() -> Iterator[int]:
    """A port whose connections are accepted (by the kernel's backlog) and never answered."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    try:
        yield int(listener.getsockname()[1])
    finally:
        listener.close()


def closed_port() -> int:
    """A port that was free a moment ago: connecting to it is refused."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.bind(("127.0.0.1", 0))
    port = int(probe.getsockname()[1])
    probe.close()
    return port


class StallingProxy:
    """Forwards to `target_port` until `stall()`; then keeps every connection open and drops
    what either side sends, as a database that stopped answering does."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.stalled = False
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])

    @property
    def uri(self) -> str:
        return f"mongodb://127.0.0.1:{self.port}/?directConnection=true"

    def stall(self) -> None:
        self.stalled = True

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in self._writers:
            writer.close()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(
            "127.0.0.1", self.target_port
        )
        self._writers += [writer, upstream_writer]
        await asyncio.gather(
            self._pump(reader, upstream_writer),
            self._pump(upstream_reader, writer),
            return_exceptions=True,
        )

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        while data := await source.read(65_536):
            if not self.stalled:
                sink.write(data)
                await sink.drain()
