"""A caller past its cost budget a minute is LIMIT_EXCEEDED with `retryAfter`, nothing of the
request runs, and the bucket refills continuously: the request runs once `retryAfter` has
passed."""

from __future__ import annotations

import pytest

from tests.limits.budgets import TWENTY, budgeted, fake_ticks, post
from tests.sensors.queries import CREATE
from tests.support.backends import Backend
from tests.support.clock import FakeClock


async def test_past_the_budget_the_answer_says_when_to_retry(
    backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = fake_ticks(monkeypatch)
    async with budgeted(backend, clock, 60) as app, app.client() as client:
        for _ in range(3):  # 3 x 20: the whole minute's budget
            assert "errors" not in (await post(client, TWENTY)).json()
        refused = (await post(client, TWENTY)).json()
        assert refused == {
            "errors": [
                {
                    "message": "cost 20 is over what is left of this caller's budget of "
                    "ARRAYGRAPH_COST_BUDGET_PER_MINUTE 60: retry in 20 s",
                    "extensions": {
                        "code": "LIMIT_EXCEEDED",
                        "cost": 20,
                        "budgetPerMinute": 60,
                        "retryAfter": 20,
                    },
                }
            ]
        }
        ticks.now += 19  # a second of the budget short
        again = (await post(client, TWENTY)).json()
        assert again["errors"][0]["extensions"]["retryAfter"] == 1
        ticks.now += 1
        assert "errors" not in (await post(client, TWENTY)).json()


async def test_a_refused_request_runs_nothing(
    backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ticks(monkeypatch)
    async with budgeted(backend, clock, 60) as app, app.client() as client:
        for _ in range(3):
            await post(client, TWENTY)
        response = await client.post(
            "/graphql", json={"query": CREATE, "variables": {"t": "refused"}}
        )
        body = response.json()
        assert [e["extensions"]["code"] for e in body["errors"]] == ["LIMIT_EXCEEDED"]
        assert "data" not in body
        assert await app.database.collection("sensors").count_documents({}) == 0
