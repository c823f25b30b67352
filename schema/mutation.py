"""What every mutation is: it declares the permission it needs (checked before it runs:
schema/permissions.py), it sees what earlier mutations of the same request wrote, and the
request notes that it ran.

Mutations run one after another; loaders cache what they read for the rest of the request, so
a loader that served an earlier mutation's payload would serve a later one a stale answer.
Each mutation therefore starts with fresh loaders.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import strawberry
from strawberry.extensions import FieldExtension

from resolvers.access.permissions import Permission
from resolvers.context import Context
from resolvers.identity import NO_CREDENTIALS as NO_CREDENTIALS
from resolvers.identity import NOT_ACCEPTED as NOT_ACCEPTED
from schema.facts import Declared, Work, facts


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
    resolver: Callable[..., Any],
    *,
    permission: Permission,
    work_units: Work | Declared,
    description: str | None = None,
) -> Any:
    """A mutation field: its permission checked, fresh loaders; it declares what it writes
    besides what it answers (`schema/facts.py`: `NO_WORK` for a single write)."""
    return strawberry.mutation(
        resolver=resolver,
        extensions=[FreshLoaders()],
        description=description,
        metadata=facts(work_units=work_units, permission=permission),
    )
