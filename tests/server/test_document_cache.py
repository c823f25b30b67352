"""Each distinct document is parsed and validated once, then served from the caches."""

from __future__ import annotations

from app import create_app
from settings import Settings
from store.database import Database
from tests.support import FakeClock, running


async def test_document_cache_parses_and_validates_a_repeated_query_once(
    database: Database,
) -> None:
    app = create_app(Settings(), clock=FakeClock(), database=database)
    cache = app.state.schema.document_cache
    async with running(app) as client:
        for _ in range(5):
            response = await client.post("/graphql", json={"query": "{ sensors { totalCount } }"})
            assert response.json() == {"data": {"sensors": {"totalCount": 0}}}
    assert cache.documents.cache_info().misses == 1
    assert cache.documents.cache_info().hits == 4


async def test_document_cache_still_reports_validation_errors_from_the_cache(
    database: Database,
) -> None:
    app = create_app(Settings(), clock=FakeClock(), database=database)
    async with running(app) as client:
        for _ in range(2):
            response = await client.post("/graphql", json={"query": "{ nope }"})
            assert response.json()["errors"][0]["extensions"]["code"] == (
                "GRAPHQL_VALIDATION_FAILED"
            )
