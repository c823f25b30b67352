"""The per-request context: database handle, settings, the request's clock reading, loaders."""

from __future__ import annotations

import hmac
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import strawberry
from aiodataloader import DataLoader
from starlette.requests import HTTPConnection

from resolvers.loaders import LoaderSpec
from settings import Settings
from store.database import Database
from store.protocols import AsyncCollection

K = TypeVar("K")
V = TypeVar("V")

Clock = Callable[[], datetime]
LoaderKey = tuple[LoaderSpec[Any, Any], Hashable]


@dataclass(slots=True)
class Context:
    database: Database
    settings: Settings
    now: datetime  # read once, so every field of a request sees the same window
    authenticated: bool
    request: HTTPConnection | None = None
    # The operation's name and type, once its document is known (for the request's log line).
    operation: tuple[str | None, str] | None = None
    _loaders: dict[LoaderKey, DataLoader[Any, Any]] = field(default_factory=dict)

    def collection(self, name: str) -> AsyncCollection:
        """The collection a store module declares as its `COLLECTION`."""
        return self.database.collection(name)

    def forget_loaded(self) -> None:
        """Drop every loader and what it cached: the next reads see what was written since."""
        self._loaders.clear()

    def loader(self, spec: LoaderSpec[K, V], parameter: Hashable = None) -> DataLoader[K, V]:
        """This request's loader of `spec` (and `parameter`), built on first use: nothing
        cached outlives the request that read it."""
        key = (spec, parameter)
        found = self._loaders.get(key)
        if found is None:
            database = self.database

            async def batch(keys: list[K]) -> list[V]:
                return list(await spec.load(database, keys, parameter))

            found = self._loaders[key] = DataLoader(batch)
        return found


Info = strawberry.Info[Context, None]


def bearer_token_valid(authorization: str | None, tokens: tuple[str, ...]) -> bool:
    if not authorization:
        return False
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return False
    presented = token.strip().encode()
    # Compare against every token, each in constant time, so timing reveals nothing.
    matches = [hmac.compare_digest(presented, known.encode()) for known in tokens]
    return any(matches)


def build_context(
    request: HTTPConnection | None, *, database: Database, settings: Settings, clock: Clock
) -> Context:
    authenticated = not settings.auth_required or (
        request is not None
        and bearer_token_valid(request.headers.get("authorization"), settings.api_tokens)
    )
    return Context(
        database=database,
        settings=settings,
        now=clock(),
        authenticated=authenticated,
        request=request,
    )
