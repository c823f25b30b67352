"""GraphiQL's assets come from arraygraph itself: the page names only /graphql/assets/<file>
with each file's integrity hash; the route serves the manifest's files alone, typed and cached
for a year; a page naming a file that is not vendored refuses to start."""

from __future__ import annotations

import json
import re

import pytest

from settings import Settings
from tests.support import ApiFactory
from web.graphiql.page import (
    ASSETS_DIR,
    ASSETS_PATH,
    GraphiQLAssetsError,
    assets,
    graphiql_html,
    offline_page,
    sri,
)

HTML = {"accept": "text/html"}
PINNED = {
    ("react", "18.2.0"),
    ("react-dom", "18.2.0"),
    ("js-cookie", "3.0.5"),
    ("graphiql", "3.8.3"),
    ("@graphiql/plugin-explorer", "1.0.2"),
}


def manifest() -> list[dict[str, str]]:
    text = (ASSETS_DIR / "manifest.json").read_text(encoding="utf-8")
    entries: list[dict[str, str]] = json.loads(text)["assets"]
    return entries


async def test_graphiql_page_names_only_the_servers_assets(make_api: ApiFactory) -> None:
    async with make_api(Settings()) as api:
        page = (await api.client.get("/graphql", headers=HTML)).text
    loaded = re.findall(r'(?:src|href)="([^"]*)"\s+integrity="([^"]*)"', page)
    assert sorted(loaded) == sorted(
        (f"{ASSETS_PATH}/{asset.file}", asset.sha384) for asset in assets().values()
    )
    assert "unpkg.com" not in page
    assert "Content-Security-Policy" in page


async def test_graphiql_assets_are_served_typed_cached_and_as_hashed(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings()) as api:
        for asset in assets().values():
            response = await api.client.get(asset.local_url)
            assert response.status_code == 200
            kind = "text/css" if asset.file.endswith(".css") else "text/javascript"
            assert response.headers["content-type"].startswith(kind)
            assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert response.headers["x-content-type-options"] == "nosniff"
            assert sri(response.content) == asset.sha384


@pytest.mark.parametrize(
    "name", ["manifest.json", "react-18.2.0.LICENSE", "..%2Fgraphiql.py", "nothing.js"]
)
async def test_graphiql_assets_serves_only_the_manifests_files(
    make_api: ApiFactory, name: str
) -> None:
    async with make_api(Settings()) as api:
        response = await api.client.get(f"{ASSETS_PATH}/{name}")
        assert response.status_code == 404


async def test_graphiql_assets_are_not_served_with_graphiql_off(make_api: ApiFactory) -> None:
    async with make_api(Settings(graphiql=False)) as api:
        react = next(iter(assets().values()))
        assert (await api.client.get(react.local_url)).status_code == 404


def test_graphiql_assets_are_the_pinned_versions_with_their_licences() -> None:
    assert {(entry["package"], entry["version"]) for entry in manifest()} == PINNED
    for entry in manifest():
        assert (ASSETS_DIR / entry["file"]).is_file()
        assert entry["license"] == "MIT"
        assert "Permission is hereby granted" in (ASSETS_DIR / entry["license_file"]).read_text()


def test_graphiql_page_refuses_a_file_that_is_not_vendored() -> None:
    template = graphiql_html().replace(
        'src="/graphql/assets/', 'src="https://unpkg.com/react@19.0.0/umd/x.js" data-was="', 1
    )
    with pytest.raises(GraphiQLAssetsError, match=r"react@19\.0\.0.*vendor_graphiql"):
        offline_page(template)
