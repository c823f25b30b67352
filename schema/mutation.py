"""What every mutation is: it needs a valid bearer token whenever tokens are configured, it
sees what earlier mutations of the same request wrote, and the request notes that it ran.

Mutations run one after another; loaders cache what they read for the rest of the request, so
a loader that served an earlier mutation's payload would serve a later one a stale answer.
Each mutation therefore starts with fresh loaders.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import strawberry
from strawberry.extensions import FieldExtension
from strawberry.permission import BasePermission

from resolvers.context import Context
from resolvers.errors import Unauthenticated
from schema.facts import Declared, Work, facts

NO_CREDENTIALS = "Authentication required: send 'Authorization: Bearer <token>'"
# Says only that the header sent did not pass, never why: nothing about the valid tokens.
NOT_ACCEPTED = (
    "The credentials sent were not accepted: send 'Authorization: Bearer <token>' with a "
    "valid token"
)


class CanWrite(BasePermission):
    message = NO_CREDENTIALS

    def has_permission(self, source: Any, info: Any, **kwargs: Any) -> bool:
        context: Context = info.context
        if context.authenticated:
            return True
        # The message is the request's, so it is raised here: a permission is shared by all.
        raise Unauthenticated(NOT_ACCEPTED if context.credentials_sent else NO_CREDENTIALS)

    def on_unauthorized(self) -> None:
        raise Unauthenticated(self.message)


class FreshLoaders(FieldExtension):
    async def resolve_async(
        self, next_: Callable[..., Awaitable[Any]], source: Any, info: Any, **kwargs: Any
    ) -> Any:
        context: Context = info.context
        context.forget_loaded()
        result = await next_(source, info, **kwargs)
        context.mutations_ran.append(info.path.key)
        return result


def write_mutation(
    resolver: Callable[..., Any], *, work_units: Work | Declared, description: str | None = None
) -> Any:
    """A mutation field: tokens checked, fresh loaders; it declares what it writes besides what
    it answers (`schema/facts.py`: `NO_WORK` for a single write)."""
    return strawberry.mutation(
        resolver=resolver,
        permission_classes=[CanWrite],
        extensions=[FreshLoaders()],
        description=description,
        metadata=facts(work_units=work_units),
    )
