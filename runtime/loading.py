"""The request's data loader: aiodataloader's `DataLoader`, each batch's dispatch scheduled
without a task of its own.

DataLoader schedules it as a coroutine wrapped in a task (`enqueue_post_future_job`), which
takes the queue two turns of the loop after its first load and starts the batch's task. Two
plain callbacks take it at the same turn, in the same context, so the same loads batch
together, without that coroutine and its task (tests/server/test_request_loader.py). Built per
request and loader: it sets what DataLoader's `__init__` sets for a batch function and the
class's defaults, without `inspect`'s test that the function is a coroutine function (the
caller always gives it one). Those are aiodataloader internals (`_cache`, `_queue`,
`do_resolve_reject`, `Loader`, `dispatch_queue`): runtime/internals.py lists them, and
tests/runtime/test_internals_guard.py fails, naming the release, when one changes.
"""

from __future__ import annotations

from asyncio import Future, get_running_loop
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from aiodataloader import DataLoader, Loader, dispatch_queue

K = TypeVar("K")
V = TypeVar("V")


class RequestLoader(DataLoader[K, V]):
    """One request's loader of one kind: batches its loads, caches what it loaded."""

    def __init__(self, batch_load_fn: Callable[[list[K]], Coroutine[Any, Any, list[V]]]) -> None:
        self.loop = get_running_loop()
        self.batch_load_fn = batch_load_fn
        self.get_cache_key = _same_key
        self._cache: dict[Any, Future[V]] = {}
        self._queue: list[Loader] = []

    def do_resolve_reject(self, key: K, future: Future[V]) -> None:
        self._queue.append(Loader(key=key, future=future))
        if len(self._queue) == 1:  # the queue's first load schedules its dispatch
            if self.batch:
                self.loop.call_soon(self.loop.call_soon, dispatch_queue, self)
            else:
                dispatch_queue(self)


def _same_key(key: Any) -> Any:
    return key
