"""Counting the commands (round trips) sent to MongoDB, so tests can assert exact budgets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import bson
from pymongo import monitoring

# Commands a driver sends on its own (handshakes, session clean-up): not round trips of ours.
_DRIVER_COMMANDS = frozenset(
    {"hello", "ismaster", "isMaster", "endSessions", "saslStart", "saslContinue", "authenticate"}
)


class CommandLog:
    """How many commands were sent, by name, and how many bytes of documents came back."""

    def __init__(self) -> None:
        self.by_name: Counter[str] = Counter()
        self.reply_bytes = 0

    @property
    def count(self) -> int:
        return sum(self.by_name.values())

    def reset(self) -> None:
        self.by_name.clear()
        self.reply_bytes = 0

    def started(self, name: str) -> None:
        self.by_name[name] += 1

    def replied(self, result: Any) -> None:
        if isinstance(result, list):
            self.reply_bytes += sum(len(bson.encode(d)) for d in result if isinstance(d, Mapping))


class CommandCounter(monitoring.CommandListener):
    """Feeds a `CommandLog` from PyMongo's command monitoring, for a real server."""

    def __init__(self, log: CommandLog) -> None:
        self.log = log

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name not in _DRIVER_COMMANDS:
            self.log.started(event.command_name)

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        if event.command_name not in _DRIVER_COMMANDS:
            self.log.reply_bytes += len(bson.encode(event.reply))

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        return None
