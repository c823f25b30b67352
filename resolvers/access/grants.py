"""What one caller holds, and how a refusal reads.

`Access` is read from the caller's identity each time a check asks (a few set lookups, the
roles' union cached). A permission a caller lacks is refused as `FORBIDDEN`, naming the field
and the permission; an anonymous caller's as `UNAUTHENTICATED` when credentials are configured
(one would help), with the words every missing credential gets.
"""

from __future__ import annotations

from dataclasses import dataclass

from resolvers.access.permissions import Permission
from resolvers.access.roles import SIGNED_IN, granted
from resolvers.errors import ApiError, Forbidden, Unauthenticated
from resolvers.identity import NO_CREDENTIALS, USER, Identity


@dataclass(frozen=True, slots=True)
class Access:
    identity: Identity
    every_record: frozenset[Permission]  # granted by roles
    own_records: frozenset[Permission]  # held as a signed-in end user, for their records

    @classmethod
    def of(cls, identity: Identity) -> Access:
        own = SIGNED_IN if identity.kind == USER else frozenset()
        return cls(identity, granted(identity.roles), own)

    def holds(self, permission: Permission) -> bool:
        return permission in self.every_record or permission in self.own_records

    def holds_any(self, permissions: frozenset[Permission]) -> bool:
        return not permissions.isdisjoint(self.every_record | self.own_records)

    def reaches_every(self, permission: Permission) -> bool:
        """Whether the permission reaches every record, not only the caller's own."""
        return permission in self.every_record

    def is_user(self, user_id: str) -> bool:
        """Whether the caller is the end user `user_id`."""
        return self.identity.kind == USER and self.identity.user_id == user_id


def refusal(
    identity: Identity, needed: Permission | frozenset[Permission], field: str, *, configured: bool
) -> ApiError | None:
    """The error refusing `field` to `identity`, or None when it holds `needed` (a permission,
    or any of a set). `configured`: whether credentials are configured."""
    access = Access.of(identity)
    if access.holds(needed) if isinstance(needed, Permission) else access.holds_any(needed):
        return None
    if identity.is_anonymous and configured:
        return Unauthenticated(NO_CREDENTIALS)
    wanted = needed if isinstance(needed, Permission) else "a read permission"
    return Forbidden(f"{field}: not allowed: it needs {wanted}, which this identity lacks")
