"""The `arraygraph` command: `arraygraph serve`, `arraygraph schema`, `arraygraph migrate`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.metadata
import ipaddress
import logging.config
import socket
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from settings import Settings, SettingsError
from web.observability.logging_setup import uvicorn_log_config
from web.server.listening import CannotListen, ReadyServer, address, bind
from web.server.protocol import server_options

if TYPE_CHECKING:
    from store.database import Database
    from web.state import AppState


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


# Every variable the settings package reads (a test keeps the two lists equal), for `--help`.
ENVIRONMENT = {
    "MONGODB_URI": "mongodb://... or mongodb+srv://... (unset or memory://: embedded engine)",
    "MONGODB_URI_FILE": "a file holding MONGODB_URI (a container secret: it holds a password)",
    "ARRAYGRAPH_DB": "database name (arraygraph)",
    "ARRAYGRAPH_API_TOKENS": "comma-separated role:token (a bare token: admin); mutations need one",
    "ARRAYGRAPH_API_TOKENS_FILE": "a file holding ARRAYGRAPH_API_TOKENS (a container secret)",
    "ARRAYGRAPH_JWKS_URL": "https:// URL of the identity provider's JWKS: bearer JWTs verified",
    "ARRAYGRAPH_JWKS_FILE": "a JWKS file, instead of a URL",
    "ARRAYGRAPH_JWT_SECRET": "HS256 shared secret (production: with ..._ALLOW_SHARED_SECRET=1)",
    "ARRAYGRAPH_JWT_SECRET_FILE": "a file holding ARRAYGRAPH_JWT_SECRET",
    "ARRAYGRAPH_JWT_ALLOW_SHARED_SECRET": "on/off: a shared secret in production mode (off)",
    "ARRAYGRAPH_JWT_ISSUER": "the `iss` every JWT must carry (required with JWTs)",
    "ARRAYGRAPH_JWT_AUDIENCE": "comma-separated: a JWT's `aud` must hold one (required with JWTs)",
    "ARRAYGRAPH_JWT_ALGORITHMS": "allow-list (RS256,ES256,EdDSA with a JWKS; HS256 with a secret)",
    "ARRAYGRAPH_JWT_USER_CLAIM": "the claim holding the user id (sub)",
    "ARRAYGRAPH_JWT_ROLES_CLAIM": "dotted path of the roles claim, e.g. realm_access.roles",
    "ARRAYGRAPH_JWT_LEEWAY_SECONDS": "clock skew forgiven on exp, nbf and iat (30)",
    "ARRAYGRAPH_ANONYMOUS_ROLE": "reader, ingest or admin: the role of callers without one",
    "ARRAYGRAPH_ENV": "development or production (introspection and GraphiQL off)",
    "ARRAYGRAPH_INTROSPECTION": "on/off (off in production)",
    "ARRAYGRAPH_GRAPHIQL": "on/off (off in production)",
    "ARRAYGRAPH_CORS_ORIGINS": "comma-separated origins allowed from browsers, or *",
    "ARRAYGRAPH_APQ": "on/off: Apollo automatic persisted queries (on)",
    "ARRAYGRAPH_APQ_CACHE_BYTES": "memory for APQ documents per instance (16777216)",
    "ARRAYGRAPH_TRUSTED_DOCUMENTS": "path of a persisted-query manifest: only its documents run",
    "ARRAYGRAPH_MONGODB_TIMEOUT_MS": "deadline of every MongoDB operation (10000)",
    "ARRAYGRAPH_STARTUP_TIMEOUT_S": "how long serve waits for MongoDB at start-up (30)",
    "ARRAYGRAPH_SHUTDOWN_TIMEOUT_S": "grace for requests in flight on SIGTERM (10)",
    "ARRAYGRAPH_REQUEST_READ_TIMEOUT_S": "a request's head and body must arrive within (30)",
    "ARRAYGRAPH_HEAD_TIMEOUT_S": "a request's line and headers must arrive within (10)",
    "ARRAYGRAPH_KEEP_ALIVE_S": "a kept-alive connection may idle (75; above the balancer's)",
    "ARRAYGRAPH_MAX_CONCURRENCY": "requests in flight; past it 503, not health checks (512)",
    "ARRAYGRAPH_MAX_CONNECTIONS": "open connections; past it the longest idle closes (768)",
    "ARRAYGRAPH_METRICS_OPERATIONS": "operation names kept as metric labels; then other (50)",
    "ARRAYGRAPH_LOG_FORMAT": "json, text or auto (text on a terminal)",
    "ARRAYGRAPH_MAX_QUERY_DEPTH": "deepest selection (12)",
    "ARRAYGRAPH_MAX_ALIASES": "aliases per document (30)",
    "ARRAYGRAPH_MAX_TOKENS": "tokens per document (5000)",
    "ARRAYGRAPH_MAX_REQUEST_BYTES": "request body size (1048576)",
    "ARRAYGRAPH_MAX_PAGE_SIZE": "largest first/last (100)",
    "ARRAYGRAPH_MAX_BATCH_SIZE": "events per recordSensorEvents (1000)",
    "ARRAYGRAPH_MAX_COST": "values a query may answer, from its list sizes (100000)",
    "ARRAYGRAPH_COST_BUDGET_PER_MINUTE": "cost per caller a minute, per instance (0: none)",
    "ARRAYGRAPH_MAX_RESPONSE_BYTES": "largest answer; larger is LIMIT_EXCEEDED (8388608)",
    "ARRAYGRAPH_MAX_ORDERS_PER_USER": "orders one user holds (10000)",
    "ARRAYGRAPH_TRADES_PER_BUCKET": "trades per bucket document (10)",
    "ARRAYGRAPH_MESSAGES_PER_PAGE": "chat messages per page document (500, at most 998)",
}


STARTUP_FAILURE = 3  # uvicorn's exit status when the app did not start
CORS_HINT = (
    "cross-origin browser calls are refused: set ARRAYGRAPH_CORS_ORIGINS to allow a web app's "
    "origin, e.g. ARRAYGRAPH_CORS_ORIGINS=http://localhost:5173 make run"
)


def port(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a port number") from None
    if not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"{number} is not a port (1 to 65535)")
    return number


def user_id(value: str) -> str:
    if not value.strip():
        raise argparse.ArgumentTypeError("a user id is not blank")
    return value


def _version() -> str:
    try:
        return importlib.metadata.version("arraygraph")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout, not installed
        return "unknown"


def parser() -> argparse.ArgumentParser:
    variables = "\n".join(f"  {name:<31} {help}" for name, help in ENVIRONMENT.items())
    root = argparse.ArgumentParser(
        prog="arraygraph",
        description=__doc__,
        epilog=f"environment variables:\n{variables}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    root.add_argument("--version", action="version", version=f"arraygraph {_version()}")
    commands = root.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the GraphQL API over HTTP")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=port, default=8000)
    serve.add_argument(
        "--demo",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="load the demo data at start-up",
    )
    serve.add_argument(
        "--allow-anonymous-writes",
        action="store_true",
        help="listen on a non-loopback address although ARRAYGRAPH_API_TOKENS is not set",
    )
    commands.add_parser("schema", help="print the schema in GraphQL SDL")
    migrate = commands.add_parser(
        "migrate",
        help="bring data written in the articles' shapes to arraygraph's (idempotent), "
        "then create every index",
    )
    migrate.add_argument(
        "--check",
        action="store_true",
        help="change nothing: list data in the articles' shapes and stored ids that read as "
        "another object's id; exit 1 when there is any",
    )
    migrate.add_argument(
        "--chat-owner",
        metavar="USER",
        type=user_id,
        help="owner of the chat sessions that have no message (the others: the author of "
        "their first message)",
    )
    return root


def migrate(settings: Settings, *, check: bool = False, chat_owner: str | None = None) -> int:
    from store.database import open_database
    from store.migrations import migrate as run_migrations

    async def run() -> int:
        database = open_database(settings)
        try:
            if check:
                return await check_stored_data(database)
            for done in await run_migrations(database, chat_owner=chat_owner):
                print(f"arraygraph: {done.what}: {done.documents}")
            return 0
        finally:
            await database.close()

    return asyncio.run(run())


async def check_stored_data(database: Database) -> int:
    """`migrate --check`: what `migrate` would convert, and the stored ids that read as another
    object's (which no migration can rename: their owner must); 1 when any, else 0."""
    from resolvers.global_ids import stored_id_reading
    from schema.nodes import node_kinds
    from store.migrations import ambiguous_ids, legacy_shapes

    shapes = await legacy_shapes(database)
    for shape in shapes:
        print(f"arraygraph: to migrate: {shape}")
    kinds = node_kinds()
    found = await ambiguous_ids(database, reads_as=lambda value: stored_id_reading(value, kinds))
    for stored in found:
        of_user = "" if stored.user_id is None else f" of user {stored.user_id!r}"
        print(f"arraygraph: {stored.kind} {stored.id!r}{of_user} reads as {stored.reads_as}")
    print(
        f"arraygraph: {len(shapes)} shapes to migrate, "
        f"{len(found)} stored ids that read as another object's"
    )
    return 1 if shapes or found else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "schema":
        from app import sdl

        print(sdl())
        return 0
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"arraygraph: {exc}", file=sys.stderr)
        return 2
    if args.command == "migrate":
        return migrate(settings, check=args.check, chat_owner=args.chat_owner)
    anonymous = not settings.auth_required
    if anonymous and not is_loopback(args.host) and not args.allow_anonymous_writes:
        print(
            f"arraygraph: refusing to listen on {args.host} without ARRAYGRAPH_API_TOKENS or "
            "JWTs (ARRAYGRAPH_JWKS_URL): anyone could write. Set them, or pass "
            "--allow-anonymous-writes.",
            file=sys.stderr,
        )
        return 2
    try:
        # Before anything slow (imports, indexes, the demo): a busy port is one line at once.
        sockets = bind(args.host, args.port)
    except CannotListen as exc:
        print(f"arraygraph: {exc}", file=sys.stderr)
        return 1
    try:
        return start(settings, args, sockets)
    finally:
        for sock in sockets:
            sock.close()


