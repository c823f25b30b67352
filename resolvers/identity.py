"""Who is calling: the value every resolver (and, next, every permission rule) reads.

Verified in web/identity/ from the request's bearer token, once per request and only when a
resolver asks; resolvers never see a token. Three kinds: anonymous (no credential, maybe a
role the settings grant to everyone), a service (a token with its role) and an end user (a
JWT: their id, their roles, when it expires).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

ANONYMOUS = "anonymous"
SERVICE = "service"
USER = "user"

NO_CREDENTIALS = "Authentication required: send 'Authorization: Bearer <token>'"
# The same words for every refusal: `extensions.reason` says why, and nothing more is told.
NOT_ACCEPTED = (
    "The credentials sent were not accepted: send 'Authorization: Bearer <token>' with a "
    "valid token"
)


@dataclass(frozen=True, slots=True)
class Identity:
    kind: str  # ANONYMOUS, SERVICE or USER
    roles: frozenset[str] = frozenset()
    user_id: str | None = None  # an end user's, from the JWT's user claim
    expires_at: int | None = None  # the JWT's `exp`, seconds since the epoch

    @classmethod
    def anonymous(cls, role: str | None = None) -> Identity:
        return cls(ANONYMOUS, frozenset({role}) if role else frozenset())

    @classmethod
    def service(cls, role: str) -> Identity:
        return cls(SERVICE, frozenset({role}))

    @classmethod
    def user(cls, user_id: str, roles: frozenset[str], expires_at: int) -> Identity:
        return cls(USER, roles, user_id, expires_at)

    @property
    def is_anonymous(self) -> bool:
        return self.kind == ANONYMOUS

    @property
    def key(self) -> str:
        """A stable name, for what is stored per identity (idempotency keys): the same caller
        gets the same key on every request. Every token of one role is one service, so a
        rotated token (the new listed beside the old) finds what the old one stored."""
        if self.kind == USER:
            return f"{USER}:{self.user_id}"
        if self.kind == SERVICE:
            return f"{SERVICE}:{min(self.roles)}"
        return ANONYMOUS


class Authenticator(Protocol):
    """What the application gives each request's context (web/identity/authenticator.py)."""

    @property
    def anonymous(self) -> Identity:
        """The identity of a request without credentials."""

    async def identify(self, authorization: str) -> Identity:
        """The identity an `Authorization` header's value proves, or `Unauthenticated`
        (resolvers/errors.py) with its reason."""
