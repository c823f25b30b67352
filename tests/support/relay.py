"""Walking a Relay connection page by page, forwards or backwards."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Fetch = Callable[[str | None], Awaitable[dict[str, Any]]]  # cursor -> connection


async def walk_forward(
    fetch: Fetch, *, between: Callable[[int], Awaitable[None]] | None = None
) -> list[Any]:
    """Every node, following `endCursor` while `hasNextPage`; `between(pages)` runs between
    pages (to write while walking)."""
    nodes: list[Any] = []
    cursor: str | None = None
    pages = 0
    while True:
        connection = await fetch(cursor)
        nodes += [edge["node"] for edge in connection["edges"]]
        pages += 1
        if not connection["pageInfo"]["hasNextPage"]:
            return nodes
        if between is not None:
            await between(pages)
        cursor = connection["pageInfo"]["endCursor"]


async def walk_backward(
    fetch: Fetch, *, between: Callable[[int], Awaitable[None]] | None = None
) -> list[Any]:
    """Every node in list order, following `startCursor` while `hasPreviousPage`."""
    nodes: list[Any] = []
    cursor: str | None = None
    pages = 0
    while True:
        connection = await fetch(cursor)
        nodes = [edge["node"] for edge in connection["edges"]] + nodes
        pages += 1
        if not connection["pageInfo"]["hasPreviousPage"]:
            return nodes
        if between is not None:
            await between(pages)
        cursor = connection["pageInfo"]["startCursor"]
