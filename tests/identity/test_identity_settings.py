"""Every identity setting's shape is checked at start-up: a value that cannot be used stops
the start with one line naming the variable (exit status 2), and never echoes a secret."""

from __future__ import annotations

from pathlib import Path

import pytest

import cli
from app import create_app
from settings import Settings, SettingsError
from settings.identity import IdentitySettings
from tests.support.jwks import AUDIENCE, ISSUER

SECRET = "s" * 40
JWT = {"ARRAYGRAPH_JWT_ISSUER": ISSUER, "ARRAYGRAPH_JWT_AUDIENCE": AUDIENCE}
JWKS = {"ARRAYGRAPH_JWKS_URL": "https://id.example.test/jwks.json", **JWT}


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"ARRAYGRAPH_API_TOKENS": "writer:tok"}, "ARRAYGRAPH_API_TOKENS: entry 1's role"),
        ({"ARRAYGRAPH_API_TOKENS": "ingest:has space"}, "is not a bearer token"),
        ({"ARRAYGRAPH_JWKS_URL": "https://id.example.test/j"}, "ARRAYGRAPH_JWT_ISSUER must be set"),
        ({"ARRAYGRAPH_JWKS_URL": "https://i.test/j", "ARRAYGRAPH_JWT_ISSUER": "i"},
         "ARRAYGRAPH_JWT_AUDIENCE must be set"),
        ({**JWKS, "ARRAYGRAPH_JWKS_URL": "http://id.example.test/j"}, "use https://"),
        ({**JWKS, "ARRAYGRAPH_JWKS_URL": "id.example.test/j"}, "ARRAYGRAPH_JWKS_URL must be"),
        ({**JWKS, "ARRAYGRAPH_JWKS_FILE": "/no/such/jwks.json"}, "ARRAYGRAPH_JWKS_FILE"),
        ({**JWKS, "ARRAYGRAPH_JWT_ALGORITHMS": "none"}, "'none' would accept unsigned tokens"),
        ({**JWKS, "ARRAYGRAPH_JWT_ALGORITHMS": "RS256,HS256"}, "a public key never verifies"),
        ({**JWKS, "ARRAYGRAPH_JWT_ALGORITHMS": "RS1"}, "ARRAYGRAPH_JWT_ALGORITHMS: unknown"),
        ({**JWT, "ARRAYGRAPH_JWT_SECRET": SECRET, "ARRAYGRAPH_JWT_ALGORITHMS": "ES256"},
         "ES256 needs ARRAYGRAPH_JWKS_URL"),
        ({**JWT, "ARRAYGRAPH_JWT_SECRET": "short"}, "at least 32 bytes"),
        ({**JWT, "ARRAYGRAPH_JWT_SECRET": SECRET, "ARRAYGRAPH_JWT_ALGORITHMS": "HS256,HS512"},
         "at least 64 bytes for HS512"),
        ({**JWKS, "ARRAYGRAPH_JWT_LEEWAY_SECONDS": "301"}, "at most 300"),
        ({**JWKS, "ARRAYGRAPH_JWT_LEEWAY_SECONDS": "-1"}, "at least 0"),
        ({**JWKS, "ARRAYGRAPH_JWT_ROLES_CLAIM": "realm_access..roles"}, "ROLES_CLAIM must be"),
        ({**JWKS, "ARRAYGRAPH_JWT_USER_CLAIM": "a.b"}, "USER_CLAIM must be one claim"),
        ({"ARRAYGRAPH_ANONYMOUS_ROLE": "guest"}, "ARRAYGRAPH_ANONYMOUS_ROLE must be one of"),
        ({"ARRAYGRAPH_API_TOKENS": "t", "ARRAYGRAPH_API_TOKENS_FILE": "/x"}, "set one of them"),
    ],
)  # fmt: skip
def test_a_value_that_cannot_be_used_is_refused_naming_its_variable(
    env: dict[str, str], named: str
) -> None:
    with pytest.raises(SettingsError, match=named.replace(".", r"\.")):
        Settings.from_env(env)


@pytest.mark.parametrize(
    "tokens",
    [
        "owner:very-secret-token",
        # Two entries on one line, apart by a space: the first's token is before the last ':'.
        "ingest:very-secret-token reader:other-token",
        "very-secret-token:x",  # a secret with a ':' in it, given as a bare token
    ],
)
def test_a_refusal_never_echoes_the_secret(tokens: str) -> None:
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"ARRAYGRAPH_API_TOKENS": tokens})
    assert "secret" not in str(refused.value)


def test_a_shared_secret_is_refused_in_production_unless_allowed(tmp_path: Path) -> None:
    secret = tmp_path / "jwt-secret"
    secret.write_text(SECRET + "\n")
    env = {**JWT, "ARRAYGRAPH_ENV": "production", "ARRAYGRAPH_JWT_SECRET_FILE": str(secret)}
    with pytest.raises(SettingsError, match="ARRAYGRAPH_JWT_ALLOW_SHARED_SECRET"):
        Settings.from_env(env)
    allowed = Settings.from_env({**env, "ARRAYGRAPH_JWT_ALLOW_SHARED_SECRET": "1"})
    assert allowed.identity.jwt_secret == SECRET
    assert allowed.identity.algorithms == ("HS256",)


def test_defaults_follow_the_keys_configured() -> None:
    identity = Settings.from_env({**JWKS, "ARRAYGRAPH_JWT_ROLES_CLAIM": "realm_access.roles"})
    assert identity.identity.algorithms == ("RS256", "ES256", "EdDSA")
    assert identity.identity.roles_claim == ("realm_access", "roles")
    assert (identity.identity.user_claim, identity.identity.leeway_seconds) == ("sub", 30)
    assert identity.auth_required


def test_serve_refuses_to_start_without_an_issuer_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ARRAYGRAPH_JWKS_URL", "https://id.example.test/jwks.json")
    monkeypatch.delenv("ARRAYGRAPH_JWT_ISSUER", raising=False)
    assert cli.main(["serve"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("arraygraph: ARRAYGRAPH_JWT_ISSUER must be set")


def test_settings_made_in_code_meet_the_same_rules() -> None:
    unchecked = IdentitySettings(jwks_url="https://id.example.test/jwks.json")
    with pytest.raises(SettingsError, match="ARRAYGRAPH_JWT_ISSUER must be set"):
        create_app(Settings(identity=unchecked))
