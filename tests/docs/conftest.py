"""The demo server the docs' examples run against: the app `arraygraph serve --demo` serves, on
a copy of the session's demo data, reached in process (GraphQL blocks) and over HTTP on a free
loopback port (curl blocks, run by the real `curl`). It holds a service token (`TOKEN`) and
verifies JWTs with the keys of a JWKS a second local server serves, as an identity provider
would (`JWT`: a user's token signed with them)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import stat
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import pytest_asyncio

from app import create_app
from settings import Settings
from store.database import open_database
from tests.docs.examples import DOCS_ORIGIN, all_examples
from tests.support import live_server, running
from tests.support.demo import DemoTemplates
from tests.support.jwks import JwksServer, claims, jwt_settings, signing_key

TOKEN = "docs-example-token"
JWT_USER = "docs-user"
JWT_LIFETIME_S = 3600
# A dev server's origin, so that the docs' CORS examples get their headers.
CORS_ORIGIN = "http://localhost:5173"
CURL_TIMEOUT_S = 60
HEAD_END = re.compile(r"\r?\n\r?\n")

# Records each call of the real curl: its head, body and exit status, in call order.
CURL_WRAPPER = """#!/bin/sh
n=$(ls "$DOCS_CURL_LOG" | wc -l)
out="$DOCS_CURL_LOG/$(printf %04d "$n")"
mkdir "$out"
"$DOCS_REAL_CURL" -D "$out/head" "$@" > "$out/body"
rc=$?
echo "$rc" > "$out/rc"
cat "$out/body"
exit "$rc"
"""


@dataclass(frozen=True)
class CurlCall:
    exit_status: int
    status: int
    body: str


@dataclass(frozen=True)
class DemoServer:
    client: httpx.AsyncClient  # in process, the token sent with every request
    url: str  # over HTTP: http://127.0.0.1:<port>
    jwt: str  # a user's token, signed by a key of the server's JWKS

    async def curl(self, script: str) -> tuple[list[CurlCall], str]:
        """Run a block's commands with the docs' origin replaced by this server's; each curl
        call, and what the shell printed."""
        real = shutil.which("curl")
        assert real is not None, "the docs' curl examples need curl on PATH"
        with tempfile.TemporaryDirectory() as scratch:
            bin_dir, log = _prepare(Path(scratch))
            env = {
                **os.environ,
                "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}",
                "URL": f"{self.url}/graphql",
                "TOKEN": TOKEN,
                "JWT": self.jwt,
                "DOCS_CURL_LOG": str(log),
                "DOCS_REAL_CURL": real,
            }
            process = await asyncio.create_subprocess_exec(
                "bash", "-c", script.replace(DOCS_ORIGIN, self.url), env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            )  # fmt: skip
            printed, _ = await asyncio.wait_for(process.communicate(), CURL_TIMEOUT_S)
            return _calls(log), printed.decode(errors="replace")


def _prepare(scratch: Path) -> tuple[Path, Path]:
    """A folder holding the curl wrapper, and the folder it records calls in."""
    bin_dir, log = scratch / "bin", scratch / "log"
    bin_dir.mkdir()
    log.mkdir()
    wrapper = bin_dir / "curl"
    wrapper.write_text(CURL_WRAPPER)
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    return bin_dir, log


def _calls(log: Path) -> list[CurlCall]:
    return [_call(record) for record in sorted(log.iterdir())]


def _call(record: Path) -> CurlCall:
    heads = [
        line for line in (record / "head").read_text(errors="replace").splitlines()
        if line.startswith("HTTP/")
    ]  # fmt: skip
    status = int(heads[-1].split()[1]) if heads else 0
    body = (record / "body").read_text(errors="replace")
    while body.startswith("HTTP/"):  # `curl -i`: each head, then the body
        head_and_body = HEAD_END.split(body, maxsplit=1)
        if len(head_and_body) < 2:
            break
        body = head_and_body[1]
    return CurlCall(int((record / "rc").read_text()), status, body)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def demo_server(demo_templates: DemoTemplates) -> AsyncIterator[DemoServer]:
    key = signing_key()
    with JwksServer(key).running() as jwks:
        identity = jwt_settings(jwks_url=jwks.url).identity
        settings = Settings(api_tokens=(TOKEN,), cors_origins=(CORS_ORIGIN,), identity=identity)
        database = open_database(settings)  # the engine in process, as `serve --demo` has it
        # The demo as a server started with `--demo` earlier in the session holds it, on the
        # real clock: a copy of the session's seeding.
        await demo_templates.copy_into(database, settings, demo_templates.real_now())
        app = create_app(settings, database=database)
        token = key.sign(claims(JWT_USER, lifetime=JWT_LIFETIME_S))
        try:
            async with running(app) as client, live_server(app, lifespan="off") as url:
                client.headers["authorization"] = f"Bearer {TOKEN}"
                yield DemoServer(client=client, url=url, jwt=token)
        finally:
            await database.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    found = all_examples()
    graphql = sum(1 for example in found if example.kind == "graphql")
    terminalreporter.write_line(
        f"docs examples: {graphql} GraphQL and {len(found) - graphql} curl blocks"
    )
