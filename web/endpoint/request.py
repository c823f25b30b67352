"""What a GraphQL request sent over HTTP: a POST's JSON body or a GET's parameters, read into
its query, variables, operationName, extensions and documentId; anything else is refused with
GraphQL over HTTP's 400 (`TransportError`), reading as little of the request as that takes.

The rules are those the endpoint has always had (Strawberry's, and arraygraph's stricter ones):
- POST: a media type containing `application/json` (any parameters, any case), else
  "Unsupported content type" (no multipart uploads). The body must be JSON (NaN and Infinity
  are read, and refused later by validation, with a clear error) and an object: a list is an
  operation batch, which is off; `operationName` a string, `query` a string, `variables` and
  `extensions` objects, each or null.
- GET: the parameters' last values; `variables` and `extensions` are JSON texts (an empty one
  is refused, as not an object). A GET without `query`, `extensions` or `documentId` whose
  client accepts HTML (`text/html` or `*/*`) asks for the GraphiQL page instead.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import orjson
from starlette.datastructures import QueryParams
from starlette.requests import ClientDisconnect
from starlette.types import Receive, Scope

from web.endpoint.http_protocol import TransportError

NOT_JSON = "Unable to parse request body as JSON"


class RequestHead(NamedTuple):
    """The two headers every GraphQL request is read by (their first values)."""

    accept: str | None
    content_type: str | None

    @classmethod
    def of(cls, scope: Scope) -> RequestHead:
        accept = content_type = None
        for name, value in scope["headers"]:  # lowercased names, as ASGI servers send them
            if name == b"accept" and accept is None:
                accept = value.decode("latin-1")
            elif name == b"content-type" and content_type is None:
                content_type = value.decode("latin-1")
        return cls(accept, content_type)


class SentOperation(NamedTuple):
    """An operation as the client sent it: a `documentId` may stand for its query."""

    query: str | None
    variables: dict[str, Any] | None
    operation_name: str | None
    extensions: dict[str, Any] | None
    document_id: object


def decode_json(data: str | bytes) -> object:
    """JSON's value; json.JSONDecodeError for anything that is not JSON."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass
    try:
        # The standard parser accepts NaN and Infinity, which some clients send; validation
        # then rejects them with a clear GraphQL error instead of a bare HTTP 400.
        return json.loads(data)
    except RecursionError:  # nested deeper than orjson's 1,024 levels, and Python's stack
        raise json.JSONDecodeError("nested too deeply", "", 0) from None
    except ValueError as exc:  # an integer of over 4,300 digits: Python refuses to read it
        raise json.JSONDecodeError(str(exc), "", 0) from None


def _parse_json(data: str | bytes) -> Any:
    try:
        return decode_json(data)
    except json.JSONDecodeError:
        raise TransportError(400, NOT_JSON) from None


async def read_body(receive: Receive) -> bytes:
    """The whole body (BodyLimit, outermost, bounds it); ClientDisconnect if the client left."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientDisconnect()
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def is_json(content_type: str | None) -> bool:
    return "application/json" in (content_type or "").split(";", 1)[0].strip().lower()


def from_body(body: bytes) -> SentOperation:
    """The operation a POST's JSON body sends."""
    data = _parse_json(body)
    if isinstance(data, list):
        raise TransportError(400, "Batching is not enabled")
    if not isinstance(data, dict):
        raise TransportError(400, "The request body must be a JSON object")
    if not isinstance(data.get("operationName"), str | None):
        raise TransportError(400, "The operation's `operationName` must be a string")
    return _checked(data)


def from_params(params: QueryParams) -> SentOperation:
    """The operation a GET's parameters send (the last value of each)."""
    data: dict[str, Any] = dict(params)
    for name in ("variables", "extensions"):
        if data.get(name):
            data[name] = _parse_json(data[name])
    return _checked(data)


def _checked(data: dict[str, Any]) -> SentOperation:
    query, variables, extensions = data.get("query"), data.get("variables"), data.get("extensions")
    if not isinstance(query, str | None):
        reason = "The GraphQL operation's `query` must be a string or null, if provided."
        raise TransportError(400, reason)
    if not isinstance(variables, dict | None):
        reason = "The GraphQL operation's `variables` must be an object or null, if provided."
        raise TransportError(400, reason)
    if not isinstance(extensions, dict | None):
        reason = "The GraphQL operation's `extensions` must be an object or null, if provided."
        raise TransportError(400, reason)
    return SentOperation(
        query, variables, data.get("operationName"), extensions, data.get("documentId")
    )


def wants_graphiql(params: QueryParams, accept: str | None) -> bool:
    """A GET for the IDE page: no operation in it (a document named by hash is one, whatever it
    accepts: Apollo Client 3 sends `accept: */*`), from a client that accepts HTML."""
    if params.get("query") is not None:
        return False
    if params.get("extensions") is not None or params.get("documentId") is not None:
        return False
    return any(kind in (accept or "") for kind in ("text/html", "*/*"))
