"""What the engine needs from its user: an observer of the commands it runs.

A command is what a round trip is on a real server; an application that budgets its round trips
(as arraygraph's tests do) counts them here, and on a real server through PyMongo's command
monitoring.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

Document = dict[str, Any]


class CommandObserver(Protocol):
    """Told of each command: its name before it runs, its result after (a list for reads)."""

    def started(self, name: str) -> None: ...

    def replied(self, result: object) -> None: ...


class CommandCounts:
    """The observer of an engine given none: how many commands ran, by name."""

    def __init__(self) -> None:
        self.by_name: Counter[str] = Counter()

    @property
    def count(self) -> int:
        return sum(self.by_name.values())

    def reset(self) -> None:
        self.by_name.clear()

    def started(self, name: str) -> None:
        self.by_name[name] += 1

    def replied(self, result: object) -> None:
        return None
