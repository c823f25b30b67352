"""Who may call what: mutations need a valid bearer token whenever tokens are configured."""

from __future__ import annotations

from typing import Any

from strawberry.permission import BasePermission

from resolvers.context import Context
from resolvers.errors import Unauthenticated


class CanWrite(BasePermission):
    message = "Authentication required: send 'Authorization: Bearer <token>'"

    def has_permission(self, source: Any, info: Any, **kwargs: Any) -> bool:
        context: Context = info.context
        return context.authenticated

    def on_unauthorized(self) -> None:
        raise Unauthenticated(self.message)


WRITE: list[type[BasePermission]] = [CanWrite]  # the permission classes of every mutation
