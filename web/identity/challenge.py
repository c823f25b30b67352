"""Refusals of a caller's credentials over HTTP: 401 with a `WWW-Authenticate` challenge, and
credentials sent in a URL's query string.

- **UNAUTHENTICATED under `application/graphql-response+json`** is a request error (GraphQL
  over HTTP: the server may answer 401 when the caller is not authenticated): 401, no `data`,
  the error without its path, and `WWW-Authenticate: Bearer` (RFC 6750), with
  `error="invalid_token"` when a credential was sent and not accepted. Under
  `application/json` nothing changes: 200, the field's error at its path. Once a mutation has
  run, its writes stand and are answered, 200, whatever the type.
- **A credential in the query string** (`?access_token=`, `?token=`, ...) is refused, 400,
  naming the parameter and never its value: a URL is kept in browser histories and proxies'
  logs. The request log writes the path, never the query string (web/observability/request_log.py).
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import QueryParams

UNAUTHENTICATED = "UNAUTHENTICATED"
# Names clients and libraries put a bearer token under (RFC 6750's `access_token` first).
URL_CREDENTIALS = (
    "access_token",
    "token",
    "id_token",
    "jwt",
    "api_key",
    "apikey",
    "authorization",
    "bearer",
)


def url_credential(params: QueryParams) -> str | None:
    """The first credential parameter the query string holds, by its name decoded (`t%6Fken`
    is `token`); None when none."""
    names = {name.lower() for name in params}
    return next((name for name in URL_CREDENTIALS if name in names), None)


def url_credential_reason(name: str) -> str:
    return (
        f"{name}: credentials are not accepted in the URL's query string (URLs are logged and "
        "kept); send 'Authorization: Bearer <token>'"
    )


def unauthenticated(response: dict[str, Any]) -> dict[str, Any] | None:
    """The first UNAUTHENTICATED error of a response, as a request error's (no path, no
    locations); None when it has none."""
    for error in response.get("errors") or ():
        extensions = error.get("extensions") or {}
        if extensions.get("code") == UNAUTHENTICATED:
            return {"message": error.get("message"), "extensions": extensions}
    return None


def challenge(error: dict[str, Any]) -> tuple[bytes, bytes]:
    """The `WWW-Authenticate` header of a 401: `invalid_token` when a credential was refused
    (its error names a reason), bare when none was sent."""
    if (error.get("extensions") or {}).get("reason"):
        return b"www-authenticate", b'Bearer error="invalid_token"'
    return b"www-authenticate", b"Bearer"
