"""docker-compose.yml's secrets: every one a file compose mounts (under deploy/secrets/, or the
directory ARRAYGRAPH_SECRETS names), none of them a value in the file or its environment, each
read through a `_FILE` variable naming a secret its service mounts; and the app's environment,
with the secrets mounted, is one arraygraph accepts: the URI of its own MongoDB user, its
service tokens, JWTs verified with an identity provider's JWKS; deploy/compose.jwt-secret.yml
adds a shared secret, from a file too."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from settings import PRODUCTION, Settings
from tests.deploy.support import COMPOSE_FILE, ROOT, compose_file, interpolate
from tests.deploy.test_compose_file import schema_errors

SECRETS = "/run/secrets/"
JWT_SECRET_FILE = ROOT / "deploy" / "compose.jwt-secret.yml"
URI = "mongodb://arraygraph:app-password@mongodb:27017/?replicaSet=rs0&authSource=admin"
# What each secret's file holds, for the app's environment to be read with.
CONTENT = {
    "mongodb_uri": URI,
    "api_tokens": "ingest:ingest-token\nadmin:admin-token",
    "jwt_secret": "s" * 32,
}


def services(loaded: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = (loaded or compose_file({}))["services"]
    return found


def test_every_secret_is_a_file_under_the_secrets_directory() -> None:
    assert compose_file({})["secrets"] == {
        "mongodb_root_password": {"file": "./deploy/secrets/mongodb-root-password"},
        "mongodb_uri": {"file": "./deploy/secrets/mongodb-uri"},
        "api_tokens": {"file": "./deploy/secrets/api-tokens"},
    }
    moved = compose_file({"ARRAYGRAPH_SECRETS": "/srv/arraygraph"})["secrets"]
    assert moved["api_tokens"] == {"file": "/srv/arraygraph/api-tokens"}


def test_each_service_mounts_only_the_secrets_it_reads() -> None:
    mounted = {name: service.get("secrets") for name, service in services().items()}
    assert mounted == {
        "mongodb": ["mongodb_root_password", "mongodb_uri"],
        "arraygraph": ["mongodb_uri", "api_tokens"],
    }
    for name, service in services().items():
        files = {v for k, v in service["environment"].items() if k.endswith("_FILE")}
        assert files == {SECRETS + secret for secret in service["secrets"]}, name


def test_no_secret_is_a_value_in_the_file_or_its_environment() -> None:
    for name, service in services().items():
        environment = service["environment"]
        for key in environment:
            assert key.endswith("_FILE") or not re.search(
                r"PASSWORD|TOKENS|SECRET|^MONGODB_URI$", key
            ), (name, key)
    # No URI with credentials, no default that could be one: nothing but comments holds '@'.
    assert "@" not in json.dumps(compose_file())
    assert "@" not in json.dumps(yaml.safe_load(JWT_SECRET_FILE.read_text()))
    assert "/deploy/secrets/" in (ROOT / ".gitignore").read_text().splitlines()  # never committed


def _mounted(environment: dict[str, str], directory: Path) -> dict[str, str]:
    """The environment as the container sees it, each secret's file written where it points."""
    found = dict(environment)
    for key, value in environment.items():
        if value.startswith(SECRETS):
            path = directory / value.removeprefix(SECRETS)
            path.write_text(CONTENT[path.name] + "\n", encoding="utf-8")
            found[key] = str(path)
    return found


def test_the_app_reads_its_own_users_uri_and_its_tokens_from_the_secrets(tmp_path: Path) -> None:
    environment = services()["arraygraph"]["environment"]
    settings = Settings.from_env(_mounted(environment, tmp_path))
    assert settings.mongodb_uri == URI
    assert settings.api_tokens == ("ingest:ingest-token", "admin:admin-token")
    assert settings.environment == PRODUCTION
    assert not settings.identity.jwt  # no identity provider named: service tokens only


def test_an_identity_provider_is_wired_by_its_jwks_url(tmp_path: Path) -> None:
    provider = {
        "ARRAYGRAPH_JWKS_URL": "https://id.example.com/realms/shop/protocol/openid-connect/certs",
        "ARRAYGRAPH_JWT_ISSUER": "https://id.example.com/realms/shop",
        "ARRAYGRAPH_JWT_AUDIENCE": "arraygraph-api",
        "ARRAYGRAPH_JWT_ROLES_CLAIM": "realm_access.roles",
    }
    environment = services(compose_file(provider))["arraygraph"]["environment"]
    identity = Settings.from_env(_mounted(environment, tmp_path)).identity
    assert identity.jwks_url == provider["ARRAYGRAPH_JWKS_URL"]
    assert identity.jwt_issuer == provider["ARRAYGRAPH_JWT_ISSUER"]
    assert identity.jwt_audience == ("arraygraph-api",)
    assert identity.roles_claim == ("realm_access", "roles")


def _merged(base: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    """Compose's merge of a second file: mappings key by key, a service's secrets appended."""
    found = dict(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            found[key] = _merged(base[key], value)
        elif isinstance(value, list) and isinstance(base.get(key), list):
            found[key] = [*base[key], *(item for item in value if item not in base[key])]
        else:
            found[key] = value
    return found


def test_the_shared_secret_overlay_reads_the_secret_from_a_file(tmp_path: Path) -> None:
    provider = {"ARRAYGRAPH_JWT_ISSUER": "https://id.example.com", "ARRAYGRAPH_JWT_AUDIENCE": "api"}
    overlay = interpolate(yaml.safe_load(JWT_SECRET_FILE.read_text()), provider)
    merged = _merged(compose_file(provider), overlay)
    assert schema_errors(merged) == []
    assert merged["secrets"]["jwt_secret"] == {"file": "./deploy/secrets/jwt-secret"}
    app = merged["services"]["arraygraph"]
    assert app["secrets"] == ["mongodb_uri", "api_tokens", "jwt_secret"]
    identity = Settings.from_env(_mounted(app["environment"], tmp_path)).identity
    assert identity.jwt_secret == CONTENT["jwt_secret"]  # accepted in production: allowed
    assert COMPOSE_FILE.name in JWT_SECRET_FILE.read_text()  # its header says how to use both
