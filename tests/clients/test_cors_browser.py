"""CORS in a real browser: a page on a second loopback origin fetch()es the API (a POST of JSON,
so with a preflight). From the origin ARRAYGRAPH_CORS_ORIGINS lists (http://127.0.0.1:<port>)
the page reads the answer; from the same page reached as http://localhost:<port>, an origin
not listed, Chromium itself refuses the read."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from playwright.async_api import Page, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from app import create_app
from settings import Settings
from store.database import Database
from tests.sensors.queries import create_sensor
from tests.support import Api, FakeClock, live_server
from tests.support.browser import TIMEOUT_MS, browser_page

TITLE = "greenhouse north"
PROBE = """<!doctype html>
<html><head><title>CORS probe</title></head><body><p id="result">waiting</p><script>
const api = new URLSearchParams(location.search).get("api");
const query = "{ sensors(first: 1) { edges { node { title } } } }";
const result = document.getElementById("result");
fetch(api + "/graphql", {
  method: "POST",
  headers: {"content-type": "application/json"},
  body: JSON.stringify({query}),
})
  .then((response) => response.json())
  .then((body) => { result.textContent = "answer " + JSON.stringify(body.data); })
  .catch((error) => { result.textContent = "refused " + error.name; });
</script></body></html>
"""


async def probe(request: Request) -> HTMLResponse:
    return HTMLResponse(PROBE)


@pytest.fixture
async def servers(database: Database, clock: FakeClock) -> AsyncIterator[tuple[str, str]]:
    """(the probe page's origin, the API's), the API allowing that origin only."""
    async with live_server(Starlette(routes=[Route("/", probe)])) as page_origin:
        settings = Settings(cors_origins=(page_origin,))
        app = create_app(settings, clock=clock, database=database)
        async with live_server(app) as api, httpx.AsyncClient(base_url=api) as client:
            await create_sensor(Api(client=client, database=database, clock=clock), TITLE)
            yield page_origin, api


async def probe_result(page: Page, page_origin: str, api: str) -> str:
    await page.goto(f"{page_origin}/?api={api}")
    result = page.locator("#result")
    await expect(result).not_to_have_text("waiting", timeout=TIMEOUT_MS)
    return await result.inner_text()


async def test_cors_browser_page_on_the_listed_origin_reads_the_answer(
    servers: tuple[str, str],
) -> None:
    page_origin, api = servers
    async with browser_page(page_origin, api) as (page, traffic):
        text = await probe_result(page, page_origin, api)
        assert text == 'answer {"sensors":{"edges":[{"node":{"title":"greenhouse north"}}]}}'
        assert traffic.left_loopback() == []
        assert traffic.blocked == []


async def test_cors_browser_page_on_another_origin_is_refused_by_the_browser(
    servers: tuple[str, str],
) -> None:
    listed, api = servers
    other = listed.replace("127.0.0.1", "localhost")
    async with browser_page(other, api) as (page, traffic):
        text = await probe_result(page, other, api)
        assert text == "refused TypeError"
        assert any("blocked by CORS policy" in line for line in traffic.console), traffic.console
        assert traffic.left_loopback() == []
        assert traffic.blocked == []  # the browser refused it, not the test's network block
