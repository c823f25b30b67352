"""Expected errors: each carries the `extensions.code` a client can act on."""

from __future__ import annotations

from typing import Any, ClassVar


class ApiError(Exception):
    """An error the client caused or can act on; its message is shown as it is."""

    code: ClassVar[str] = "BAD_USER_INPUT"

    def __init__(self, message: str, *, argument: str | None = None) -> None:
        super().__init__(message)
        self.extensions: dict[str, Any] = {"code": self.code}
        if argument is not None:
            self.extensions["argument"] = argument


class BadUserInput(ApiError):
    code = "BAD_USER_INPUT"


class NotFound(ApiError):
    code = "NOT_FOUND"


class LimitExceeded(ApiError):
    code = "LIMIT_EXCEEDED"


class Unauthenticated(ApiError):
    code = "UNAUTHENTICATED"
