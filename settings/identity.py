"""Who a caller may be: service tokens with a role each, bearer JWTs (keys from a JWKS or a
shared secret), the role of anonymous callers. Read once at start-up; every value's shape is
checked here, so verification (web/identity/) never meets a setting it cannot use."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from ipaddress import ip_address
from pathlib import Path
from urllib.parse import urlsplit

from settings.values import SettingsError, _flag, _int, secret

# The roles a service token, a JWT or anonymous callers may hold; the permission rules map
# each to what it may read and write. A token listed without a role is `admin`, as every token
# was before roles came.
ROLES = ("reader", "ingest", "admin")
BARE_TOKEN_ROLE = "admin"
# RFC 6750's b64token: what an `Authorization: Bearer` header can carry as it is.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
PUBLIC_KEY_ALGORITHMS = frozenset(
    {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}
)
SHARED_SECRET_ALGORITHMS = frozenset({"HS256", "HS384", "HS512"})
DEFAULT_PUBLIC_KEY_ALGORITHMS = ("RS256", "ES256", "EdDSA")
DEFAULT_SHARED_SECRET_ALGORITHMS = ("HS256",)
MIN_SECRET_BYTES = 32  # HS256's output size: RFC 7518 (3.2) asks a key at least as long
SECRET_BYTES = {"HS256": MIN_SECRET_BYTES, "HS384": 48, "HS512": 64}  # each one's output size
JWT_LEEWAY_SECONDS = 30  # clock skew forgiven on `exp`, `nbf` and `iat`
MAX_JWT_LEEWAY_SECONDS = 300
# Verification (web/identity/). A bearer token longer is refused before it is parsed.
MAX_BEARER_TOKEN_BYTES = 8 * 1024
# Verified JWTs kept, keyed by their SHA-256, so a signature is checked once per token: bounded
# in count and in bytes (what each entry holds), least recently used out first.
VERIFIED_TOKENS = 10_000
VERIFIED_TOKENS_BYTES = 8 * 1024 * 1024
MAX_USER_ID_CLAIM_LENGTH = 256
# The JWKS: fetched at start-up; again on a token naming a key it lacks, at most once per
# JWKS_REFRESH_SECONDS; again every JWKS_LIFE_SECONDS, so a key removed at the provider stops
# verifying; every JWKS_RETRY_SECONDS while no key set was ever loaded (/readyz says so).
JWKS_REFRESH_SECONDS = 60
JWKS_LIFE_SECONDS = 300
JWKS_RETRY_SECONDS = 10
JWKS_FETCH_TIMEOUT_SECONDS = 5  # each read's, and the body's in all
MAX_JWKS_BYTES = 1024 * 1024  # a provider's set is a few keys of a kilobyte or so each
CLAIM_NAME = re.compile(r"[^\s.]{1,256}")  # namespaced claims (https://...) hold '/' and ':'
LOOPBACK_NAMES = frozenset({"localhost"})


@dataclass(frozen=True, slots=True)
class ServiceToken:
    role: str
    token: str = field(repr=False)  # never in a log line


@dataclass(frozen=True, slots=True)
class IdentitySettings:
    """Bearer JWTs and anonymous callers; service tokens are `Settings.api_tokens`."""

    jwks_url: str | None = None
    jwks_file: str | None = None
    jwt_secret: str | None = field(default=None, repr=False)
    jwt_issuer: str | None = None
    jwt_audience: tuple[str, ...] = ()
    jwt_algorithms: tuple[str, ...] = ()  # empty: the defaults of the keys configured
    user_claim: str = "sub"
    roles_claim: tuple[str, ...] = ()  # a dotted path, split: ("realm_access", "roles")
    leeway_seconds: int = JWT_LEEWAY_SECONDS
    anonymous_role: str | None = None
    allow_shared_secret: bool = False  # in production mode, a shared secret needs this

    @property
    def jwks(self) -> bool:
        return self.jwks_url is not None or self.jwks_file is not None

    @property
    def jwt(self) -> bool:
        """Whether bearer JWTs are verified at all."""
        return self.jwks or self.jwt_secret is not None

    @property
    def algorithms(self) -> tuple[str, ...]:
        """The allow-list: the one set, or the defaults of the keys configured."""
        if self.jwt_algorithms:
            return self.jwt_algorithms
        found: tuple[str, ...] = ()
        if self.jwks:
            found += DEFAULT_PUBLIC_KEY_ALGORITHMS
        if self.jwt_secret is not None:
            found += DEFAULT_SHARED_SECRET_ALGORITHMS
        return found


def service_tokens(entries: tuple[str, ...]) -> tuple[ServiceToken, ...]:
    """`role:token` or a bare token (`admin`) for each entry; the token is never echoed."""
    found: list[ServiceToken] = []
    for number, entry in enumerate(entries, 1):
        role, colon, token = entry.rpartition(":") if ":" in entry else ("", "", entry)
        role = role.strip() if colon else BARE_TOKEN_ROLE
        if role not in ROLES:
            # Not echoed: what is before the last ':' may hold a token (two entries apart by
            # a space, or a token with a ':').
            raise SettingsError(
                f"ARRAYGRAPH_API_TOKENS: entry {number}'s role (before its last ':') is none "
                f"of {', '.join(ROLES)} (role:token, or a bare token for admin)"
            )
        if not TOKEN_PATTERN.fullmatch(token.strip()):
            raise SettingsError(
                f"ARRAYGRAPH_API_TOKENS: entry {number}'s token is not a bearer token "
                "(letters, digits and -._~+/ then any '=')"
            )
        found.append(ServiceToken(role, token.strip()))
    return tuple(found)


def service_tokens_from_env(env: Mapping[str, str]) -> tuple[str, ...]:
    """`ARRAYGRAPH_API_TOKENS` (or `_FILE`): entries separated by commas or lines, checked."""
    raw = secret(env, "ARRAYGRAPH_API_TOKENS", "ARRAYGRAPH_API_TOKENS_FILE") or ""
    entries = tuple(e.strip() for e in re.split(r"[,\n]", raw) if e.strip())
    service_tokens(entries)
    return entries


def _role(env: Mapping[str, str], name: str) -> str | None:
    raw = env.get(name, "").strip()
    if raw and raw not in ROLES:
        raise SettingsError(f"{name} must be one of {', '.join(ROLES)}, got {raw[:32]!r}")
    return raw or None


def _jwks_url(env: Mapping[str, str]) -> str | None:
    """https://, or http:// to this machine only: keys fetched in clear could be replaced."""
    raw = env.get("ARRAYGRAPH_JWKS_URL", "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise SettingsError("ARRAYGRAPH_JWKS_URL must be an https:// URL with a host")
    if parts.scheme == "http" and not _loopback(parts.hostname):
        raise SettingsError(
            "ARRAYGRAPH_JWKS_URL: http:// is for a server on this machine; use https://"
        )
    return raw


def _loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def _jwks_file(env: Mapping[str, str]) -> str | None:
    raw = env.get("ARRAYGRAPH_JWKS_FILE", "").strip()
    if raw and not Path(raw).is_file():
        raise SettingsError(f"ARRAYGRAPH_JWKS_FILE: {raw} is not a file")
    return raw or None


def _list(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in env.get(name, "").split(",") if part.strip())


def _claim_path(env: Mapping[str, str], name: str, default: str) -> tuple[str, ...]:
    raw = env.get(name, "").strip() or default
    path = tuple(raw.split(".")) if raw else ()
    if any(not CLAIM_NAME.fullmatch(part) for part in path):
        raise SettingsError(f"{name} must be a claim name, or names joined by '.', got {raw!r}")
    return path


def identity_from_env(env: Mapping[str, str], *, production: bool) -> IdentitySettings:
    user_claim = _claim_path(env, "ARRAYGRAPH_JWT_USER_CLAIM", "sub")
    if len(user_claim) != 1:
        raise SettingsError("ARRAYGRAPH_JWT_USER_CLAIM must be one claim's name (no '.')")
    found = IdentitySettings(
        jwks_url=_jwks_url(env),
        jwks_file=_jwks_file(env),
        jwt_secret=secret(env, "ARRAYGRAPH_JWT_SECRET", "ARRAYGRAPH_JWT_SECRET_FILE"),
        jwt_issuer=env.get("ARRAYGRAPH_JWT_ISSUER", "").strip() or None,
        jwt_audience=_list(env, "ARRAYGRAPH_JWT_AUDIENCE"),
        jwt_algorithms=_list(env, "ARRAYGRAPH_JWT_ALGORITHMS"),
        user_claim=user_claim[0],
        roles_claim=_claim_path(env, "ARRAYGRAPH_JWT_ROLES_CLAIM", ""),
        leeway_seconds=_int(env, "ARRAYGRAPH_JWT_LEEWAY_SECONDS", JWT_LEEWAY_SECONDS, minimum=0),
        anonymous_role=_role(env, "ARRAYGRAPH_ANONYMOUS_ROLE"),
        allow_shared_secret=_flag(env, "ARRAYGRAPH_JWT_ALLOW_SHARED_SECRET", False),
    )
    check_identity(found, production=production)
    return found


def check_identity(found: IdentitySettings, *, production: bool) -> None:
    """The rules between values: one key source of a kind, issuer and audience once JWTs are
    on, an allow-list the keys can serve (never `none`, never HMAC with a public key)."""
    if found.jwks_url is not None and found.jwks_file is not None:
        raise SettingsError("ARRAYGRAPH_JWKS_URL and ARRAYGRAPH_JWKS_FILE are both set: set one")
    if found.leeway_seconds > MAX_JWT_LEEWAY_SECONDS:
        raise SettingsError(
            f"ARRAYGRAPH_JWT_LEEWAY_SECONDS must be at most {MAX_JWT_LEEWAY_SECONDS}, "
            f"got {found.leeway_seconds}"
        )
    if found.jwt_secret is not None:
        _check_secret(found, found.jwt_secret, production=production)
    if not found.jwt:
        return
    for name, value in (("ISSUER", found.jwt_issuer), ("AUDIENCE", found.jwt_audience)):
        if not value:
            raise SettingsError(
                f"ARRAYGRAPH_JWT_{name} must be set once JWTs are verified "
                "(ARRAYGRAPH_JWKS_URL, ARRAYGRAPH_JWKS_FILE or ARRAYGRAPH_JWT_SECRET)"
            )
    _check_algorithms(found)


def _check_secret(found: IdentitySettings, value: str, *, production: bool) -> None:
    if production and not found.allow_shared_secret:
        raise SettingsError(
            "ARRAYGRAPH_JWT_SECRET: a shared secret lets whoever verifies tokens also sign them; "
            "in production use ARRAYGRAPH_JWKS_URL, or set ARRAYGRAPH_JWT_ALLOW_SHARED_SECRET=1"
        )
    # As long as the output of the longest HMAC algorithm allowed.
    least, algorithm = max(
        (SECRET_BYTES[name], name) for name in (*found.algorithms, "HS256") if name in SECRET_BYTES
    )
    if len(value.encode("utf-8")) < least:
        raise SettingsError(
            f"ARRAYGRAPH_JWT_SECRET must be at least {least} bytes for {algorithm} (RFC 7518, 3.2)"
        )


def _check_algorithms(found: IdentitySettings) -> None:
    name = "ARRAYGRAPH_JWT_ALGORITHMS"
    for algorithm in found.jwt_algorithms:
        if algorithm.lower() == "none":
            raise SettingsError(f"{name}: 'none' would accept unsigned tokens; it is never allowed")
        if algorithm in SHARED_SECRET_ALGORITHMS:
            if found.jwt_secret is None:
                raise SettingsError(
                    f"{name}: {algorithm} needs ARRAYGRAPH_JWT_SECRET; a public key never "
                    "verifies an HMAC algorithm"
                )
        elif algorithm in PUBLIC_KEY_ALGORITHMS:
            if not found.jwks:
                raise SettingsError(
                    f"{name}: {algorithm} needs ARRAYGRAPH_JWKS_URL or ARRAYGRAPH_JWKS_FILE"
                )
        else:
            known = sorted(PUBLIC_KEY_ALGORITHMS | SHARED_SECRET_ALGORITHMS)
            raise SettingsError(f"{name}: unknown {algorithm[:32]!r}; known: {', '.join(known)}")
