"""GraphiQL opens with an example query over the demo data (`make run`), and running it as it
stands answers data from every domain, with no error."""

from __future__ import annotations

import json
from typing import Any

from playwright.async_api import expect

from app import create_app
from settings import Settings
from store.database import Database
from tests.clients.test_graphiql_offline import QUERY_EDITOR, RESPONSE, editor_text, open_graphiql
from tests.support import ApiFactory, FakeClock, live_server
from tests.support.browser import TIMEOUT_MS, browser_page
from web.graphiql.example import EXAMPLE_QUERY
from web.graphiql.page import template_literal

HTML = {"accept": "text/html"}


def assert_demo_answer(answer: dict[str, Any]) -> None:
    assert "errors" not in answer
    data = answer["data"]
    assert [e["node"]["title"] for e in data["sensors"]["edges"]] == ["Sensor 1", "Sensor 2"]
    assert data["user"]["orderCount"] == 200
    assert len(data["user"]["orders"]["edges"]) == 3
    assert data["customer"]["tradeCount"] == 2
    assert {s["name"]: s["count"] for s in data["insects"]} == {"butterflies": 4, "honeybees": 4}
    assert all(s["count"] > 0 for s in data["weather"])
    session = data["chatSessions"]["edges"][0]["node"]
    assert [e["node"]["seq"] for e in session["messages"]["edges"]] == [2_498, 2_499, 2_500]


async def test_graphiql_example_answers_the_demo_data(make_api: ApiFactory) -> None:
    async with make_api(Settings(), demo=True) as api:
        page = await api.client.get("/graphql", headers=HTML)
        response = await api.client.post("/graphql", json={"query": EXAMPLE_QUERY})
    assert template_literal(EXAMPLE_QUERY) in page.text
    assert response.status_code == 200
    assert_demo_answer(response.json())


async def test_graphiql_opens_with_the_example_and_runs_it(
    demo_database: Database, clock: FakeClock
) -> None:
    app = create_app(Settings(), clock=clock, database=demo_database)
    async with live_server(app) as server, browser_page(server) as (page, traffic):
        await open_graphiql(page, server)
        assert await editor_text(page, QUERY_EDITOR) == EXAMPLE_QUERY
        await page.get_by_role("button", name="Execute query").click()
        await expect(page.locator(".graphiql-response")).to_contain_text(
            "Sensor 1", timeout=TIMEOUT_MS
        )
        assert_demo_answer(json.loads(await editor_text(page, RESPONSE)))
        assert traffic.errors == []
