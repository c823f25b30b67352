"""What every command of an `EmbeddedCollection` shares: how it runs, and what it answers.

Each public coroutine of a collection is one command, named as PyMongo names what it sends: it
yields to the event loop once, as a round trip would, then is reported to the engine's observer
and runs without interruption under the engine's lock, on the engine's worker thread
(`EmbeddedEngine.run`), which makes each command atomic for concurrent requests and leaves the
event loop free meanwhile; a read that examines one document at most (by `_id` or a unique key)
runs on the loop instead. What PyMongo refuses before sending is refused before any round trip
(`embedded.adapter.driver`). A write under an unacknowledged write concern (`w: 0`) runs, and
answers nothing: its errors are not seen, as a client that waits for no reply does not see them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from pymongo.errors import OperationFailure

from embedded import rules
from embedded.adapter import driver
from embedded.adapter.batches import FIRST_BATCH_DOCUMENTS, split
from embedded.adapter.cursors import BatchCursor
from embedded.adapter.options import DEFAULT_OPTIONS, Options
from embedded.protocols import Document
from embedded.writes.write_path import Writes

if TYPE_CHECKING:  # the engine creates its collections: a type, not an import, of the engine
    from embedded.adapter.engine import EmbeddedEngine

T = TypeVar("T")
# Commands whose statements' failures a server reports as write errors (findAndModify fails as
# a command): PyMongo raises `WriteError` for them, as it does over the wire front.
_STATEMENT_COMMANDS = frozenset({"insert", "update", "delete"})


def _as_statement(action: Callable[[], T]) -> Callable[[], T]:
    def statement() -> T:
        try:
            return action()
        except OperationFailure as exc:
            if type(exc) is not OperationFailure:  # a WriteError, a DuplicateKeyError...
                raise
            code, message, _ = rules.error_parts(exc)
            raise rules.write_error(code, message) from None

    return statement


class CollectionCommands:
    """A collection's state, and the running of its commands."""

    def __init__(
        self,
        engine: EmbeddedEngine,
        coll: Any,
        options: Options = DEFAULT_OPTIONS,
        writes: Writes | None = None,
    ) -> None:
        self._engine = engine
        self._coll = coll
        self._options = options
        self._writes = writes if writes is not None else Writes(coll, engine.updates)

    @property
    def name(self) -> str:
        return str(self._coll.name)

    @property
    def full_name(self) -> str:
        return str(self._coll.full_name)

    @property
    def database(self) -> Any:
        """The engine's database that holds this collection (an `EmbeddedDatabase`)."""
        return self._engine[str(self._coll.database.name)]

    @property
    def write_concern(self) -> Any:
        return self._options.write_concern

    @property
    def read_concern(self) -> Any:
        return self._options.read_concern

    @property
    def read_preference(self) -> Any:
        return self._options.read_preference

    @property
    def codec_options(self) -> Any:
        return self._options.codec_options

    # The synchronous internals, for a caller that holds `engine.lock` (the wire front).

    @property
    def mongomock_collection(self) -> Any:
        return self._coll

    @property
    def writes(self) -> Writes:
        return self._writes

    async def _run(
        self,
        command: str,
        action: Callable[[], T],
        reply: Callable[[T], object] | None = None,
        sent: Mapping[str, Any] | None = None,
        small: Callable[[], bool] | None = None,
    ) -> T:
        """`action` as one command, run by the engine off the event loop, or on it when
        `small()` (`EmbeddedEngine.run`); the observer is told of `reply(result)` (the result).

        `sent` is the command as PyMongo would send it: what it refuses is refused here too,
        before any round trip (`embedded.adapter.driver`)."""
        if sent is not None:
            driver.check_command(sent)
        await asyncio.sleep(0)  # a round trip lets other requests run, as network I/O does
        return await self._engine.run(command, action, reply, small=small)

    async def _write(
        self, command: str, action: Callable[[], T], sent: Mapping[str, Any] | None = None
    ) -> T | None:
        """A write command under the write concern: its result, or None when unacknowledged
        (the write done, its failure unseen)."""
        if command in _STATEMENT_COMMANDS:
            action = _as_statement(action)
        if self._options.acknowledged:
            return await self._run(command, action, sent=sent)
        with contextlib.suppress(OperationFailure):
            await self._run(command, action, sent=sent)
        return None

    async def _read(
        self,
        sent: Mapping[str, Any],
        action: Callable[[], list[Document]],
        batch_size: int | None,
        single: bool,
        small: Callable[[], bool],
    ) -> BatchCursor:
        """A read, cut into a server's batches: the command's reply brings the first."""

        def run() -> list[list[Document]]:
            first = FIRST_BATCH_DOCUMENTS if batch_size is None else batch_size
            return split(action(), first=first, size=batch_size, single=single)

        command = next(iter(sent))
        batches = await self._run(
            command, run, reply=lambda found: found[0], sent=sent, small=small
        )
        return BatchCursor(self._engine.observer, batches[0], batches[1:])
