"""The JWKS while the application serves: loaded at start-up (a failure logged, never fatal:
/readyz answers not ready until a set is loaded), then kept fresh by a task the end stops."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from starlette.applications import Starlette

from web.identity.authenticator import Authenticator

Lifespan = Callable[[Starlette], AbstractAsyncContextManager[None]]


def loading_keys(lifespan: Lifespan, authenticator: Authenticator) -> Lifespan:
    """`lifespan`, with the JWKS (when one is configured) loaded and kept fresh."""

    @asynccontextmanager
    async def run(app: Starlette) -> AsyncIterator[None]:
        async with lifespan(app):
            keys = authenticator.keys
            if keys is None:
                yield
                return
            await keys.refresh()
            fresh = asyncio.get_running_loop().create_task(keys.keep_fresh())
            try:
                yield
            finally:
                fresh.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await fresh

    return run
