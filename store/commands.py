"""Counting the commands (round trips) sent to MongoDB, so tests can assert exact budgets.

The same counts feed observability: `CommandLog.watchers` are told of each command and of its
latency (the app's metrics), and a `CommandTally` counts the commands one request sends (its
task and the tasks it starts share the tally), whichever handle sends them.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping
from contextvars import ContextVar, Token
from time import perf_counter
from typing import Any, Protocol

import bson
from pymongo import monitoring

# Commands a driver sends on its own (handshakes, session clean-up): not round trips of ours.
_DRIVER_COMMANDS = frozenset(
    {"hello", "ismaster", "isMaster", "endSessions", "saslStart", "saslContinue", "authenticate"}
)


class CommandWatcher(Protocol):
    """Told of each command sent and, when it replies, of how long it took."""

    def command_started(self, name: str) -> None: ...

    def command_finished(self, name: str, seconds: float) -> None: ...


class CommandTally:
    """The commands sent within a `with CommandTally() as tally:` block, from its task and the
    tasks started in it (a context variable: concurrent requests count apart)."""

    __slots__ = ("_token", "count")

    def __init__(self) -> None:
        self.count = 0
        self._token: Token[CommandTally | None] | None = None

    def __enter__(self) -> CommandTally:
        self._token = _TALLY.set(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _TALLY.reset(self._token)
            self._token = None


_TALLY: ContextVar[CommandTally | None] = ContextVar("arraygraph_command_tally", default=None)


class _Running(threading.local):
    # The embedded engine's command awaiting its reply, per thread: commands run on the engine's
    # worker thread while a cursor's getMore runs on the event loop's, each reply following its
    # start on the same thread. Its name and start, to time it; a failed command has no reply.
    command: tuple[str, float] | None = None


class CommandLog:
    """How many commands were sent, by name, and (when `count_reply_bytes` is set, for a test
    that asks) how many bytes of documents came back."""

    def __init__(self, *, count_reply_bytes: bool = False) -> None:
        self.by_name: Counter[str] = Counter()
        self.count_reply_bytes = count_reply_bytes
        self.reply_bytes = 0
        self.watchers: list[CommandWatcher] = []
        self._running = _Running()
        self._counting = threading.Lock()  # the engine's thread and the loop's both count

    @property
    def count(self) -> int:
        return sum(self.by_name.values())

    def reset(self) -> None:
        self.by_name.clear()
        self.reply_bytes = 0

    def started(self, name: str) -> None:
        """The embedded engine's report of a command (its reply, timed, comes in `replied`)."""
        self.sent(name)
        self._running.command = (name, perf_counter()) if self.watchers else None

    def replied(self, result: Any) -> None:
        if self.count_reply_bytes and isinstance(result, list):
            self.reply_bytes += sum(len(bson.encode(d)) for d in result if isinstance(d, Mapping))
        running, self._running.command = self._running.command, None
        if running is not None:
            self.finished(running[0], perf_counter() - running[1])

    def sent(self, name: str) -> None:
        """One command (round trip) sent."""
        with self._counting:
            self.by_name[name] += 1
            tally = _TALLY.get()
            if tally is not None:
                tally.count += 1
        for watcher in self.watchers:
            watcher.command_started(name)

    def finished(self, name: str, seconds: float) -> None:
        """A command's reply came, `seconds` after it was sent."""
        for watcher in self.watchers:
            watcher.command_finished(name, seconds)


class CommandCounter(monitoring.CommandListener):
    """Feeds a `CommandLog` from PyMongo's command monitoring, for a real server."""

    def __init__(self, log: CommandLog) -> None:
        self.log = log

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name not in _DRIVER_COMMANDS:
            self.log.sent(event.command_name)

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        if event.command_name not in _DRIVER_COMMANDS:
            if self.log.count_reply_bytes:
                self.log.reply_bytes += len(bson.encode(event.reply))
            self.log.finished(event.command_name, event.duration_micros / 1e6)

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        if event.command_name not in _DRIVER_COMMANDS:
            self.log.finished(event.command_name, event.duration_micros / 1e6)
