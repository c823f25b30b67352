"""The typed per-request context."""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from starlette.requests import HTTPConnection

from resolvers.loaders import Loaders
from settings import Settings
from store.database import Database

Clock = Callable[[], datetime]


@dataclass(slots=True)
class Context:
    request: HTTPConnection | None
    database: Database
    settings: Settings
    loaders: Loaders
    authenticated: bool
    now: datetime  # read once, so every field of a request sees the same window


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
        request=request,
        database=database,
        settings=settings,
        loaders=Loaders(database),
        authenticated=authenticated,
        now=clock(),
    )
