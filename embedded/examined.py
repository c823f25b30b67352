"""Documents examined, reported to the examination observer of the command that runs.

A command runs synchronously, under its engine's lock, in one thread (the engine's worker, or
the wire front's): `reported_to(observer)` opens its scope there, and the read path reports
into it with `report`, without every read function taking the observer along. Outside a
command's scope (the engine's internals called directly), reports go nowhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from embedded.protocols import ExaminationObserver

_observer: ContextVar[ExaminationObserver | None] = ContextVar("examined", default=None)


@contextmanager
def reported_to(observer: ExaminationObserver) -> Iterator[None]:
    """The scope of one command: what it examines is reported to `observer`."""
    token = _observer.set(observer)
    try:
        yield
    finally:
        _observer.reset(token)


def report(coll: Any, documents: int) -> None:
    """`documents` of mongomock-ng collection `coll` examined by the command that runs."""
    observer = _observer.get()
    if observer is not None and documents:
        observer.examined(str(coll.full_name), documents)
