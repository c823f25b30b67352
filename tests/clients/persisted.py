"""Requests as Apollo's persisted-query link and GraphQL-over-HTTP clients send them."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import httpx

QUERY = "query Sensors { sensors(first: 1) { edges { node { title } } } }"
OTHER_QUERY = "query Typename { __typename }"


def sha256(query: str) -> str:
    return hashlib.sha256(query.encode()).hexdigest()


def apq(digest: str, query: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "extensions": {"persistedQuery": {"version": 1, "sha256Hash": digest}},
        "variables": {},
    }
    if query is not None:
        body["query"] = query
    return body


async def post(client: httpx.AsyncClient, body: dict[str, Any]) -> httpx.Response:
    return await client.post(
        "/graphql", content=json.dumps(body), headers={"content-type": "application/json"}
    )