def start(settings: Settings, args: argparse.Namespace, sockets: list[socket.socket]) -> int:
    """Build the app, wait for the database, serve on the bound sockets until stopped."""
    from app import create_app
    from store.database import DatabaseUnreachable, wait_for_database

    logging.config.dictConfig(uvicorn_log_config(settings))  # one format, before uvicorn too
    try:
        app = create_app(settings, demo=args.demo)
        asyncio.run(wait_for_database(settings))  # SIGTERM and SIGINT stop this wait at once
    except SettingsError as exc:
        print(f"arraygraph: {exc}", file=sys.stderr)
        return 2
    except DatabaseUnreachable as exc:
        print(f"arraygraph: {exc}", file=sys.stderr)
        return 1
    state = app.state.arraygraph
    where = address(args.host, args.port)
    return serve(app, settings, sockets=sockets, on_ready=lambda: ready(settings, state, where))


def ready(settings: Settings, state: AppState, where: str) -> None:
    """What a developer needs once the server answers: the CORS hint when browsers on other
    origins are refused, then where the API is (last, so it is the line in sight)."""
    if not settings.cors_origins:
        print(f"arraygraph: {CORS_HINT}", file=sys.stderr)
    seeded = state.demo_seconds
    loaded = "" if seeded is None else f" (demo data loaded in {seeded:.2f} s)"
    what = "GraphiQL" if settings.graphiql else "GraphQL API (GraphiQL off)"
    print(f"arraygraph: {what} at http://{where}/graphql{loaded}", file=sys.stderr)


def serve(
    app: Any, settings: Settings, *, sockets: list[socket.socket], on_ready: Callable[[], None]
) -> int:
    """uvicorn on the sockets `bind` made; 3 (uvicorn's start-up failure) if it never served."""
    import uvicorn

    config = uvicorn.Config(
        app,
        log_level="info",
        log_config=uvicorn_log_config(settings),  # JSON or text, uvicorn's lines included
        # Requests in flight get this long after SIGTERM; each database command has its own
        # deadline (ARRAYGRAPH_MONGODB_TIMEOUT_MS), so none waits forever either.
        timeout_graceful_shutdown=settings.shutdown_timeout_s,
        # Slow and idle clients: each request's head and body must arrive within their
        # deadlines (web/server/slow_clients.py), open connections are bounded, the longest
        # idle closed first (web/server/open_connections.py), requests in flight are capped,
        # health checks aside (web/server/protocol.py); a kept-alive connection waits
        # ARRAYGRAPH_KEEP_ALIVE_S.
        **server_options(settings),
    )
    server = ReadyServer(config, on_ready)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn raises Ctrl-C again once stopped
        server.run(sockets=sockets)
    return 0 if server.started else STARTUP_FAILURE


if __name__ == "__main__":
    raise SystemExit(main())
