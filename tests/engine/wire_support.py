"""What the wire front's tests share: PyMongo's client and collection types, and a listener."""

from __future__ import annotations

from typing import Any

from pymongo import AsyncMongoClient, monitoring
from pymongo.asynchronous.collection import AsyncCollection

Client = AsyncMongoClient[dict[str, Any]]
Collection = AsyncCollection[dict[str, Any]]


class SentCommands(monitoring.CommandListener):
    """The commands PyMongo sends, by name, as its command monitoring reports them."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        self.names.append(event.command_name)

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        return None

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        return None
