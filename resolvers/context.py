"""The per-request context: database handle, settings, the request's clock reading, the
caller's identity, loaders."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from datetime import datetime
from typing import Any, TypeVar

import strawberry
from starlette.requests import HTTPConnection

from resolvers.errors import Unauthenticated
from resolvers.identity import Authenticator, Identity
from resolvers.loaders import LoaderSpec, RequestLoader
from settings import Settings
from store.database import Database
from store.protocols import AsyncCollection

K = TypeVar("K")
V = TypeVar("V")

Clock = Callable[[], datetime]
LoaderKey = tuple[LoaderSpec[Any, Any], Hashable]


class Context:
    """What every resolver of one request shares. Built when the request's operation executes,
    and each part on first use: the clock reading, the caller's identity, the loaders."""

    __slots__ = (
        "_authenticator",
        "_clock",
        "_identity",
        "_loaders",
        "_now",
        "database",
        "mutations_ran",
        "refusal",
        "request",
        "settings",
    )

    def __init__(
        self,
        database: Database,
        settings: Settings,
        *,
        clock: Clock,
        authenticator: Authenticator,
        request: HTTPConnection | None = None,
    ) -> None:
        self.database = database
        self.settings = settings
        self.request = request
        self._clock = clock
        self._now: datetime | None = None
        self._authenticator = authenticator
        self._identity: Identity | None = None
        # Why the request's credential was not accepted, once it was tried (the request log's).
        self.refusal: Unauthenticated | None = None
        self._loaders: dict[LoaderKey, RequestLoader[Any, Any]] | None = None
        # The response keys of the mutation fields whose resolvers returned: what they wrote
        # is stored, whatever the rest of the answer becomes (runtime/request/response_size.py).
        self.mutations_ran: list[str] = []

    @property
    def now(self) -> datetime:
        """The request's clock reading: read once, so every field sees the same window."""
        if self._now is None:
            self._now = self._clock()
        return self._now

    def identity_at_hand(self) -> Identity | None:
        """The caller's identity when it needs no verification: known already, or anonymous
        (no `Authorization` header); None when a credential waits to be verified (or was
        refused): `identity()` then says which."""
        found = self._identity
        if found is not None or self.refusal is not None:
            return found
        if self.request is not None and "authorization" in self.request.headers:
            return None
        found = self._identity = self._authenticator.anonymous
        return found

    async def identity(self) -> Identity:
        """Who is calling: verified on first use, once per request; a request without an
        `Authorization` header is anonymous at no cost. A credential not accepted raises
        `Unauthenticated` with its reason, each time it is asked for."""
        found = self._identity
        if found is not None:
            return found
        refused = self.refusal
        if refused is not None:
            raise Unauthenticated(str(refused), reason=refused.reason)
        sent = self._sent_authorization()
        if sent is None:
            found = self._authenticator.anonymous
        else:
            try:
                found = await self._authenticator.identify(sent)
            except Unauthenticated as error:
                self.refusal = error
                raise
        self._identity = found
        return found

    def _sent_authorization(self) -> str | None:
        """The `Authorization` header, None without one. Sent, even empty, it is a credential to
        check; sent twice, its lines are combined as HTTP combines a field's lines (RFC 9110,
        5.3), which no credential matches: refused as malformed, never one of them chosen."""
        if self.request is None:
            return None
        sent = self.request.headers.getlist("authorization")
        return ", ".join(sent) if sent else None

    def collection(self, name: str) -> AsyncCollection:
        """The collection a store module declares as its `COLLECTION`."""
        return self.database.collection(name)

    def forget_loaded(self) -> None:
        """Drop every loader and what it cached: the next reads see what was written since."""
        self._loaders = None

    def loader(self, spec: LoaderSpec[K, V], parameter: Hashable = None) -> RequestLoader[K, V]:
        """This request's loader of `spec` (and `parameter`), built on first use: nothing
        cached outlives the request that read it."""
        loaders = self._loaders
        if loaders is None:
            loaders = self._loaders = {}
        key = (spec, parameter)
        found = loaders.get(key)
        if found is None:
            database = self.database

            async def batch(keys: list[K]) -> list[V]:
                return list(await spec.load(database, keys, parameter))

            found = loaders[key] = RequestLoader(batch)
        return found


Info = strawberry.Info[Context, None]


def build_context(
    request: HTTPConnection | None,
    *,
    database: Database,
    settings: Settings,
    clock: Clock,
    authenticator: Authenticator,
) -> Context:
    """The request's context; nothing of it is computed until a resolver asks."""
    return Context(database, settings, clock=clock, authenticator=authenticator, request=request)
