"""Helpers the limit tests share: the cost the server computes for a document."""

from __future__ import annotations

import dataclasses
from typing import Any

from settings import Settings
from tests.support import Api, ApiFactory, error_codes


async def cost_of(
    make_api: ApiFactory, settings: Settings, query: str, variables: dict[str, Any] | None = None
) -> int:
    """The cost the server computes for `query` (of fewer than 10 fields, costing more than
    10): under a limit of 10 it is refused, and the refusal says its cost (nothing runs, so no
    data is needed). The walk stops once it has seen more fields than the limit allows."""
    async with make_api(dataclasses.replace(settings, max_cost=10)) as api:
        body = await api.post(query, variables)
    assert error_codes(body) == ["LIMIT_EXCEEDED"], body
    assert " over " not in body["errors"][0]["message"], body  # the walk was complete
    cost: int = body["errors"][0]["extensions"]["cost"]
    return cost


async def refused(api: Api, query: str) -> dict[str, Any]:
    """The refusal of `query`, after asserting that it sent no command."""
    api.commands.reset()
    body = await api.post(query)
    assert error_codes(body) == ["LIMIT_EXCEEDED"], body
    assert api.commands.count == 0
    return body
