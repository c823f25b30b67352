"""Documents examined, reported to the examination observer of the command that runs.

A command runs synchronously, under its engine's lock, in one thread (the engine's worker, or
the wire front's): `ReportedTo(observer)` opens its scope there, and the read path reports
into it with `report`, without every read function taking the observer along. Outside a
command's scope (the engine's internals called directly), reports go nowhere.
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from typing import Any

from embedded.protocols import ExaminationObserver

_observer: ContextVar[ExaminationObserver | None] = ContextVar("examined", default=None)


class ReportedTo:
    """The scope of one command (`with ReportedTo(observer):`): what it examines is reported to
    `observer`. A class, not a `contextmanager` generator: every command opens one."""

    __slots__ = ("_observer", "_token")

    def __init__(self, observer: ExaminationObserver) -> None:
        self._observer = observer
        self._token: Token[ExaminationObserver | None] | None = None

    def __enter__(self) -> None:
        self._token = _observer.set(self._observer)

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _observer.reset(self._token)
            self._token = None


def report(coll: Any, documents: int) -> None:
    """`documents` of mongomock-ng collection `coll` examined by the command that runs."""
    observer = _observer.get()
    if observer is not None and documents:
        observer.examined(str(coll.full_name), documents)
