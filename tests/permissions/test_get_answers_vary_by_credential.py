"""A GET answer, which an HTTP cache may keep (a persisted query's hash in the URL), names
`Authorization` in `Vary`: a cache never answers one caller with what another was answered."""

from __future__ import annotations

import json
from pathlib import Path

from tests.permissions.callers import ADMIN, known_callers
from tests.support import ApiFactory

QUERY = "{ sensors(first: 1) { totalCount } }"
PERSISTED = {"persistedQuery": {"version": 1, "sha256Hash": "0" * 64}}


async def test_get_answers_vary_by_authorization(make_api: ApiFactory, tmp_path: Path) -> None:
    async with make_api(known_callers(tmp_path)) as api:
        by_get = await api.client.get("/graphql", params={"query": QUERY}, headers=ADMIN)
        anonymous = await api.client.get("/graphql", params={"query": QUERY})
        missed = await api.client.get("/graphql", params={"extensions": json.dumps(PERSISTED)})
        by_post = await api.client.post("/graphql", json={"query": QUERY}, headers=ADMIN)
    assert by_get.json() == {"data": {"sensors": {"totalCount": 0}}}
    assert by_get.headers["vary"] == "authorization"
    assert "errors" in anonymous.json() and anonymous.headers["vary"] == "authorization"
    assert missed.headers["vary"] == "authorization"
    assert "vary" not in by_post.headers  # a POST answer is kept by no cache
