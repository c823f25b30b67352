"""Roles to permissions: the one table of who may do what.

A role grants its permissions for every record. A signed-in end user (a JWT) holds `SIGNED_IN`
besides whatever roles their token names, for their own records only: their own `user` and its
orders (`userId` = their id), and the chat sessions they are a member of.

Anonymous callers hold the role `anonymous_role` answers: `ARRAYGRAPH_ANONYMOUS_ROLE` when set;
else, in development with no credentials configured (nothing could prove another caller),
`admin`, as before permissions; else none.
"""

from __future__ import annotations

import functools

from resolvers.access.permissions import Permission
from settings import PRODUCTION, Settings

P = Permission
ROLE_PERMISSIONS: dict[str, frozenset[Permission]] = {
    "reader": frozenset({P.SENSORS_READ, P.SERIES_READ, P.TRADES_READ}),
    # Every ingestion: orders on behalf of any user, messages on behalf of any author (bridges).
    "ingest": frozenset(
        {P.SENSORS_WRITE, P.SERIES_WRITE, P.TRADES_WRITE, P.ORDERS_WRITE, P.CHAT_WRITE}
    ),
    "admin": frozenset(Permission),
}
SIGNED_IN: frozenset[Permission] = frozenset(
    {P.ORDERS_READ, P.ORDERS_WRITE, P.CHAT_READ, P.CHAT_WRITE, P.CHAT_OWN}
)
OPEN_ROLE = "admin"  # anonymous callers' when nothing is configured, in development


@functools.cache
def granted(roles: frozenset[str]) -> frozenset[Permission]:
    """What the roles grant together, for every record (unknown names grant nothing)."""
    found: frozenset[Permission] = frozenset()
    for role in roles:
        found |= ROLE_PERMISSIONS.get(role, frozenset())
    return found


def is_open(settings: Settings) -> bool:
    """Development with no credentials configured and no anonymous role: every caller is
    anonymous, and may do everything (the start-up log says so)."""
    return (
        settings.environment != PRODUCTION
        and not settings.auth_required
        and settings.identity.anonymous_role is None
    )


def anonymous_role(settings: Settings) -> str | None:
    """The role of a caller without credentials."""
    if settings.identity.anonymous_role is not None:
        return settings.identity.anonymous_role
    return OPEN_ROLE if is_open(settings) else None
