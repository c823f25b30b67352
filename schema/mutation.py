"""What every mutation is: it needs an identity that is not anonymous whenever credentials
(service tokens or JWTs) are configured, it sees what earlier mutations of the same request
wrote, and the request notes that it ran.

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
from resolvers.identity import NO_CREDENTIALS as NO_CREDENTIALS
from resolvers.identity import NOT_ACCEPTED as NOT_ACCEPTED
from schema.facts import Declared, Work, facts


class CanWrite(BasePermission):
    """Until the permission rules come: with credentials configured, any accepted one writes
    (a service token of any role, a valid JWT); without, anyone does, as before."""

    message = NO_CREDENTIALS

    async def has_permission(self, source: Any, info: Any, **kwargs: Any) -> bool:
        context: Context = info.context
        if not context.settings.auth_required:
            return True
        # A credential not accepted raises here, with its reason: a permission is shared by all.
        identity = await context.identity()
        if identity.is_anonymous:
            raise Unauthenticated(NO_CREDENTIALS)
        return True

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
