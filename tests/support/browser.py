"""Headless Chromium (Debian's, at /usr/bin/chromium: Playwright never downloads a browser) for
the browser tests, with the network shut: every request not to one of the test's own loopback
origins is aborted, and every request is recorded so a test can assert none left loopback.

`make browser` (run by `make test`) installs Chromium where it can; where it is absent, the
browser tests skip, saying so.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.async_api import (
    ConsoleMessage,
    Page,
    Route,
    ViewportSize,
    WebSocket,
    async_playwright,
)

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
VIEWPORT: ViewportSize = {"width": 1280, "height": 720}
# Generous, for a loaded machine: GraphiQL's script alone is 3.5 MB to parse.
TIMEOUT_MS = 30_000


def require_chromium() -> None:
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is absent (`make browser` installs Debian's chromium): "
            "browser test not run"
        )


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@dataclass
class Traffic:
    """What the page asked the network for, and what was refused."""

    allowed: frozenset[str]  # origins the requests may go to
    requested: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)  # console messages, "type: text"
    errors: list[str] = field(default_factory=list)  # uncaught page errors

    async def route(self, route: Route) -> None:
        url = route.request.url
        self.requested.append(url)
        if origin(url) in self.allowed:
            await route.continue_()
        else:
            self.blocked.append(url)
            await route.abort("blockedbyclient")

    def websocket(self, socket: WebSocket) -> None:
        self.requested.append(socket.url)

    def log(self, message: ConsoleMessage) -> None:
        self.console.append(f"{message.type}: {message.text}")

    def left_loopback(self) -> list[str]:
        """Every request whose host is not loopback (aborted or not)."""
        return [url for url in self.requested if urlsplit(url).hostname not in LOOPBACK_HOSTS]

    def paths(self) -> list[str]:
        return [urlsplit(url).path for url in self.requested]


@asynccontextmanager
async def browser_page(*origins: str) -> AsyncIterator[tuple[Page, Traffic]]:
    """A page in a fresh Chromium that reaches `origins` only (e.g. "http://127.0.0.1:8123")."""
    require_chromium()
    traffic = Traffic(allowed=frozenset(origin(o) for o in origins))
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS
        )
        try:
            context = await browser.new_context(viewport=VIEWPORT, service_workers="block")
            context.set_default_timeout(TIMEOUT_MS)
            await context.route("**/*", traffic.route)
            page = await context.new_page()
            page.on("websocket", traffic.websocket)
            page.on("console", traffic.log)
            page.on("pageerror", lambda error: traffic.errors.append(str(error)))
            yield page, traffic
        finally:
            await browser.close()
