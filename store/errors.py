"""What the store refuses, by type: each says what it means and what was written.

The store raises these where a write cannot happen as asked; `argument` names the input of the
store function at fault (the GraphQL argument of the same name). `schema/errors.py` maps each
type to its `extensions.code`.
"""

from __future__ import annotations

from pymongo.errors import ConnectionFailure, ExecutionTimeout, PyMongoError, WTimeoutError


class StoreError(Exception):
    """A refused write; the message says what was stored (nothing, unless it says otherwise)."""

    def __init__(self, message: str, *, argument: str | None = None) -> None:
        super().__init__(message)
        self.argument = argument


class StoredLimitReached(StoreError):
    """The write would take a document past a limit (a setting, or MongoDB's 16 MiB); nothing
    was written."""


class WriteContention(StoreError):
    """Other writers won every race for a new bucket; nothing of this call was written."""


def database_unavailable(error: BaseException) -> bool:
    """A command that timed out or found no server to run on: the database's state, not the
    request's; the request may be retried (a write it sent may or may not have applied)."""
    if isinstance(error, ConnectionFailure | ExecutionTimeout | WTimeoutError):
        return True
    return isinstance(error, PyMongoError) and error.timeout


def unavailable_reason(error: BaseException) -> str:
    """One short line for logs: PyMongo's messages end in a topology dump."""
    text = str(error).split(", Timeout:", 1)[0].split("Topology Description:", 1)[0]
    text = " ".join(text.split()) or "no answer in time"
    return f"{type(error).__name__}: {text[:200]}"
