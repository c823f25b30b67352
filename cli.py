"""The `arraygraph` command: `arraygraph serve`, `arraygraph schema`, `arraygraph migrate`."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import sys
from collections.abc import Sequence

from settings import Settings, SettingsError


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="arraygraph", description=__doc__)
    commands = root.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the GraphQL API over HTTP")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
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
    commands.add_parser(
        "migrate",
        help="bring data written in the articles' shapes to arraygraph's (idempotent), "
        "then create every index",
    )
    return root


def migrate(settings: Settings) -> int:
    import asyncio

    from store.database import open_database
    from store.migrations import migrate as run_migrations

    async def run() -> None:
        database = open_database(settings)
        try:
            for done in await run_migrations(database):
                print(f"arraygraph: {done.what}: {done.documents}")
        finally:
            await database.close()

    asyncio.run(run())
    return 0


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
        return migrate(settings)
    anonymous = not settings.auth_required
    if anonymous and not is_loopback(args.host) and not args.allow_anonymous_writes:
        print(
            f"arraygraph: refusing to listen on {args.host} without ARRAYGRAPH_API_TOKENS: "
            "anyone could write. Set tokens, or pass --allow-anonymous-writes.",
            file=sys.stderr,
        )
        return 2
    import uvicorn

    from app import create_app

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        app = create_app(settings, demo=args.demo)
    except SettingsError as exc:
        print(f"arraygraph: {exc}", file=sys.stderr)
        return 2
    where = "GraphiQL" if settings.graphiql else "GraphQL API (GraphiQL off)"
    print(f"arraygraph: {where} at http://{args.host}:{args.port}/graphql", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
