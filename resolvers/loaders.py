"""DataLoaders by declaration: a domain declares its loaders beside its resolvers.

A `LoaderSpec` names one batch function: given the database and the keys of one batch, it sends
one command and answers in key order. The per-request `Context` builds each loader on first use
(`context.loader(SPEC)`), so a new domain registers nothing anywhere. A spec may take parameters
(`context.loader(SPEC, page)`): each distinct parameter gets its own loader, so every batch is
still one command.
"""

from __future__ import annotations

from asyncio import Future, get_running_loop
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from aiodataloader import DataLoader, Loader, dispatch_queue

from store.database import Database

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True, eq=False, slots=True)
class LoaderSpec(Generic[K, V]):
    """One kind of loader: `load(database, keys, parameter)` answers each key, in order."""

    name: str
    load: Callable[[Database, Sequence[K], Any], Awaitable[Sequence[V]]]


class RequestLoader(DataLoader[K, V]):
    """aiodataloader's DataLoader, each batch's dispatch scheduled without a task of its own.

    DataLoader schedules it as a coroutine wrapped in a task (`enqueue_post_future_job`), which
    takes the queue two turns of the loop after its first load and starts the batch's task.
    Two plain callbacks take it at the same turn, in the same context, so the same loads batch
    together, without that coroutine and its task (tests/server/test_request_loader.py).
    Built per request and loader: it sets what DataLoader's `__init__` sets for a batch function
    and the class's defaults, without `inspect`'s test that the function is a coroutine function
    (`Context.loader` always gives it one)."""

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


def keyed(found: Mapping[K, V], keys: Sequence[K]) -> list[V | None]:
    """Answers in key order from what one command found; None where nothing was."""
    return [found.get(key) for key in keys]
