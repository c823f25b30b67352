"""The start-up line that says who may call, when that is not the configured credentials'
plain rule: everyone may do everything (development, nothing configured), every anonymous
caller gets a role, or nobody can be let in (production, nothing configured)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from starlette.applications import Starlette

from resolvers.access.roles import is_open
from settings import Settings

logger = logging.getLogger("arraygraph")
Lifespan = Callable[[Starlette], AbstractAsyncContextManager[None]]

OPEN = (
    "no credentials configured (ARRAYGRAPH_API_TOKENS, ARRAYGRAPH_JWKS_URL): every caller may "
    "read and write everything; development only (ARRAYGRAPH_ENV=production refuses anonymous "
    "callers)"
)
CLOSED = (
    "production mode without credentials (ARRAYGRAPH_API_TOKENS, ARRAYGRAPH_JWKS_URL) or "
    "ARRAYGRAPH_ANONYMOUS_ROLE: every call is refused"
)


def access_line(settings: Settings) -> str | None:
    """The line, or None when the credentials configured say it all."""
    if is_open(settings):
        return OPEN
    role = settings.identity.anonymous_role
    if role is not None:
        return f"callers without credentials hold the role {role} (ARRAYGRAPH_ANONYMOUS_ROLE)"
    return None if settings.auth_required else CLOSED


def saying_who_may_call(lifespan: Lifespan, settings: Settings) -> Lifespan:
    """`lifespan`, which logs the line (a warning: it opens or closes everything) once started."""

    @asynccontextmanager
    async def run(app: Starlette) -> AsyncIterator[None]:
        async with lifespan(app):
            line = access_line(settings)
            if line is not None:
                logger.warning(line)
            yield

    return run
