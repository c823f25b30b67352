"""One log line per request, with its request id, and the request's place in the metrics.

A pure ASGI middleware, outermost: it takes the client's `X-Request-ID` when it has a safe
shape (1 to 128 of `A-Za-z0-9._:-`), or makes one, and echoes it in the response. The request's
`RequestRecord` rides in `scope["state"]`, where the GraphQL view notes the operation and the
codes of its errors (web/endpoint/operation_notes.py); the commands the request sends are
counted by the store (`store.commands.CommandTally`). When the response is sent, the record
becomes one line of the `arraygraph.request` logger and, for the GraphQL endpoint, the request
metrics.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from store.commands import CommandTally
from web.observability.metrics import Metrics
from web.observability.random_ids import new_request_id

logger = logging.getLogger("arraygraph.request")

REQUEST_ID_HEADER = "x-request-id"
_HEADER = REQUEST_ID_HEADER.encode()
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
RECORD_KEY = "arraygraph.request"


@dataclass(slots=True)
class RequestRecord:
    """What one request did: filled in by the middleware and the view."""

    request_id: str
    method: str
    path: str
    graphql: bool = False  # the view took it as an operation (not the IDE page, not a preflight)
    operation_name: str | None = None
    operation_type: str | None = None  # query, mutation or subscription; None before parsing
    error_codes: list[str] = field(default_factory=list)
    credential_refused: str | None = None  # the reason (web/identity/refusals.py), never the token
    status: int = 0
    round_trips: int = 0
    seconds: float = 0.0

    def note_error_codes(self, codes: list[str]) -> None:
        self.graphql = True
        for code in codes:
            if code not in self.error_codes:
                self.error_codes.append(code)

    def fields(self) -> dict[str, Any]:
        """The record as a log line's fields."""
        return {
            "request_id": self.request_id,
            "method": self.method,
            "path": self.path,
            "status": self.status,
            "duration_ms": round(self.seconds * 1000, 3),
            "operation_name": self.operation_name,
            "operation_type": self.operation_type,
            "error_codes": self.error_codes,
            "credential_refused": self.credential_refused,
            "round_trips": self.round_trips,
        }


def record_of(scope: Scope) -> RequestRecord | None:
    """The request's record, when the request passed through `RequestLog`."""
    state = scope.get("state")
    found = state.get(RECORD_KEY) if isinstance(state, dict) else None
    return found if isinstance(found, RequestRecord) else None


def request_id(scope: Scope) -> str:
    """The client's request id when its shape is safe to log and echo; else a new one (128
    random bits, in hex: web/observability/random_ids.py)."""
    for name, value in scope["headers"]:
        if name.lower() == _HEADER:
            sent = bytes(value).decode("latin-1")
            if REQUEST_ID.fullmatch(sent):
                return sent
            break
    return new_request_id()


class RequestLog:
    def __init__(self, app: ASGIApp, *, metrics: Metrics, graphql_path: str = "/graphql") -> None:
        self.app = app
        self.metrics = metrics
        self.graphql_path = graphql_path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        record = RequestRecord(request_id(scope), scope["method"], scope["path"], status=500)
        scope.setdefault("state", {})[RECORD_KEY] = record
        echoed = (_HEADER, record.request_id.encode())

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                record.status = message["status"]
                message["headers"] = [*message.get("headers", ()), echoed]
            await send(message)

        endpoint = scope["path"] == self.graphql_path
        if endpoint:
            self.metrics.in_flight += 1
        started = perf_counter()
        try:
            with CommandTally() as tally:
                await self.app(scope, receive, send_with_id)
        finally:
            record.seconds = perf_counter() - started
            record.round_trips = tally.count
            if endpoint:
                self.metrics.in_flight -= 1
                if record.graphql or _refused_request(scope["method"], record.status):
                    self.metrics.observe_request(
                        operation_name=record.operation_name,
                        operation_type=record.operation_type,
                        error_codes=record.error_codes,
                        status=record.status,
                        seconds=record.seconds,
                    )
            _log(record)


def _refused_request(method: str, status: int) -> bool:
    """A refusal of a request meant as an operation (a 413, a 415...): not a CORS preflight
    (OPTIONS, the browser's), nor the GraphiQL page's 404 when it is off (a page, not an
    operation), which docs/operating.md's metrics leave out."""
    return status >= 400 and method != "OPTIONS" and not (method == "GET" and status == 404)


def _log(record: RequestRecord) -> None:
    level = logging.ERROR if record.status >= 500 else logging.INFO
    if not logger.isEnabledFor(level):
        return
    # The path is the client's (percent-decoded): escaped, so a text line stays one line.
    words = [record.method, json.dumps(record.path)[1:-1], str(record.status)]
    words.append(f"{record.seconds * 1000:.1f}ms")
    if record.operation_type is not None:
        words.append(f"{record.operation_type} {record.operation_name or '(anonymous)'}")
    if record.error_codes:
        words.append("errors=" + ",".join(record.error_codes))
    if record.credential_refused is not None:
        words.append(f"credential_refused={json.dumps(record.credential_refused)}")
    words += [f"round_trips={record.round_trips}", f"request_id={record.request_id}"]
    logger.log(level, " ".join(words), extra=record.fields())
