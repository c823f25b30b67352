"""The adapter's cursors: a read's documents handed out in a server's batches.

A read runs whole, at once, under the engine's lock; its result is then cut as a server cuts it
(`embedded.adapter.batches`). The first batch came with the command's reply; each further batch is a
`getMore` round trip, so it yields to the event loop and is reported to the engine's observer as
a command of its own, as PyMongo's command monitoring reports it on a real server. Unlike a
server's cursor, the later batches are the state of the collection when the command ran.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

from embedded.protocols import CommandObserver, Document


class BatchCursor:
    """The cursor of a read that ran (`aggregate` returns one): `first` came with the command's
    reply, `batches` are what each `getMore` would bring."""

    def __init__(
        self, observer: CommandObserver, first: list[Document], batches: list[list[Document]]
    ) -> None:
        self._observer = observer
        self._buffer: deque[Document] = deque(first)
        self._batches = deque(batches)

    @property
    def alive(self) -> bool:
        """Whether documents are left, in hand or on the "server" (as PyMongo's cursors say)."""
        return bool(self._buffer or self._batches)

    async def to_list(self, length: int | None = None) -> list[Document]:
        """The documents left (at most `length`), fetching batches as PyMongo would: a
        `getMore` only when the documents in hand are not enough."""
        if length is not None and length < 1:
            raise ValueError("to_list() length must be greater than 0")
        found: list[Document] = []
        while True:
            wanted = len(self._buffer) if length is None else length - len(found)
            found.extend(self._buffer.popleft() for _ in range(min(wanted, len(self._buffer))))
            if (length is not None and len(found) >= length) or not self._batches:
                return found
            await self._get_more()

    async def _get_more(self) -> None:
        await asyncio.sleep(0)  # a round trip lets other requests run, as network I/O does
        batch = self._batches.popleft()
        self._observer.started("getMore")
        self._observer.replied(batch)
        self._buffer.extend(batch)


class EmbeddedCursor:
    """The cursor `find` returns: the command runs when documents are first asked for."""

    def __init__(self, run: Callable[[], Awaitable[BatchCursor]]) -> None:
        self._run = run
        self._cursor: BatchCursor | None = None

    async def to_list(self, length: int | None = None) -> list[Document]:
        if self._cursor is None:
            self._cursor = await self._run()
        return await self._cursor.to_list(length)
