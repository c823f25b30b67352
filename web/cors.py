"""CORS for browser apps on other origins: Starlette's middleware, outermost, so that every
answer (a 413 included) carries the headers, and preflights are answered before anything runs.

Unset `ARRAYGRAPH_CORS_ORIGINS` means same-origin only: no middleware, no CORS headers, so a
browser refuses other origins' reads. Bearer tokens travel in a header, not cookies, so
credentials mode stays off and `*` is allowed.
"""

from __future__ import annotations

from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware

from settings import CORS_MAX_AGE_SECONDS, Settings

ALLOWED_METHODS = ("GET", "POST")
ALLOWED_HEADERS = ("authorization", "content-type", "accept")


def cors(settings: Settings) -> list[Middleware]:
    """The CORS middleware the settings ask for (none when no origin is allowed)."""
    if not settings.cors_origins:
        return []
    return [
        Middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=list(ALLOWED_METHODS),
            allow_headers=list(ALLOWED_HEADERS),
            max_age=CORS_MAX_AGE_SECONDS,
        )
    ]
