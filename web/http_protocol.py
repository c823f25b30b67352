"""GraphQL over HTTP, as the spec asks: every answer is a GraphQL response with codes, in the
media type the client accepts, with the status that type calls for.

- Transport rejections (a body that is not JSON, a method other than GET and POST...) answer a
  GraphQL response whose error has `extensions.code` (`BAD_REQUEST`, `METHOD_NOT_ALLOWED`...),
  never a bare text line.
- `Accept: application/graphql-response+json` gets that media type, and a request error (the
  document did not parse or validate, its variables did not fit: nothing executed) answers 4xx
  without a `data` entry; a response with `data`, even null, is 200. `application/json`, the
  legacy type, answers 200 with `data: null` as before.
- A client that leaves before its body arrived is its request's info line (status 499), not a
  stack.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from cross_web import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket
from strawberry.http import GraphQLHTTPResponse

from web.request_log import record_of

CLIENT_CLOSED_REQUEST = 499

GRAPHQL_RESPONSE = "application/graphql-response+json"
JSON = "application/json"
TRANSPORT_CODES = {
    400: "BAD_REQUEST",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    406: "NOT_ACCEPTABLE",
    415: "UNSUPPORTED_MEDIA_TYPE",
}


def encode(data: object) -> bytes:
    """JSON bytes; a string that UTF-8 cannot hold (a lone surrogate a client sent, echoed in
    an error message) is written as its JSON escape instead of failing the answer."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return json.dumps(data, ensure_ascii=True).encode("ascii")


def media_type(accept: str | None) -> str:
    """The response's media type: graphql-response+json when the client accepts it."""
    return GRAPHQL_RESPONSE if accept and GRAPHQL_RESPONSE in accept else JSON


def is_request_error(response: GraphQLHTTPResponse) -> bool:
    """Nothing executed: errors, no data, and no error at a path (field errors have one)."""
    errors: list[Any] = list(response.get("errors") or [])
    return response.get("data") is None and bool(errors) and all(not e.get("path") for e in errors)


def transport_error(status: int, reason: str, accept: str | None) -> Response:
    code = TRANSPORT_CODES.get(status, "BAD_REQUEST")
    body = {"errors": [{"message": reason, "extensions": {"code": code}}]}
    headers = {"allow": "GET, POST"} if status == 405 else None
    return Response(encode(body), status, headers=headers, media_type=media_type(accept))


def client_left(scope: Scope) -> None:
    """A client that left before its request arrived: its request's log line (an info line)
    says 499, nginx's "client closed request"; nothing is answered."""
    record = record_of(scope)
    if record is not None:
        record.status = CLIENT_CLOSED_REQUEST


class GraphQLOverHttp:
    """The view's answers as GraphQL over HTTP wants them (mixed into the view)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)  # type: ignore[misc]
            return
        request = Request(scope=scope, receive=receive)
        accept = request.headers.get("accept")
        try:
            response = await self.run(request)  # type: ignore[attr-defined]
        except HTTPException as exc:
            response = transport_error(exc.status_code, exc.reason, accept)
        except ClientDisconnect:
            client_left(scope)
            return
        await response(scope, receive, send)

    async def get_sub_response(self, request: Request | WebSocket) -> Response:
        sub_response: Response = await super().get_sub_response(request)  # type: ignore[misc]
        sub_response.arraygraph_accept = request.headers.get("accept")  # type: ignore[attr-defined]
        return sub_response

    def create_response(
        self,
        response_data: GraphQLHTTPResponse | list[GraphQLHTTPResponse],
        sub_response: Any,
    ) -> Response:
        response: Response = super().create_response(response_data, sub_response)  # type: ignore[misc]
        request = getattr(sub_response, "arraygraph_accept", None)
        if media_type(request) != GRAPHQL_RESPONSE or isinstance(response_data, list):
            return response
        response.headers["content-type"] = GRAPHQL_RESPONSE
        if is_request_error(response_data) and not sub_response.status_code:
            response_data.pop("data", None)
            response.body = self.encode_json(response_data)  # type: ignore[attr-defined]
            response.headers["content-length"] = str(len(response.body))
            response.status_code = 400
        return response
