"""What the process keeps for long leaves the cyclic collector's scans.

A full collection scans every object it tracks, and a server's long-lived heap (the document
cache's syntax trees and what is planned for them, above all) costs it about a microsecond an
object: left alone, one full collection holds the event loop for hundreds of milliseconds
once the cache is full. So, once the application has started, what survives is frozen
(`gc.freeze`): the collector ignores it from then on, and reference counting still frees it.

The collector decides when a full collection is due; right after one, `settle` is scheduled on
the event loop. There, between two callbacks (no parse, validation or resolver half done),
it collects once more (cheap: everything older is frozen) and freezes what survived. So a
full collection scans only what has grown since the last, and nothing freed by the collector
is ever frozen: frozen, an object that later becomes garbage only the collector could free
would stay for good. That holds because a request leaves no such garbage
(tests/server/test_request_garbage.py), nor does an entry the document cache lets go (it drops
its tokens' links: runtime/request/document_cache.py); tests/server/test_long_lived_heap.py runs
requests of every kind and finds nothing left frozen that is garbage.

Full collections come after `FULL_AFTER` collections of the middle generation (Python's
default is 10): with the old objects frozen each is small, and few objects wait between two.
While the collector is disabled (a test that counts garbage), nothing is collected or frozen.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

FULL_AFTER = 2


class LongLivedHeap:
    """Installed for an application's lifetime: `start` freezes what start-up built and hooks
    the collector; `stop` unhooks it (what is frozen stays so: the process ends next)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scheduled = self._settling = False
        self._thresholds = gc.get_threshold()
        self.settled = 0  # how many times what survived was frozen (tests read it)

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thresholds = gc.get_threshold()
        young, middle, _ = self._thresholds
        gc.set_threshold(young, middle, FULL_AFTER)
        # What start-up made and dropped is young: collected, the rest frozen without a scan of
        # the whole heap (a process that starts many applications, as a test run does, would
        # pay one per start).
        gc.collect(1)
        gc.freeze()
        gc.callbacks.append(self._collected)

    def stop(self) -> None:
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)
        gc.set_threshold(*self._thresholds)
        self._loop = None

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        # Any thread may collect; the freeze waits for the loop's next turn.
        if phase != "stop" or info["generation"] != 2 or self._scheduled or self._settling:
            return
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        self._scheduled = True
        loop.call_soon_threadsafe(self.settle)

    def settle(self) -> None:
        self._scheduled = False
        if gc.isenabled() and self._loop is not None:
            self._freeze()

    def _freeze(self) -> None:
        self._settling = True  # its own collection schedules no other
        try:
            gc.collect()  # all but the frozen: what has grown since the last freeze
            gc.freeze()
        finally:
            self._settling = False
        self.settled += 1
