"""A MongoDB wire-protocol front for an `EmbeddedEngine`, so PyMongo's own client can talk to it.

    server = start_wire_server()            # a new engine, on a free loopback port
    client = AsyncMongoClient(server.uri, tz_aware=True)
    ...
    server.stop()

The front is an asyncio TCP server that speaks what PyMongo 4 sends a MongoDB 8.0 standalone
(`embedded.wire.messages`): the handshake as OP_QUERY, every command as OP_MSG; no compression,
TLS or authentication. It runs in a thread of its own with its own event loop, so clients on any
number of other event loops (pytest-asyncio makes one per test) can use it at once.

The commands (`embedded.wire.commands`) run on the engine's synchronous internals, its read and
write paths, under the engine's lock, not through its async collection API: the API's shape is
PyMongo's client API, not the commands a server receives (multi updates, deletes by limit,
findAndModify's remove), and it reports to the engine's observer, where the front's round trips
are counted by the client's command monitoring instead, as in production. Replies are shaped as
a server shapes them: per-statement write errors, command errors with their code names, cursors
in batches of 101 documents then 16 MiB.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading

import bson

from embedded import rules
from embedded.adapter.engine import EmbeddedEngine
from embedded.protocols import Document
from embedded.wire.commands import Commands
from embedded.wire.messages import (
    HEADER,
    MAX_MESSAGE_BYTES,
    Message,
    ProtocolError,
    Request,
    parse,
    reply,
)

logger = logging.getLogger("embedded.wire")

_STOP_SECONDS = 10.0


def _encode(document: Document) -> bytes:
    try:
        return bson.encode(document)
    except (bson.errors.InvalidDocument, OverflowError) as exc:
        # A stored value BSON cannot carry: the client gets an error, not a broken connection.
        message = f"the reply cannot be encoded as BSON: {exc}"
        return bson.encode(rules.error_reply(rules.INTERNAL_ERROR, message))


class WireServer:
    """A running front: `engine` served on `host:port` until `stop()`."""

    def __init__(self, engine: EmbeddedEngine, host: str, port: int) -> None:
        self.engine = engine
        self.host = host
        self.port = port
        self._commands = Commands(engine)
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._connection_ids = itertools.count(1)
        self._reply_ids = itertools.count(1)
        self._ready = threading.Event()
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._serve, name="embedded-wire", daemon=True)

    @property
    def uri(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"mongodb://{host}:{self.port}/?directConnection=true"

    def start(self) -> None:
        """Returns once the front accepts connections (or raises why it cannot)."""
        self._thread.start()
        self._ready.wait()
        if self._failure is not None:
            raise self._failure

    def stop(self) -> None:
        """Closes every connection and the listening socket, then ends the thread."""
        if not self._thread.is_alive():
            return
        done = asyncio.run_coroutine_threadsafe(self._close(), self._loop)
        done.result(timeout=_STOP_SECONDS)
        # Stopped only now: a loop stopped inside `_close` might never report it done.
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=_STOP_SECONDS)

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            listening = asyncio.start_server(self._connection, self.host, self.port)
            self._server = self._loop.run_until_complete(listening)
            self.port = int(self._server.sockets[0].getsockname()[1])
        except BaseException as exc:  # reported to the starting thread, which raises it
            self._failure = exc
            self._loop.close()
            return
        finally:
            self._ready.set()
        try:
            self._loop.run_forever()
        finally:
            self._loop.close()

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._connections):
            task.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
        connection_id = next(self._connection_ids)
        try:
            while (message := await self._read(reader)) is not None:
                answer = self._answer(message, connection_id)
                if answer is not None:
                    writer.write(answer)
                    await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the client went away
        except asyncio.CancelledError:
            pass  # the front is stopping: the connection ends here, quietly
        except ProtocolError as exc:
            logger.warning("closing a connection to the embedded engine: %s", exc)
        finally:
            if task is not None:
                self._connections.discard(task)
            writer.close()

    @staticmethod
    async def _read(reader: asyncio.StreamReader) -> Message | None:
        header = await reader.read(HEADER.size)
        if not header:
            return None  # closed between messages
        header += await reader.readexactly(HEADER.size - len(header))
        length, request_id, _, opcode = HEADER.unpack(header)
        if not HEADER.size < length <= MAX_MESSAGE_BYTES:
            raise ProtocolError(f"a message of {length} bytes")
        return parse(request_id, opcode, await reader.readexactly(length - HEADER.size))

    def _answer(self, message: Message, connection_id: int) -> bytes | None:
        document = self._commands.run(Request(message.command, connection_id))
        if not message.answer:
            return None
        return reply(message, next(self._reply_ids), _encode(document))


def start_wire_server(
    engine: EmbeddedEngine | None = None, *, host: str = "127.0.0.1", port: int = 0
) -> WireServer:
    """A running front for `engine` (a new one when None); port 0 lets the OS pick a free port.

    Returns once the front accepts connections; `server.uri` is the URI to give PyMongo.
    """
    server = WireServer(engine if engine is not None else EmbeddedEngine(), host, port)
    server.start()
    return server
