"""The fuzz oracle: what every answer must be, whatever the server was sent.

- the status is below 500 (a 5xx is a failure of ours, whatever the request);
- the body is a JSON object holding `data` or `errors`;
- every error has a message and a string `extensions.code`, never `INTERNAL_SERVER_ERROR`;
- no error carries exception text: a Python exception's name or message, a stack, the
  driver's or BSON's words (text the request itself sent, echoed in a message, excepted).

The other two checks, that the server still answers `/healthz` and that a rejected mutation
wrote nothing, need the server and the database: `tests/fuzz/harness.py` runs them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

# A Python exception leaking into an answer, by the marks it leaves in text.
EXCEPTION_TEXT = re.compile(
    "|".join(
        [
            r"Traceback \(most recent call last\)",
            r'File "[^"]*", line \d+',
            r"\b[A-Z][A-Za-z]*(?:Error|Exception|Warning)\b",
            r"\b(?:StopIteration|StopAsyncIteration|GeneratorExit|KeyboardInterrupt)\b",
            r"\b(?:pymongo|bson|mongomock\w*|motor|strawberry|graphql\.\w+)\b",
            r"\b(?:InvalidDocument|OperationFailure|DuplicateKey\w*|BulkWrite\w*)\b",
            r"\bNoneType\b",
            r"object has no attribute",
            r"is not subscriptable",
            r"object is not (?:iterable|callable)",
            r"unsupported operand type",
            r"\d+ positional arguments?",
            r"unexpected keyword argument",
            r"invalid literal for int\(\)",
            r"could not convert string to float",
            r"codec can't (?:en|de)code",
            r"surrogates not allowed",
            r"maximum recursion depth",
            r"index out of range",
            r"Invalid isoformat string",
            r"arg is an empty sequence",
            r"<[A-Za-z_][\w.]* object at 0x[0-9a-fA-F]+>",
        ]
    )
)
INTERNAL = "INTERNAL_SERVER_ERROR"


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: status, content type, the text, and the JSON it parsed to (or None)."""

    status: int
    content_type: str
    text: str
    body: Any


def parse(status: int, content_type: str, text: str) -> Answer:
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    return Answer(status=status, content_type=content_type, text=text, body=body)


def check(answer: Answer, sent: str = "") -> dict[str, Any]:
    """The answer's JSON body, once every check of the oracle passed (AssertionError if not).

    `sent` is what the request carried (document, variables, ...): exception-like words found
    in it are the client's own, echoed back, and do not count.
    """
    shown = f"status {answer.status}: {answer.text[:2_000]!r}"
    assert answer.status < 500, f"a 5xx answer: {shown}"
    assert answer.content_type.startswith("application/json"), f"not JSON: {shown}"
    body = answer.body
    assert isinstance(body, dict), f"the body is not a JSON object: {shown}"
    assert "data" in body or "errors" in body, f"neither data nor errors: {shown}"
    errors = body.get("errors", [])
    assert isinstance(errors, list), f"errors is not a list: {shown}"
    for error in errors:
        _check_error(error, sent, shown)
    return body


def _check_error(error: Any, sent: str, shown: str) -> None:
    assert isinstance(error, dict), f"an error is not an object: {shown}"
    message = error.get("message")
    assert isinstance(message, str), f"an error without a message: {shown}"
    extensions = error.get("extensions")
    assert isinstance(extensions, dict), f"an error without extensions: {shown}"
    code = extensions.get("code")
    assert isinstance(code, str) and code, f"an error without extensions.code: {shown}"
    assert code != INTERNAL, f"INTERNAL_SERVER_ERROR: {shown}"
    leaked = exception_text(message + " " + json.dumps(extensions, ensure_ascii=False), sent)
    assert leaked is None, f"exception text {leaked!r} in an error: {shown}"


def exception_text(text: str, sent: str = "") -> str | None:
    """The first exception-like words in `text` that `sent` does not hold, or None."""
    for match in EXCEPTION_TEXT.finditer(text):
        if match.group(0) not in sent:
            return match.group(0)
    return None


def codes(body: dict[str, Any]) -> list[str]:
    return [str(error["extensions"]["code"]) for error in body.get("errors", [])]
