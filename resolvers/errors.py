"""Errors a client caused or can act on, raised by resolvers.

Each says what it means by its type; `schema/errors.py` maps types to `extensions.code` in one
table. The message is shown as it is, so it names the argument at fault; `argument` repeats
that name for clients that read `extensions.argument`.
"""

from __future__ import annotations

from runtime.errors import SHOWN_CHARACTERS as SHOWN_CHARACTERS
from runtime.errors import shown as shown


class ApiError(Exception):
    """An expected error: the client can correct its request or act on the answer."""

    def __init__(self, message: str, *, argument: str | None = None) -> None:
        super().__init__(message)
        self.argument = argument


class BadUserInput(ApiError):
    """An argument outside its documented shape or range; nothing was written."""


class NotFound(ApiError):
    """The object a mutation names does not exist; nothing was written."""


class LimitExceeded(ApiError):
    """A limit of the request (or of what one call may store) was passed; nothing was written."""


class Unauthenticated(ApiError):
    """A credential missing where one is required, or not accepted: `reason` says why, in
    words a client can act on (`extensions.reason`), never anything of the credential."""

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason
