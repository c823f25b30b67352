"""The engine: mongomock-ng behind the slice of PyMongo's async API that arraygraph's store uses.

`EmbeddedEngine()[db][collection]` is an `EmbeddedCollection` (`embedded.adapter.collection`), whose
commands run one at a time under the engine's lock and are reported to the engine's observer.

The work of a command never holds the event loop: `EmbeddedEngine.run` hands it to the engine's
one worker thread, so commands keep the order they were sent in and run one at a time (the lock
also keeps them apart from the wire front's thread), while the loop goes on serving requests
that need no command (`/healthz`) for as long as a heavy one runs.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from pymongo.errors import OperationFailure

from embedded import mongomock_internals as mongomock
from embedded import rules
from embedded.adapter import client_bulk
from embedded.adapter.database import EmbeddedDatabase
from embedded.examined import ReportedTo
from embedded.expressions import operators
from embedded.planner import expiry, query_operators
from embedded.protocols import (
    CommandCounts,
    CommandObserver,
    DocumentsExamined,
    ExaminationObserver,
)
from embedded.stages import group_stage, match_stage, sort_stage, unwind_stage
from embedded.writes import array_removals, unique_indexes
from embedded.writes.write_path import UpdateApplier

T = TypeVar("T")


class EmbeddedEngine:
    """An in-process MongoDB stand-in; data lives in memory only.

    `observer` is told of each command (`CommandCounts` when none is given), `examined` of the
    documents each examines (`DocumentsExamined` when none is given). Creating the first engine
    teaches mongomock-ng's parser the operators of `embedded.expressions.operators`, its pipelines
    the `$match` of `embedded.stages.match_stage`, the `$unwind` of
    `embedded.stages.unwind_stage` and the `$sort` of `embedded.stages.sort_stage`, its matcher
    and updates BSON's comparisons (`embedded.planner.query_operators`, `$pull` and `$pullAll`
    those of `embedded.writes.array_removals`), and its collections the
    unique-index rules of `embedded.writes.unique_indexes` and the TTL expiry of
    `embedded.planner.expiry`, once per process.
    """

    def __init__(
        self,
        observer: CommandObserver | None = None,
        *,
        examined: ExaminationObserver | None = None,
    ) -> None:
        operators.install()
        query_operators.install()
        match_stage.install()
        unwind_stage.install()
        sort_stage.install()
        group_stage.install()
        unique_indexes.install()
        array_removals.install()
        expiry.install()
        self.observer: CommandObserver = observer if observer is not None else CommandCounts()
        self.examined: ExaminationObserver = (
            examined if examined is not None else DocumentsExamined()
        )
        self.lock = threading.RLock()
        self._client: Any = mongomock.new_client()
        self.updates = UpdateApplier()
        self._databases: dict[str, EmbeddedDatabase] = {}
        self._worker: ThreadPoolExecutor | None = None

    def __getitem__(self, name: str) -> EmbeddedDatabase:
        if name not in self._databases:
            self._databases[name] = EmbeddedDatabase(self, self._client[name])
        return self._databases[name]

    async def run(
        self,
        command: str,
        action: Callable[[], T],
        reply: Callable[[T], object] | None = None,
        *,
        small: Callable[[], bool] | None = None,
    ) -> T:
        """`action` as one command, on the engine's worker thread: under the lock, the observer
        is told of `command`, `action` runs, and the observer is told of `reply(result)` (the
        result itself by default), as one step, as before the loop handed the work off. The
        caller's context variables go along (an observer may count per request).

        A command that `small()` says examines one document at most (a read by key) runs on
        the event loop instead, when no other command holds the lock: its cost is that
        document's, less than handing it to the thread and back (a visible share of a page of
        orders' time); anything larger leaves the loop free while it runs."""
        if small is not None and self.lock.acquire(blocking=False):
            try:
                if small():
                    context = contextvars.copy_context()
                    return context.run(self._command, command, action, reply)
            finally:
                self.lock.release()
        if self._worker is None:
            self._worker = ThreadPoolExecutor(1, thread_name_prefix="embedded-engine")
        context = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._worker, context.run, self._command, command, action, reply
        )

    def _command(
        self, command: str, action: Callable[[], T], reply: Callable[[T], object] | None
    ) -> T:
        with self.lock, ReportedTo(self.examined):
            self.observer.started(command)
            try:
                result = action()
            except OperationFailure as exc:
                if exc.code is not None or type(exc) is not OperationFailure:
                    raise
                # mongomock-ng's refusals carry no code: BadValue, as the wire front answers
                code, message, _ = rules.error_parts(exc)
                raise OperationFailure(message, code, rules.error_reply(code, message)) from None
            self.observer.replied(result if reply is None else reply(result))
        return result

    async def bulk_write(
        self,
        models: Sequence[Any],
        session: Any = None,
        ordered: bool = True,
        verbose_results: bool = False,
        bypass_document_validation: bool | None = None,
        comment: Any = None,
        let: Mapping[str, Any] | None = None,
        write_concern: Any = None,
    ) -> Any:
        """The client's bulkWrite across namespaces (PyMongo's `AsyncMongoClient.bulk_write`),
        as one command (`embedded.adapter.client_bulk`)."""
        return await client_bulk.bulk_write(
            self,
            models,
            ordered=ordered,
            verbose_results=verbose_results,
            bypass_document_validation=bypass_document_validation,
            comment=comment,
            let=let,
            write_concern=write_concern,
        )

    async def close(self) -> None:
        self._databases.clear()
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.shutdown(wait=False)  # a command in flight still finishes
