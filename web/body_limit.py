"""Rejects a request body over the limit with 413, before any of it is parsed."""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from web.endpoint.http_protocol import client_left
from web.observability.request_log import record_of


class BodyLimit:
    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared.isdigit():
            if int(declared) > self.max_bytes:
                await self._reject(scope, receive, send)
            else:
                await self.app(scope, receive, send)  # the server enforces Content-Length
            return
        chunks = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                client_left(scope)  # there is no one to answer
                return
            chunks += message.get("body", b"")
            if len(chunks) > self.max_bytes:
                await self._reject(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        body = bytes(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _reject(self, scope: Scope, receive: Receive, send: Send) -> None:
        record = record_of(scope)
        if record is not None:
            record.note_error_codes(["LIMIT_EXCEEDED"])
        error = {
            "message": f"Request body is larger than {self.max_bytes} bytes",
            "extensions": {"code": "LIMIT_EXCEEDED"},
        }
        response = JSONResponse({"errors": [error]}, status_code=413)
        await response(scope, receive, send)


def _content_length(scope: Scope) -> str | None:
    """The first Content-Length header's value (names come lowercased from the server)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            return bytes(value).decode("latin-1")
    return None
