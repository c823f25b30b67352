"""Walking a Relay connection page by page, forwards or backwards."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Fetch = Callable[[str | None], Awaitable[dict[str, Any]]]  # cursor -> connection
Between = Callable[[int], Awaitable[None]]
MAX_PAGES = 1_000  # a walk that loops forever fails instead


async def walk(
    fetch: Fetch, *, backward: bool = False, between: Between | None = None
) -> list[Any]:
    """Every node in list order, following `endCursor` while `hasNextPage` (backward:
    `startCursor` while `hasPreviousPage`); `between(pages)` runs between pages, to write
    while walking."""
    more, next_cursor = (
        ("hasPreviousPage", "startCursor") if backward else ("hasNextPage", "endCursor")
    )
    nodes: list[Any] = []
    cursor: str | None = None
    for pages in range(1, MAX_PAGES + 1):
        connection = await fetch(cursor)
        page = [edge["node"] for edge in connection["edges"]]
        nodes = page + nodes if backward else nodes + page
        if not connection["pageInfo"][more]:
            return nodes
        if between is not None:
            await between(pages)
        cursor = connection["pageInfo"][next_cursor]
    raise AssertionError(f"still walking after {MAX_PAGES} pages")
