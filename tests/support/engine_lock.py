"""The embedded engine's lock, held by the test: the engine busy, as while a heavy command runs.

`EmbeddedEngine` runs every command under `engine.lock` (on its worker thread in process, on
the wire front's thread behind it). `busy_engine` holds that lock from a thread of its own
until the block ends, and counts the acquisitions that had to wait for it: a command the
application sent and the engine has not yet run.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import pytest

from embedded import EmbeddedEngine

# A busy engine is let go after this long whatever the test does, so that a loop stuck waiting
# for it cannot hang the run; the test's counts then show what the loop could not do meanwhile.
HOLD_LIMIT_S = 60.0


@dataclass
class WatchedLock:
    """The engine's lock, counting the acquisitions that found it held and waited."""

    lock: Any  # the engine's threading.RLock
    waited: int = 0
    _count: threading.Lock = field(default_factory=threading.Lock)

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if self.lock.acquire(blocking=False):
            return True
        if not blocking:
            return False
        with self._count:
            self.waited += 1
        return bool(self.lock.acquire(True, timeout))

    def release(self) -> None:
        self.lock.release()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.release()


@contextmanager
def busy_engine(engine: EmbeddedEngine, monkeypatch: pytest.MonkeyPatch) -> Iterator[WatchedLock]:
    """The engine's lock held by another thread until the block ends; its waits counted."""
    watched = WatchedLock(engine.lock)
    monkeypatch.setattr(engine, "lock", watched)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with watched.lock:
            held.set()
            release.wait(HOLD_LIMIT_S)

    holder = threading.Thread(target=hold, name="busy-engine", daemon=True)
    holder.start()
    assert held.wait(HOLD_LIMIT_S), "the engine's lock was never free to hold"
    try:
        yield watched
    finally:
        release.set()
        holder.join()
