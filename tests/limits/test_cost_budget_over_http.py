"""A spent budget over HTTP: `Retry-After` (the error's `retryAfter`) under either media type;
under `application/graphql-response+json` the request error is 429, under `application/json`
200 as every answer of that type is. Over uvicorn too: the headers reach the client."""

from __future__ import annotations

import httpx
import pytest

from app import create_app
from settings import Settings
from tests.limits.budgets import GRAPHQL_RESPONSE, TWENTY, budgeted, fake_ticks, post
from tests.support.backends import Backend
from tests.support.clock import FakeClock
from tests.support.servers import live_server


@pytest.mark.parametrize(("accept", "status"), [(GRAPHQL_RESPONSE, 429), ("application/json", 200)])
async def test_a_spent_budget_answers_retry_after(
    backend: Backend,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    accept: str,
    status: int,
) -> None:
    fake_ticks(monkeypatch)
    async with budgeted(backend, clock, 60) as app, app.client() as client:
        headers = {"accept": accept}
        for _ in range(3):
            spent = await post(client, TWENTY, headers=headers)
            assert spent.status_code == 200 and "retry-after" not in spent.headers
        refused = await post(client, TWENTY, headers=headers)
        assert refused.status_code == status
        assert refused.headers["retry-after"] == "20"
        assert refused.headers["content-type"] == accept
        assert refused.json()["errors"][0]["extensions"]["retryAfter"] == 20


async def test_over_real_http_the_refusal_is_429_with_retry_after(
    backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ticks(monkeypatch)
    settings = Settings(cost_budget_per_minute=60)
    database = backend.open(settings)
    try:
        app = create_app(settings, clock=clock, database=database)
        async with live_server(app) as url, httpx.AsyncClient(base_url=url) as client:
            headers = {"accept": GRAPHQL_RESPONSE}
            for _ in range(3):
                assert (await post(client, TWENTY, headers=headers)).status_code == 200
            refused = await post(client, TWENTY, headers=headers)
            assert refused.status_code == 429
            assert refused.headers["retry-after"] == "20"
            assert "data" not in refused.json()
    finally:
        await backend.release(database)
