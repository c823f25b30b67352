"""1. `{ __typename }` over HTTP: the app against a bare Starlette JSON endpoint, and against
its peers, Ariadne with parse and validation memoised and Strawberry with its cache
extensions, interleaved in the same rounds."""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from bench.fleet import Options, Servers
from bench.load import post_request
from bench.measure import Load, cost_ratio, figures, interleave, rate_ratio, ratio_line
from bench.peer_env import ariadne_version
from bench.server import Server

TYPENAME = "{ __typename }"


def graphql(server: Server, query: str, variables: dict[str, Any] | None = None) -> bytes:
    body = {"query": query, "variables": variables or {}}
    return post_request("/graphql", body, port=server.port)


async def run(servers: Servers, options: Options) -> None:
    loads = [
        Load(
            "bare", servers.bare, post_request("/json", {"query": TYPENAME}, port=servers.bare.port)
        ),
        Load("app", servers.small, graphql(servers.small, TYPENAME)),
        Load("strawberry", servers.strawberry, graphql(servers.strawberry, TYPENAME)),
    ]
    if servers.ariadne is not None:
        loads.append(Load("ariadne", servers.ariadne, graphql(servers.ariadne, TYPENAME)))
    found = await interleave(
        loads, rounds=options.rounds, seconds=options.seconds, connections=options.connections
    )
    labels = {
        "bare": "bare Starlette JSON endpoint",
        "app": "arraygraph",
        "strawberry": f"Strawberry {version('strawberry-graphql')} + ParserCache, ValidationCache",
        "ariadne": f"Ariadne {ariadne_version()}, parse + validate memoised",
    }
    print("1. { __typename } over HTTP")
    for name, samples in found.items():
        print(f"    {labels[name]:<52} {figures(samples)}")
    app, bare, strawberry = found["app"], found["bare"], found["strawberry"]
    print(ratio_line("arraygraph / bare", cost_ratio(bare, app), rate_ratio(app, bare), ">=", 0.6))
    if "ariadne" in found:
        ariadne = found["ariadne"]
        print(
            ratio_line(
                "arraygraph / Ariadne", cost_ratio(ariadne, app), rate_ratio(app, ariadne), ">", 1
            )
        )
    else:
        print("    arraygraph / Ariadne: not measured (no .venv-bench: `make bench` makes it)")
    print(
        ratio_line(
            "arraygraph / Strawberry",
            cost_ratio(strawberry, app),
            rate_ratio(app, strawberry),
            ">",
            1,
        )
    )
