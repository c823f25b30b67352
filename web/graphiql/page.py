"""GraphiQL offline: the IDE's assets served by arraygraph from the package, never a CDN.

Strawberry's GraphiQL page loads React, GraphiQL and its explorer plugin from unpkg.com; on a
closed network it stays at "Loading...". web/graphiql/assets/ holds those files at the versions
the page pins (written by tools/vendor_graphiql.py, with each package's licence and
manifest.json). Here the page is rewritten once: every CDN address becomes
`/graphql/assets/<file>` with the file's own `integrity` hash, and a Content-Security-Policy
lets it load nothing from anywhere else. The page is Strawberry's as vendored with the files,
so upgrading Strawberry changes nothing here; a page naming a file that is not vendored (a
broken re-vendoring) refuses to start rather than fall back to the CDN.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Route

from settings import Settings
from web.graphiql.example import EXAMPLE_QUERY

ASSETS_DIR = Path(__file__).with_name("assets")
ASSETS_PATH = "/graphql/assets"
# Strawberry's page as vendored with the assets (tools/vendor_graphiql.py): an upgrade of
# Strawberry that ships another page cannot break the offline IDE.
PAGE = "graphiql.html"
CONTENT_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
# Each file's name carries its package's version, so a name always means the same bytes.
CACHE_CONTROL = "public, max-age=31536000, immutable"
TAG = re.compile(r"<(?:script|link)\b[^>]*>")
ADDRESS = re.compile(r'\b(?P<attr>src|href)="(?P<url>(?:https?:)?//[^"]*)"')
INTEGRITY = re.compile(r'\s+integrity="[^"]*"')
INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.DOTALL)
# The page's welcome text, a JavaScript template literal; arraygraph's example replaces it.
PAGE_EXAMPLE = re.compile(r"(const EXAMPLE_QUERY = `)(.*?)(`;)", re.DOTALL)


class GraphiQLAssetsError(RuntimeError):
    """Strawberry's page asks for a file that web/graphiql/assets/ does not hold as pinned."""


@dataclass(frozen=True, slots=True)
class Asset:
    file: str
    url: str  # the CDN address Strawberry's page names
    sha384: str

    @property
    def local_url(self) -> str:
        return f"{ASSETS_PATH}/{self.file}"


def sri(data: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(data).digest()).decode()


@functools.cache
def assets() -> dict[str, Asset]:
    """The vendored files by name, each checked against the hash in the manifest."""
    manifest = json.loads((ASSETS_DIR / "manifest.json").read_text(encoding="utf-8"))
    found = {}
    for entry in manifest["assets"]:
        asset = Asset(file=entry["file"], url=entry["url"], sha384=entry["sha384"])
        if sri((ASSETS_DIR / asset.file).read_bytes()) != asset.sha384:
            raise GraphiQLAssetsError(
                f"web/graphiql/assets/{asset.file} does not match manifest.json's hash: "
                "run tools/vendor_graphiql.py"
            )
        found[asset.file] = asset
    return found


def _localised(tag: str, by_url: dict[str, Asset]) -> str:
    address = ADDRESS.search(tag)
    if address is None:
        return tag
    asset = by_url.get(address["url"])
    if asset is None:
        raise GraphiQLAssetsError(
            f"Strawberry's GraphiQL page loads {address['url']}, which is not vendored: run "
            "tools/vendor_graphiql.py (or turn GraphiQL off with ARRAYGRAPH_GRAPHIQL=off)"
        )
    tag = INTEGRITY.sub("", tag)
    local = f'{address["attr"]}="{asset.local_url}" integrity="{asset.sha384}"'
    return tag[: address.start()] + local + tag[address.end() :]


def content_security_policy(page: str) -> str:
    """Scripts from this server and the page's own inline script (by hash), nothing else."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in INLINE_SCRIPT.findall(page)
    )
    return (
        f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'none'"
    )


def template_literal(text: str) -> str:
    """`text` as the inside of a JavaScript template literal (`...`)."""
    return text.replace("\\", "\\\\").replace("`", "\\`").replace("${", "\\${")


def offline_page(template: str) -> str:
    """Strawberry's GraphiQL page with every CDN address replaced by this server's copy, and
    the demo's example query in its editor (when no `?q=` names one)."""
    by_url = {asset.url: asset for asset in assets().values()}
    page = TAG.sub(lambda match: _localised(match[0], by_url), template)
    example = template_literal(EXAMPLE_QUERY)
    page = PAGE_EXAMPLE.sub(lambda match: match[1] + example + match[3], page, count=1)
    policy = content_security_policy(page)
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy}" />'
    return page.replace("<head>", f"<head>\n    {meta}", 1)


@functools.cache
def graphiql_html() -> str:
    """The IDE page, computed once."""
    return offline_page((ASSETS_DIR / PAGE).read_text(encoding="utf-8"))


async def serve_asset(request: Request) -> Response:
    asset = assets().get(request.path_params["name"])
    if asset is None:
        return PlainTextResponse("Not Found", status_code=404)
    return FileResponse(
        ASSETS_DIR / asset.file,
        media_type=CONTENT_TYPES[Path(asset.file).suffix],
        headers={"cache-control": CACHE_CONTROL, "x-content-type-options": "nosniff"},
    )


def graphiql_routes(settings: Settings) -> list[Route]:
    """The assets' route when GraphiQL is on; the page is checked now, so a file missing from
    the vendored set stops the start rather than a browser."""
    if not settings.graphiql:
        return []
    graphiql_html()
    return [Route(ASSETS_PATH + "/{name}", serve_asset, methods=["GET", "HEAD"])]
