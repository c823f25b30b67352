"""GraphiQL offline: /graphql in headless Chromium, with every request off loopback aborted,
loads the whole IDE from arraygraph itself, and a query typed into it runs and shows its answer.

`ARRAYGRAPH_GRAPHIQL_SCREENSHOT=docs/graphiql.png` makes the query test save the page, answer
shown, there (the README's picture).
"""

from __future__ import annotations

import json
import os
from typing import Any

from playwright.async_api import Page, expect

from tests.sensors.queries import create_sensor
from tests.support import Api
from tests.support.browser import TIMEOUT_MS, browser_page, origin
from web.graphiql.page import ASSETS_PATH, assets

QUERY = "{ sensors(first: 1) { edges { node { title } } } }"
TITLE = "greenhouse north"
QUERY_EDITOR = ".graphiql-query-editor .CodeMirror"
RESPONSE = ".graphiql-response .CodeMirror"


async def open_graphiql(page: Page, server: str) -> None:
    await page.goto(f"{server}/graphql")
    await page.locator(QUERY_EDITOR).wait_for()


async def editor_text(page: Page, selector: str) -> str:
    script = "selector => document.querySelector(selector).CodeMirror.getValue()"
    text: str = await page.evaluate(script, selector)
    return text


async def type_query(page: Page, query: str) -> None:
    await page.locator(QUERY_EDITOR).click()
    await page.keyboard.press("Control+A")
    await page.keyboard.press("Backspace")
    await page.keyboard.type(query)


def server_of(api: Api) -> str:
    return origin(str(api.client.base_url))


async def test_graphiql_loads_every_asset_from_the_server_alone(live_api: Api) -> None:
    server = server_of(live_api)
    async with browser_page(server) as (page, traffic):
        await open_graphiql(page, server)
        await expect(page.get_by_role("button", name="Execute query")).to_be_visible(
            timeout=TIMEOUT_MS
        )
        assert traffic.left_loopback() == []
        assert traffic.blocked == []
        wanted = {f"{ASSETS_PATH}/{name}" for name in assets()}
        assert wanted <= set(traffic.paths())
        assert "Loading..." not in await page.locator("#graphiql").inner_text()
        assert traffic.errors == []
        assert [line for line in traffic.console if line.startswith("error")] == []


async def test_graphiql_runs_a_typed_query_and_shows_the_answer(live_api: Api) -> None:
    await create_sensor(live_api, TITLE)
    server = server_of(live_api)
    async with browser_page(server) as (page, traffic):
        await open_graphiql(page, server)
        await type_query(page, QUERY)
        assert await editor_text(page, QUERY_EDITOR) == QUERY
        await page.get_by_role("button", name="Execute query").click()
        await expect(page.locator(".graphiql-response")).to_contain_text(TITLE, timeout=TIMEOUT_MS)
        answer: dict[str, Any] = json.loads(await editor_text(page, RESPONSE))
        assert answer == {"data": {"sensors": {"edges": [{"node": {"title": TITLE}}]}}}
        assert traffic.left_loopback() == []
        assert traffic.blocked == []
        screenshot = os.environ.get("ARRAYGRAPH_GRAPHIQL_SCREENSHOT")
        if screenshot:
            await page.screenshot(path=screenshot)
