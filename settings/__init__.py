"""Every setting and named limit of arraygraph, read once from the environment."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from pymongo.errors import ConfigurationError
from pymongo.uri_parser import parse_uri

from settings.identity import IdentitySettings, identity_from_env, service_tokens_from_env
from settings.values import FLAG_VALUES as FLAG_VALUES
from settings.values import SettingsError as SettingsError
from settings.values import _flag, _int, secret

EMBEDDED_URI = "memory://"

# GraphQL request limits: each guards the server against one kind of abusive request.
MAX_QUERY_DEPTH = 12
MAX_ALIASES = 30
MAX_SELECTIONS = 500  # fields in a document, fragments spread (runtime/request/limit_rules.py)
MAX_TOKENS = 5_000
MAX_NAME_LENGTH = 256  # of an operation, alias, fragment, variable (runtime/request/limit_rules.py)
MAX_REQUEST_BYTES = 1024 * 1024
MAX_REQUEST_HEAD_BYTES = 64 * 1024  # the URL and headers (web/server/protocol.py)
MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 20
MAX_BATCH_SIZE = 1_000
MAX_NODES_PER_QUERY = 100  # ids in one `nodes(ids:)`
MAX_COST = 100_000  # values a query may answer at most, by its list sizes (runtime/limits/cost.py)
COST_VALUE_BYTES = 256  # a value longer counts one per 256 bytes (schema/facts.py)
MAX_RESPONSE_BYTES = 8 * 1024 * 1024  # an answer larger is replaced by LIMIT_EXCEEDED
# Each caller's cost a minute, per instance (resolvers/access/cost_budget.py); 0: no budget.
COST_BUDGET_PER_MINUTE = 0

# Sensors.
SENSOR_WINDOW_HOURS = 24
MAX_TITLE_LENGTH = 200
MAX_EVENT_FUTURE_SECONDS = 5 * 60
MAX_ABS_SENSOR_VALUE = 1e100  # event sums (count x value, added up) stay finite

# Users and orders.
MAX_ORDERS_PER_USER = 10_000
MAX_ORDERS_PER_CALL = 500
MAX_USERS_PER_QUERY = 100
MAX_ORDER_INFO_LENGTH = 1_000
MAX_ORDER_ID_LENGTH = 64
MAX_USER_ID_LENGTH = 128
MAX_USER_TEXT_LENGTH = 200  # userType and name

# Customers and trades.
TRADES_PER_BUCKET = 10
MAX_TRADES_PER_CALL = 100
MAX_TICKER_LENGTH = 12
MIN_TRADE_YEAR = 1970  # bucket ids hold 10-digit epoch seconds: 1970 to 2286
MAX_TRADE_YEAR = 2285

# Time series. Names become document keys; the limits keep the largest rollup document (an
# hour of minutes, every field at its longest) far below 16 MiB (docs/domains/series.md).
SERIES_NAME_PATTERN = r"[A-Za-z_][A-Za-z0-9_]{0,63}"
MAX_SERIES_NAME_LENGTH = 64  # SERIES_NAME_PATTERN's longest
MAX_TAG_VALUE_LENGTH = 128
MAX_TAGS_PER_OBSERVATION = 16
MAX_FIELDS_PER_MEASUREMENT = 32
MAX_TAG_KEYS_PER_MEASUREMENT = 64
MAX_ABS_FIELD_VALUE = 1e100  # sums of at most 2^63 such values stay finite
MIN_SERIES_YEAR = 1900
MAX_SERIES_YEAR = 2999
# A series' points are built and completed in one slice of the event loop: these keep the
# longest within target (bench/costliest/); a longer range is asked for in parts.
MAX_SERIES_POINTS = 2_500
MAX_SERIES_VALUES = 16_000  # points x fields in one answer
MAX_TAG_VALUES_PAGE = 1_000
MAX_MEASUREMENTS_PAGE = 1_000  # `measurements(first:)`: the catalogue itself has no limit

# Ingestion retries: `idempotencyKey` of recordSensorEvents, recordObservations and
# recordTrades; a retry with the same key within the TTL writes nothing (docs/errors-and-limits.md).
IDEMPOTENCY_KEY_PATTERN = r"[A-Za-z0-9_-]{1,64}"
IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60

# Chat sessions. A full page must stay below 16 MiB at the worst case (every character 4 bytes
# in UTF-8): `store/chat/chat_pages.py` checks the cap against these at start-up.
MESSAGES_PER_PAGE = 500
MAX_MESSAGE_TEXT_LENGTH = 4_000
MAX_AUTHOR_LENGTH = 100
CLIENT_MESSAGE_ID_PATTERN = r"[A-Za-z0-9_-]{1,64}"
MAX_CLIENT_MESSAGE_ID_LENGTH = 64

# Clients. `ARRAYGRAPH_ENV=production` turns introspection and GraphiQL off unless set on.
DEVELOPMENT = "development"
PRODUCTION = "production"
CORS_MAX_AGE_SECONDS = 600  # how long a browser may reuse a preflight's answer
# Automatic persisted queries: registered documents kept per instance, least recently used
# evicted first; a miss only costs the client one more request (it registers again).
APQ_CACHE_BYTES = 16 * 1024 * 1024
MAX_TRUSTED_DOCUMENTS_BYTES = 64 * 1024 * 1024  # the manifest file, read once at start-up
ORIGIN_PATTERN = r"https?://[A-Za-z0-9.\-]+(:[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?"

# Operations. Every command has a client-side deadline (PyMongo's `timeoutMS`): a database that
# stops answering fails requests with SERVICE_UNAVAILABLE instead of holding them forever.
MONGODB_TIMEOUT_MS = 10_000
STARTUP_TIMEOUT_SECONDS = 30  # how long `serve` waits for the database before giving up
SHUTDOWN_TIMEOUT_SECONDS = 10  # requests in flight get this long to finish on SIGTERM
REQUEST_READ_TIMEOUT_SECONDS = 30  # a request's head and body must arrive within this
HEAD_TIMEOUT_SECONDS = 10  # a request's head (request line, headers) must arrive within this
MAX_CONCURRENCY = 512  # requests in flight; past it, 503 (web/server/protocol.py)
MAX_CONNECTIONS = 768  # open; above MAX_CONCURRENCY, below 1024 descriptors with the MongoDB pool
KEEP_ALIVE_SECONDS = 75  # above load balancers' idle timeouts (ALB, nginx: 60 s): they close first
METRICS_OPERATIONS = 50  # distinct operation names as metric labels; then `other`
URI_SCHEMES = ("mongodb://", "mongodb+srv://")
DATABASE_NAME_FORBIDDEN = frozenset('/\\. "$*<>:|?\x00')
MAX_DATABASE_NAME_BYTES = 63

# MongoDB's own document limit, which the store sizes documents against (a server and the
# embedded engine both refuse more).
MAX_BSON_DOCUMENT_BYTES = 16 * 1024 * 1024


def _environment(env: Mapping[str, str]) -> str:
    raw = env.get("ARRAYGRAPH_ENV", "").strip().lower() or DEVELOPMENT
    if raw not in (DEVELOPMENT, PRODUCTION):
        raise SettingsError(f"ARRAYGRAPH_ENV must be {DEVELOPMENT} or {PRODUCTION}, got {raw!r}")
    return raw


def _uri(env: Mapping[str, str]) -> str:
    """`MONGODB_URI` (or `MONGODB_URI_FILE`, as a container secret holding its password is
    mounted): `mongodb://` or `mongodb+srv://` with a host, or unset/`memory://`. Never echoed
    whole in an error: it may hold a password."""
    uri = secret(env, "MONGODB_URI", "MONGODB_URI_FILE") or EMBEDDED_URI
    if uri == EMBEDDED_URI:
        return uri
    scheme = next((s for s in URI_SCHEMES if uri.startswith(s)), None)
    if scheme is None:
        given = uri.split("://", 1)[0] + "://" if "://" in uri else "no scheme"
        raise SettingsError(
            f"MONGODB_URI must start with mongodb://, mongodb+srv:// or be memory:// (got {given})"
        )
    if not uri_hosts(uri):
        raise SettingsError(f"MONGODB_URI names no host after {scheme}")
    if scheme == "mongodb://":  # strictly, as PyMongo would only warn; +srv needs DNS first
        try:
            parse_uri(uri, warn=False)
        except (ConfigurationError, ValueError) as exc:
            raise SettingsError(f"MONGODB_URI: {str(exc).splitlines()[0][:160]}") from None
    return uri


def uri_hosts(uri: str) -> str:
    """The host list of a MongoDB URI, without user name or password (for messages)."""
    rest = uri.split("://", 1)[-1]
    return rest.split("/", 1)[0].split("?", 1)[0].rpartition("@")[2]


def _database_name(env: Mapping[str, str]) -> str:
    name = env.get("ARRAYGRAPH_DB", "").strip() or "arraygraph"
    bad = sorted(DATABASE_NAME_FORBIDDEN & set(name))
    if bad or len(name.encode("utf-8")) > MAX_DATABASE_NAME_BYTES:
        raise SettingsError(
            f"ARRAYGRAPH_DB: {name!r} is not a MongoDB database name (at most "
            f'{MAX_DATABASE_NAME_BYTES} bytes, none of / \\ . space " $ * < > : | ?)'
        )
    return name


def _origins(env: Mapping[str, str]) -> tuple[str, ...]:
    """`ARRAYGRAPH_CORS_ORIGINS`: `*`, or origins as a browser sends them (scheme, host, port;
    no path, no trailing slash)."""
    origins = tuple(
        o.strip() for o in env.get("ARRAYGRAPH_CORS_ORIGINS", "").split(",") if o.strip()
    )
    for origin in origins:
        if origin != "*" and not re.fullmatch(ORIGIN_PATTERN, origin):
            raise SettingsError(
                f"ARRAYGRAPH_CORS_ORIGINS: {origin!r} is not an origin such as "
                "https://app.example.com or http://127.0.0.1:5173 (no path, no trailing slash)"
            )
    return origins


# Log lines: `auto` is text on a terminal and JSON otherwise (web/observability/logging_setup.py).
LOG_FORMATS = ("auto", "json", "text")


def _log_format(env: Mapping[str, str]) -> str:
    raw = env.get("ARRAYGRAPH_LOG_FORMAT", "").strip().lower() or "auto"
    if raw not in LOG_FORMATS:
        raise SettingsError(f"ARRAYGRAPH_LOG_FORMAT must be json, text or auto, got {raw!r}")
    return raw


@dataclass(frozen=True, slots=True)
class Settings:
    mongodb_uri: str = EMBEDDED_URI
    database: str = "arraygraph"
    api_tokens: tuple[str, ...] = field(default=(), repr=False)  # `role:token`; never logged
    max_orders_per_user: int = MAX_ORDERS_PER_USER
    trades_per_bucket: int = TRADES_PER_BUCKET
    messages_per_page: int = MESSAGES_PER_PAGE
    max_query_depth: int = MAX_QUERY_DEPTH
    max_aliases: int = MAX_ALIASES
    max_tokens: int = MAX_TOKENS
    max_request_bytes: int = MAX_REQUEST_BYTES
    max_page_size: int = MAX_PAGE_SIZE
    max_batch_size: int = MAX_BATCH_SIZE
    max_cost: int = MAX_COST
    cost_budget_per_minute: int = COST_BUDGET_PER_MINUTE
    max_response_bytes: int = MAX_RESPONSE_BYTES
    environment: str = DEVELOPMENT
    introspection: bool = True
    graphiql: bool = True
    cors_origins: tuple[str, ...] = ()
    apq: bool = True
    apq_cache_bytes: int = APQ_CACHE_BYTES
    trusted_documents: str | None = None  # the manifest's path; only its documents run
    mongodb_timeout_ms: int = MONGODB_TIMEOUT_MS
    startup_timeout_s: int = STARTUP_TIMEOUT_SECONDS
    shutdown_timeout_s: int = SHUTDOWN_TIMEOUT_SECONDS
    request_read_timeout_s: int = REQUEST_READ_TIMEOUT_SECONDS
    head_timeout_s: int = HEAD_TIMEOUT_SECONDS
    max_concurrency: int = MAX_CONCURRENCY
    max_connections: int = MAX_CONNECTIONS
    keep_alive_s: int = KEEP_ALIVE_SECONDS
    metrics_operations: int = METRICS_OPERATIONS
    log_format: str = "auto"  # json, text or auto (LOG_FORMATS)
    identity: IdentitySettings = field(default_factory=IdentitySettings)  # JWTs, anonymous

    @property
    def embedded(self) -> bool:
        return self.mongodb_uri == EMBEDDED_URI

    @property
    def auth_required(self) -> bool:
        """Whether credentials are configured: then a mutation needs an accepted one."""
        return bool(self.api_tokens) or self.identity.jwt

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        environment = _environment(env)
        production = environment == PRODUCTION
        return cls(
            mongodb_uri=_uri(env),
            database=_database_name(env),
            api_tokens=service_tokens_from_env(env),  # `role:token` or bare (admin) entries
            max_orders_per_user=_int(env, "ARRAYGRAPH_MAX_ORDERS_PER_USER", MAX_ORDERS_PER_USER),
            trades_per_bucket=_int(env, "ARRAYGRAPH_TRADES_PER_BUCKET", TRADES_PER_BUCKET),
            messages_per_page=_int(env, "ARRAYGRAPH_MESSAGES_PER_PAGE", MESSAGES_PER_PAGE),
            max_query_depth=_int(env, "ARRAYGRAPH_MAX_QUERY_DEPTH", MAX_QUERY_DEPTH),
            max_aliases=_int(env, "ARRAYGRAPH_MAX_ALIASES", MAX_ALIASES),
            max_tokens=_int(env, "ARRAYGRAPH_MAX_TOKENS", MAX_TOKENS),
            max_request_bytes=_int(env, "ARRAYGRAPH_MAX_REQUEST_BYTES", MAX_REQUEST_BYTES),
            max_page_size=_int(env, "ARRAYGRAPH_MAX_PAGE_SIZE", MAX_PAGE_SIZE),
            max_batch_size=_int(env, "ARRAYGRAPH_MAX_BATCH_SIZE", MAX_BATCH_SIZE),
            max_cost=_int(env, "ARRAYGRAPH_MAX_COST", MAX_COST),
            cost_budget_per_minute=_int(
                env, "ARRAYGRAPH_COST_BUDGET_PER_MINUTE", COST_BUDGET_PER_MINUTE, minimum=0
            ),
            max_response_bytes=_int(env, "ARRAYGRAPH_MAX_RESPONSE_BYTES", MAX_RESPONSE_BYTES),
            environment=environment,
            introspection=_flag(env, "ARRAYGRAPH_INTROSPECTION", not production),
            graphiql=_flag(env, "ARRAYGRAPH_GRAPHIQL", not production),
            cors_origins=_origins(env),
            apq=_flag(env, "ARRAYGRAPH_APQ", True),
            apq_cache_bytes=_int(env, "ARRAYGRAPH_APQ_CACHE_BYTES", APQ_CACHE_BYTES),
            trusted_documents=env.get("ARRAYGRAPH_TRUSTED_DOCUMENTS", "").strip() or None,
            mongodb_timeout_ms=_int(env, "ARRAYGRAPH_MONGODB_TIMEOUT_MS", MONGODB_TIMEOUT_MS),
            startup_timeout_s=_int(env, "ARRAYGRAPH_STARTUP_TIMEOUT_S", STARTUP_TIMEOUT_SECONDS),
            shutdown_timeout_s=_int(env, "ARRAYGRAPH_SHUTDOWN_TIMEOUT_S", SHUTDOWN_TIMEOUT_SECONDS),
            request_read_timeout_s=_int(
                env, "ARRAYGRAPH_REQUEST_READ_TIMEOUT_S", REQUEST_READ_TIMEOUT_SECONDS
            ),
            head_timeout_s=_int(env, "ARRAYGRAPH_HEAD_TIMEOUT_S", HEAD_TIMEOUT_SECONDS),
            max_concurrency=_int(env, "ARRAYGRAPH_MAX_CONCURRENCY", MAX_CONCURRENCY),
            max_connections=_int(env, "ARRAYGRAPH_MAX_CONNECTIONS", MAX_CONNECTIONS),
            keep_alive_s=_int(env, "ARRAYGRAPH_KEEP_ALIVE_S", KEEP_ALIVE_SECONDS),
            metrics_operations=_int(env, "ARRAYGRAPH_METRICS_OPERATIONS", METRICS_OPERATIONS),
            log_format=_log_format(env),
            identity=identity_from_env(env, production=production),
        )
