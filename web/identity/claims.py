"""An end user's identity from a verified JWT's claims: the user id from one claim, the roles
from a claim path (`realm_access.roles`: a list of names, or one string of names separated by
spaces, as `scope` is). Roles arraygraph does not know are left out: they grant nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from resolvers.identity import Identity
from settings.identity import MAX_USER_ID_CLAIM_LENGTH, ROLES, IdentitySettings
from web.identity.refusals import MALFORMED, refused

KNOWN_ROLES = frozenset(ROLES)


def user_identity(claims: Mapping[str, Any], settings: IdentitySettings) -> Identity:
    user_id = claims.get(settings.user_claim)
    if not isinstance(user_id, str) or not 0 < len(user_id) <= MAX_USER_ID_CLAIM_LENGTH:
        raise refused(MALFORMED)  # no user to name: the token is not one this server reads
    return Identity.user(user_id, roles_in(claims, settings.roles_claim), int(claims["exp"]))


def roles_in(claims: Mapping[str, Any], path: tuple[str, ...]) -> frozenset[str]:
    if not path:
        return frozenset()
    value: Any = claims
    for name in path:
        # Claims are JSON: an object is a dict (no abstract Mapping check per token).
        if not isinstance(value, dict):
            return frozenset()
        value = value.get(name)
    names = value.split() if isinstance(value, str) else value
    if not isinstance(names, list):
        return frozenset()
    return frozenset(name for name in names if isinstance(name, str) and name in KNOWN_ROLES)
