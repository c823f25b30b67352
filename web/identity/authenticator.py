"""A request's `Authorization` header into its identity (resolvers/identity.py's
`Authenticator`): the bearer token, tried first as a service token, then, when JWTs are
verified, as a JWT (a verified one kept, web/identity/verified_tokens.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from resolvers.access.roles import anonymous_role
from resolvers.errors import Unauthenticated
from resolvers.identity import Identity
from settings import PRODUCTION, Settings
from settings.identity import ROLES, VERIFIED_TOKENS, VERIFIED_TOKENS_BYTES, check_identity
from web.identity.bearer import bearer_token
from web.identity.jwt_verifier import JwtVerifier
from web.identity.key_set import KeySet
from web.identity.refusals import REASONS, UNKNOWN_TOKEN, refused
from web.identity.service_tokens import ServiceTokens
from web.identity.verified_tokens import VerifiedTokens, token_key


class Authenticator:
    def __init__(self, settings: Settings, clock: Callable[[], datetime]) -> None:
        identity = settings.identity
        # Settings made in code (not read from the environment) meet the same rules.
        check_identity(identity, production=settings.environment == PRODUCTION)
        # `ARRAYGRAPH_ANONYMOUS_ROLE`'s, or `admin` with nothing configured in development.
        self._anonymous = Identity.anonymous(anonymous_role(settings))
        self.configured = settings.auth_required
        self.services = ServiceTokens(settings.api_tokens)
        self.service_identities = {role: Identity.service(role) for role in ROLES}
        self.verified = VerifiedTokens(VERIFIED_TOKENS, VERIFIED_TOKENS_BYTES)
        self.jwt = JwtVerifier(identity, clock, self.verified.clear) if identity.jwt else None
        self.refusals = dict.fromkeys(REASONS, 0)  # by reason, for the metrics

    @property
    def anonymous(self) -> Identity:
        return self._anonymous

    @property
    def keys(self) -> KeySet | None:
        return self.jwt.keys if self.jwt is not None else None

    @property
    def ready(self) -> bool:
        """Whether JWTs can be verified: no JWKS to load, or a key set loaded once."""
        keys = self.keys
        return keys is None or keys.loaded

    async def identify(self, authorization: str) -> Identity:
        if not self.configured:  # nothing to verify against: a header changes nothing
            return self._anonymous
        try:
            token = bearer_token(authorization)
            # Without service tokens there is nothing to compare (in constant time or not).
            role = self.services.role_of(token) if self.services else None
            if role is not None:
                return self.service_identities[role]
            if self.jwt is None:
                raise refused(UNKNOWN_TOKEN)
            key = token_key(token)
            found = self.verified.get(key)
            if found is None:
                found = await self.jwt.verify(token)
                self.verified.put(key, found)
            return found
        except Unauthenticated as error:
            if error.reason in self.refusals:
                self.refusals[error.reason] += 1
            raise
