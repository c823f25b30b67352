"""The bound on an answer's size: an encoded answer over `ARRAYGRAPH_MAX_RESPONSE_BYTES` is
replaced by one LIMIT_EXCEEDED error (the cost limit, `runtime/limits/cost.py`, bounds the work
first).

The answer is measured once encoded, so an operation over the bound has run: a query's work is
lost, and a mutation's writes stand. Its error then names the mutation fields that ran (their
response keys, in `extensions.mutationsRan`), so that the client knows what was stored and can
read it back with a smaller selection instead of sending the call again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any


def bounded_response(body: bytes, limit: int, *, mutations_ran: Sequence[str] = ()) -> bytes:
    """`body`, or a LIMIT_EXCEEDED error in its place when it is over `limit` bytes; a
    mutation's answer names the fields that ran (response keys): their writes are stored."""
    if len(body) <= limit:
        return body
    message = (
        f"the answer of {len(body)} bytes exceeds ARRAYGRAPH_MAX_RESPONSE_BYTES {limit}; "
        "ask for fewer or smaller pages"
    )
    extensions: dict[str, Any] = {"code": "LIMIT_EXCEEDED"}
    if mutations_ran:
        message += (
            f"; these mutations ran and what they wrote is stored: {', '.join(mutations_ran)}"
        )
        extensions["mutationsRan"] = list(mutations_ran)
    error = {"message": message, "extensions": extensions}
    return json.dumps({"data": None, "errors": [error]}).encode()


def bounded_request_errors(
    response: dict[str, Any], limit: int, encode: Callable[[object], bytes]
) -> bytes:
    """A request error's answer (nothing ran), encoded by `encode`; when over `limit` bytes,
    its first errors that fit in half of it and one LIMIT_EXCEEDED error saying how many were
    left out: the errors stay the client's to read, and no `data: null` says that the
    operation ran."""
    body = encode(response)
    if len(body) <= limit:
        return body
    errors = response["errors"]
    kept: list[Any] = []
    size = 0
    for error in errors:
        size += len(encode(error)) + 1
        if size > limit // 2:
            break
        kept.append(error)
    note = {
        "message": f"{len(errors) - len(kept)} more errors left out: all of them exceed "
        f"ARRAYGRAPH_MAX_RESPONSE_BYTES {limit}",
        "extensions": {"code": "LIMIT_EXCEEDED"},
    }
    return encode({**response, "errors": [*kept, note]})
