"""Who may call what."""

from __future__ import annotations

from typing import Any

from strawberry.permission import BasePermission

from resolvers.context import Context
from resolvers.errors import Unauthenticated


class CanWrite(BasePermission):
    """Mutations need a valid bearer token whenever ARRAYGRAPH_API_TOKENS is set."""

    message = "Authentication required: send 'Authorization: Bearer <token>'"
    error_extensions = {"code": Unauthenticated.code}  # noqa: RUF012

    def has_permission(self, source: Any, info: Any, **kwargs: Any) -> bool:
        context: Context = info.context
        return context.authenticated
