"""What a failure says the engine does not do: the `<what>` of "the embedded engine does not
support <what>" (`embedded.rules.unsupported`), read from the error the driver raised."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pymongo.errors import BulkWriteError, ClientBulkWriteException, OperationFailure

from embedded.rules import UNSUPPORTED_PREFIX

_NAMED = re.compile(re.escape(UNSUPPORTED_PREFIX) + r" (.+)", re.DOTALL)


def unsupported_named(error: BaseException) -> str:
    """The `<what>` the engine names in `error`, or "" when it names nothing it lacks."""
    found = _NAMED.match(_message(error).strip())
    return found.group(1).strip() if found else ""


def _message(error: BaseException) -> str:
    if isinstance(error, ClientBulkWriteException):
        return _message(error.error) if isinstance(error.error, BaseException) else ""
    if isinstance(error, BulkWriteError):
        write_errors: list[Mapping[str, Any]] = error.details.get("writeErrors") or [{}]
        return str(write_errors[0].get("errmsg", ""))
    if isinstance(error, OperationFailure):
        details = error.details or {}
        return str(details.get("errmsg") or error)
    return str(error)
