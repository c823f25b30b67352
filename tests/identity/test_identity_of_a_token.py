"""What a verified credential says of its caller: a service has its role; an end user has the
id of the configured claim, the known roles found at the roles claim's path, and the token's
`exp`; each has a stable key. A request without credentials is anonymous, with the role the
settings grant to everyone, if any."""

from __future__ import annotations

from pathlib import Path

from resolvers.identity import Identity
from settings import Settings
from settings.identity import IdentitySettings
from tests.support import FakeClock
from tests.support.jwks import AUDIENCE, ISSUER, claims, signing_key, write_jwks
from web.identity.authenticator import Authenticator

KEY = signing_key(kid="k")


def authenticator(tmp_path: Path, **identity: object) -> Authenticator:
    settings = Settings(
        api_tokens=("ingest:svc", "bare"),
        identity=IdentitySettings(
            jwks_file=str(write_jwks(tmp_path / "jwks.json", KEY)),
            jwt_issuer=ISSUER,
            jwt_audience=(AUDIENCE,),
            **identity,  # type: ignore[arg-type]
        ),
    )
    return Authenticator(settings, FakeClock())


async def test_an_end_user_has_the_claims_id_roles_and_exp(tmp_path: Path) -> None:
    verifier = authenticator(tmp_path, user_claim="email", roles_claim=("realm_access", "roles"))
    token_claims = claims(email="ada@example.test", realm_access={"roles": ["reader", "x"]})
    found = await verifier.identify(f"Bearer {KEY.sign(token_claims)}")
    assert found == Identity.user("ada@example.test", frozenset({"reader"}), token_claims["exp"])
    assert (found.user_id, found.is_anonymous, found.key) == (
        "ada@example.test", False, "user:ada@example.test",
    )  # fmt: skip


async def test_roles_may_be_one_string_of_names(tmp_path: Path) -> None:
    verifier = authenticator(tmp_path, roles_claim=("scope",))
    found = await verifier.identify(f"Bearer {KEY.sign(claims(scope='openid ingest admin'))}")
    assert found.roles == frozenset({"ingest", "admin"})


async def test_a_service_has_its_role_and_a_bare_token_is_admin(tmp_path: Path) -> None:
    verifier = authenticator(tmp_path)
    service = await verifier.identify("Bearer svc")
    assert (service.roles, service.key, service.user_id) == (
        frozenset({"ingest"}), "service:ingest", None,
    )  # fmt: skip
    assert (await verifier.identify("Bearer bare")).roles == frozenset({"admin"})


async def test_without_credentials_a_caller_is_anonymous(tmp_path: Path) -> None:
    assert authenticator(tmp_path).anonymous == Identity.anonymous()
    granted = authenticator(tmp_path, anonymous_role="reader").anonymous
    assert (granted.is_anonymous, granted.roles, granted.key) == (
        True, frozenset({"reader"}), "anonymous",
    )  # fmt: skip
