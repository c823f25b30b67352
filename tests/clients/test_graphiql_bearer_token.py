"""GraphiQL's Headers tab sends a bearer token: in headless Chromium, a query that needs a
role is refused as UNAUTHENTICATED without one, and answers once a JWT of that role is typed
into the headers pane as `{"Authorization": "Bearer <token>"}`, which the page's address
never holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, expect

from settings import Settings
from tests.clients.test_graphiql_offline import (
    QUERY_EDITOR,
    RESPONSE,
    editor_text,
    open_graphiql,
    server_of,
    type_query,
)
from tests.sensors.queries import CREATE
from tests.support import Api
from tests.support.browser import TIMEOUT_MS, browser_page
from tests.support.jwks import (
    SigningKey,
    bearer,
    claims,
    jwt_settings,
    signing_key,
    write_jwks,
    writer,
)

QUERY = "{ sensors(first: 1) { edges { node { title } } } }"
TITLE = "greenhouse south"
# The visible one of GraphiQL's two tool editors (variables, headers), once its tab is chosen.
TOOL_EDITOR = ".graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror"


@pytest.fixture(scope="module")
def key() -> SigningKey:
    return signing_key()


@pytest.fixture
def settings(key: SigningKey, tmp_path: Path) -> Settings:
    return jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", key)))


async def run_and_read(page: Page, shown: str) -> dict[str, Any]:
    """The answer GraphiQL shows after Execute, once it shows `shown`."""
    await page.get_by_role("button", name="Execute query").click()
    await expect(page.locator(".graphiql-response")).to_contain_text(shown, timeout=TIMEOUT_MS)
    answer: dict[str, Any] = json.loads(await editor_text(page, RESPONSE))
    return answer


async def test_a_token_typed_into_the_headers_pane_is_sent(live_api: Api, key: SigningKey) -> None:
    created = await live_api.post(CREATE, {"t": TITLE}, headers=bearer(key.sign(writer())))
    assert "errors" not in created, created
    reader = key.sign(claims("graphiql-user", roles=["reader"]))
    headers = json.dumps({"Authorization": f"Bearer {reader}"})
    server = server_of(live_api)
    async with browser_page(server) as (page, traffic):
        await open_graphiql(page, server)
        await type_query(page, QUERY)
        assert await editor_text(page, QUERY_EDITOR) == QUERY

        refused = await run_and_read(page, "UNAUTHENTICATED")
        assert [error["extensions"]["code"] for error in refused["errors"]] == ["UNAUTHENTICATED"]
        assert TITLE not in json.dumps(refused)

        await page.get_by_role("button", name="Headers").click()
        await page.locator(TOOL_EDITOR).click()
        await page.keyboard.type(headers)
        assert await editor_text(page, TOOL_EDITOR) == headers

        answer = await run_and_read(page, TITLE)
        assert answer == {"data": {"sensors": {"edges": [{"node": {"title": TITLE}}]}}}
        assert reader not in page.url  # the query is in the address, never the headers
        assert traffic.left_loopback() == []
