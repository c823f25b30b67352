"""GraphQL over HTTP, as the spec asks: every answer is a GraphQL response with codes, in the
media type the client accepts, with the status that type calls for.

- Transport rejections (a body that is not JSON, a method other than GET and POST...) answer a
  GraphQL response whose error has `extensions.code` (`BAD_REQUEST`, `METHOD_NOT_ALLOWED`...),
  never a bare text line.
- `Accept: application/graphql-response+json` gets that media type, and a request error (the
  document did not parse or validate, its variables did not fit: nothing executed) answers 4xx
  without a `data` entry; a response with `data`, even null, is 200. `application/json`, the
  legacy type, answers 200 with `data: null` as before.
- UNAUTHENTICATED under `application/graphql-response+json` is a request error, 401 with a
  `WWW-Authenticate` challenge (web/identity/challenge.py); a caller's budget spent is 429 under
  it; under both types, an error with `extensions.retryAfter` sets `Retry-After`.
- A client that leaves before its body arrived is its request's info line (status 499), not a
  stack.

Answers are sent as two ASGI messages, without a Starlette `Response` in between: the view
sends one per request, and building a response object (its header list, then its send) cost
more than the body's encoding.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, NamedTuple

import orjson
from starlette.types import Scope, Send

from runtime.request.response_size import bounded_request_errors, bounded_response
from web.identity.challenge import challenge, unauthenticated
from web.observability.request_log import RequestRecord, record_of

CLIENT_CLOSED_REQUEST = 499
TOO_MANY_REQUESTS = 429

GRAPHQL_RESPONSE = "application/graphql-response+json"
JSON = "application/json"
TRANSPORT_CODES = {
    400: "BAD_REQUEST",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    406: "NOT_ACCEPTABLE",
    415: "UNSUPPORTED_MEDIA_TYPE",
}
Headers = Sequence[tuple[bytes, bytes]]


class TransportError(Exception):
    """A request GraphQL over HTTP refuses before (or instead of) any operation: its status
    and the reason the client reads."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def encode(data: object) -> bytes:
    """JSON bytes; a string that UTF-8 cannot hold (a lone surrogate a client sent, echoed in
    an error message) is written as its JSON escape instead of failing the answer."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, ensure_ascii=True).encode("ascii")


# The media ranges that name each answer type, most specific first (RFC 9110: a type's
# quality is that of the most specific range that names it).
_RANGES = {
    GRAPHQL_RESPONSE: (GRAPHQL_RESPONSE, "application/*", "*/*"),
    JSON: (JSON, "application/*", "*/*"),
}


def media_type(accept: str | None) -> str:
    """The response's media type: graphql-response+json when the client accepts it at least as
    much as application/json (by `q`; `q=0` is not acceptable), else the legacy type."""
    if not accept or GRAPHQL_RESPONSE not in accept.lower():
        return JSON
    qualities: dict[str, float] = {}
    for entry in accept.split(","):
        media, *parameters = entry.split(";")
        qualities.setdefault(media.strip().lower(), _quality(parameters))
    graphql, json_ = (
        next((qualities[r] for r in _RANGES[kind] if r in qualities), 0.0)
        for kind in (GRAPHQL_RESPONSE, JSON)
    )
    return GRAPHQL_RESPONSE if graphql > 0 and graphql >= json_ else JSON


def _quality(parameters: Sequence[str]) -> float:
    """A media range's `q` (1 when absent; one that is not a number in [0, 1] counts as 0)."""
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value.strip())
            except ValueError:
                return 0.0
            return q if 0.0 <= q <= 1.0 else 0.0
    return 1.0


def is_request_error(response: dict[str, Any]) -> bool:
    """Nothing executed: errors, no data, and no error at a path (field errors have one)."""
    errors: list[Any] = list(response.get("errors") or [])
    return response.get("data") is None and bool(errors) and all(not e.get("path") for e in errors)


class Answer(NamedTuple):
    """One HTTP answer: status, body, media type and any other headers."""

    status: int
    body: bytes
    media_type: str
    headers: Headers = ()

    async def send(self, send: Send) -> None:
        head = [
            (b"content-length", str(len(self.body)).encode("latin-1")),
            (b"content-type", self.media_type.encode("latin-1")),
            *self.headers,
        ]
        await send({"type": "http.response.start", "status": self.status, "headers": head})
        await send({"type": "http.response.body", "body": self.body})


def graphql_answer(
    response: dict[str, Any],
    accept: str | None,
    max_bytes: int,
    headers: Headers = (),
    mutations_ran: Sequence[str] = (),
) -> Answer:
    """A GraphQL response, bounded by `max_bytes` (runtime/request/response_size.py; the bound's
    error names `mutations_ran`), as the client accepts it."""
    media = media_type(accept)
    if "errors" in response:
        return _with_errors(response, media, max_bytes, headers, mutations_ran)
    # No error: nothing to map to a status or a header (the common answer).
    body = bounded_response(encode(response), max_bytes, mutations_ran=mutations_ran)
    return Answer(200, body, media, headers)


def _with_errors(
    response: dict[str, Any],
    media: str,
    max_bytes: int,
    headers: Headers,
    mutations_ran: Sequence[str],
) -> Answer:
    """A response with errors: 401 for UNAUTHENTICATED or 4xx for a request error under
    graphql-response+json, `Retry-After` for a wait asked for."""
    status = 200
    if media == GRAPHQL_RESPONSE and not mutations_ran:
        refusal = unauthenticated(response)
        if refusal is not None:  # 401: a request error, whatever else ran (only reads did)
            body = bounded_request_errors({"errors": [refusal]}, max_bytes, encode)
            return Answer(401, body, media, (*headers, challenge(refusal)))
    retry_after = _retry_after(response)
    if retry_after is not None:
        headers = (*headers, (b"retry-after", str(retry_after).encode("ascii")))
    if is_request_error(response) and not mutations_ran:
        # Nothing ran: no `data` entry (the GraphQL spec's "should not be present").
        response.pop("data", None)
        if media == GRAPHQL_RESPONSE:
            status = 400 if retry_after is None else TOO_MANY_REQUESTS
        return Answer(status, bounded_request_errors(response, max_bytes, encode), media, headers)
    body = bounded_response(encode(response), max_bytes, mutations_ran=mutations_ran)
    return Answer(status, body, media, headers)


def _retry_after(response: dict[str, Any]) -> int | None:
    """The longest `extensions.retryAfter` of the response's errors (a budget spent), if any."""
    found = [
        wait
        for error in response.get("errors") or ()
        if isinstance(wait := (error.get("extensions") or {}).get("retryAfter"), int)
    ]
    return max(found) if found else None


def transport_error(
    status: int, reason: str, accept: str | None, record: RequestRecord | None = None
) -> Answer:
    """A refusal of the request itself, as a GraphQL response (its code in the request log)."""
    code = TRANSPORT_CODES.get(status, "BAD_REQUEST")
    if record is not None:
        record.note_error_codes([code])
    body = {"errors": [{"message": reason, "extensions": {"code": code}}]}
    headers = ((b"allow", b"GET, POST"),) if status == 405 else ()
    return Answer(status, encode(body), media_type(accept), headers)


def client_left(scope: Scope) -> None:
    """A client that left before its request arrived: its request's log line (an info line)
    says 499, nginx's "client closed request"; nothing is answered."""
    record = record_of(scope)
    if record is not None:
        record.status = CLIENT_CLOSED_REQUEST
