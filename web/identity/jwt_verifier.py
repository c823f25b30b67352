"""A bearer JWT verified by PyJWT: its algorithm on the allow-list, its key from the JWKS (or
the shared secret, for an HMAC algorithm alone), `exp` required, `nbf` and `iat` honoured,
issuer and audience the configured ones, a small leeway for clock skew. Each refusal names its
reason (web/identity/refusals.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import jwt
from jwt import PyJWK

from resolvers.errors import Unauthenticated
from resolvers.identity import Identity
from settings.identity import SHARED_SECRET_ALGORITHMS, IdentitySettings
from web.identity import refusals
from web.identity.claims import user_identity
from web.identity.jose_header import KnownHeaders
from web.identity.key_set import KeySet
from web.identity.refusals import refused

# PyJWT's refusals, most specific first (several derive from others), as reasons.
REASONS: tuple[tuple[type[Exception], str], ...] = (
    (jwt.ExpiredSignatureError, refusals.EXPIRED),
    (jwt.ImmatureSignatureError, refusals.NOT_YET_VALID),
    (jwt.InvalidIssuedAtError, refusals.NOT_YET_VALID),
    (jwt.InvalidAudienceError, refusals.WRONG_AUDIENCE),
    (jwt.InvalidIssuerError, refusals.WRONG_ISSUER),
    (jwt.InvalidSignatureError, refusals.BAD_SIGNATURE),
    (jwt.InvalidAlgorithmError, refusals.ALGORITHM_NOT_ALLOWED),
    (jwt.InvalidKeyError, refusals.ALGORITHM_NOT_ALLOWED),
)
MISSING_CLAIM_REASONS = {"aud": refusals.WRONG_AUDIENCE, "iss": refusals.WRONG_ISSUER}


def reason_of(error: jwt.PyJWTError) -> str:
    if isinstance(error, jwt.MissingRequiredClaimError):
        return MISSING_CLAIM_REASONS.get(error.claim, refusals.MALFORMED)
    return next((reason for kind, reason in REASONS if isinstance(error, kind)), refusals.MALFORMED)


class JwtVerifier:
    def __init__(
        self,
        settings: IdentitySettings,
        clock: Callable[[], datetime],
        on_key_removed: Callable[[], None],
    ) -> None:
        self.settings = settings
        self.allowed = frozenset(settings.algorithms)
        self.keys = (
            KeySet(settings.jwks_url, settings.jwks_file, clock, on_key_removed)
            if settings.jwks
            else None
        )
        # Built once: a decoder holding the options (none merged per call), and each allowed
        # algorithm's list, the only one a token naming it is verified under.
        self._decoder = jwt.PyJWT(options={"require": ["exp", "iss", "aud"]})
        self._algorithms = {algorithm: [algorithm] for algorithm in self.allowed}
        self._audience = list(settings.jwt_audience)
        self.headers = KnownHeaders()

    async def verify(self, token: str) -> Identity:
        choice = self.headers.key_choice(token)
        algorithm, kid = choice
        if not isinstance(algorithm, str) or algorithm not in self.allowed:
            raise refused(refusals.ALGORITHM_NOT_ALLOWED)
        held = self._held_key(algorithm, kid)
        # Not held: the JWKS may be fetched again first, or the key is the shared secret.
        key = held if held is not None else await self._key(algorithm, kid)
        try:
            identity = self._decoded(token, key, algorithm)
        except Unauthenticated as error:
            replacement = await self._replaced(held, kid, error)
            if replacement is None:
                raise
            identity = self._decoded(token, replacement, algorithm)
        self.headers.remember(token, choice)
        return identity

    async def _replaced(
        self, held: PyJWK | None, kid: object, error: Unauthenticated
    ) -> PyJWK | None:
        """The key a provider put in place of `held` under its `kid`, when the held one refused
        the signature: the set is fetched again (at most once a JWKS_REFRESH_SECONDS, as for
        an unknown `kid`), so a token of the new key is accepted before the timer's fetch."""
        if held is None or self.keys is None or error.reason != refusals.BAD_SIGNATURE:
            return None
        return await self.keys.replaced(kid if isinstance(kid, str) else None, held)

    def _decoded(self, token: str, key: PyJWK | str, algorithm: str) -> Identity:
        try:
            claims = self._decoder.decode(
                token,
                key,
                algorithms=self._algorithms[algorithm],
                audience=self._audience,
                issuer=self.settings.jwt_issuer,
                leeway=self.settings.leeway_seconds,
            )
        except jwt.PyJWTError as error:
            raise refused(reason_of(error)) from None
        return user_identity(claims, self.settings)

    def _held_key(self, algorithm: str, kid: object) -> PyJWK | None:
        """The JWKS key `kid` names when the set holds it, for a public-key algorithm; None
        for anything `_key` decides."""
        if self.keys is None or algorithm in SHARED_SECRET_ALGORITHMS:
            return None
        return self.keys.held(kid) if kid is None or isinstance(kid, str) else None

    async def _key(self, algorithm: str, kid: object) -> PyJWK | str:
        """The shared secret for an HMAC algorithm (on the allow-list only with a secret);
        else the JWKS key `kid` names, whose own algorithm PyJWT holds the token's to."""
        if algorithm in SHARED_SECRET_ALGORITHMS:
            secret = self.settings.jwt_secret
            if secret is None:  # the settings refuse this allow-list; never a public key
                raise refused(refusals.ALGORITHM_NOT_ALLOWED)
            return secret
        if self.keys is None or not (kid is None or isinstance(kid, str)):
            raise refused(refusals.UNKNOWN_KEY)
        found = await self.keys.key(kid)
        if found is None:
            raise refused(refusals.UNKNOWN_KEY)
        return found
