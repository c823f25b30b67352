"""`/healthz` (the process answers) and `/readyz` (the database answers a ping, and JWTs can
be verified: a configured JWKS was loaded once)."""

from __future__ import annotations

import asyncio
import logging

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from store.errors import unavailable_reason
from web.state import AppState

logger = logging.getLogger("arraygraph")

READY_TIMEOUT_SECONDS = 2.0


def _unavailable(reason: str, *, detail: str = "") -> JSONResponse:
    """503 with `reason`; `detail` goes to the log alone (an answer anyone may ask for names
    no URL or path of the deployment)."""
    logger.warning("readiness check failed: %s%s", reason, detail)
    return JSONResponse({"status": "unavailable", "reason": reason}, status_code=503)


def health_routes(state: AppState) -> list[Route]:
    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> JSONResponse:
        keys = state.authenticator.keys
        if keys is not None and not keys.loaded:
            reason = "no JWKS loaded yet: JWTs cannot be verified"
            return _unavailable(reason, detail=f" (from {keys.source})")
        try:
            await asyncio.wait_for(state.database.ping(), READY_TIMEOUT_SECONDS)
        except TimeoutError:
            reason = f"no answer to a ping within {READY_TIMEOUT_SECONDS:g} s"
            return _unavailable(reason)
        except Exception as exc:  # any failure means "not ready"; the log says why
            return _unavailable(
                "the database did not answer a ping", detail=f": {unavailable_reason(exc)}"
            )
        return JSONResponse({"status": "ready"})

    return [Route("/healthz", healthz), Route("/readyz", readyz)]
