"""`arraygraph serve --demo` says where GraphiQL is once a request would be answered: the line
comes after the app's start-up (demo data loaded, its time told) and the port listening, so
the first request sent on seeing it is answered, demo data included."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import httpx

from tests.support import free_port
from tests.support.stderr_lines import stderr_lines_until
from web.graphiql.example import EXAMPLE_QUERY

ROOT = Path(__file__).resolve().parents[2]
READY = re.compile(
    r"arraygraph: GraphiQL at (http://\S+/graphql) \(demo data loaded in [\d.]+ s\)$"
)


def test_ready_line_comes_once_the_demo_is_served() -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARRAYGRAPH_", "MONGODB_"))}
    env["ARRAYGRAPH_LOG_FORMAT"] = "text"
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve", "--demo", "--port", str(port)],
        cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        lines = stderr_lines_until(process, READY.match, 120)
        # At once and only once: no retry hides a port that does not listen yet.
        response = httpx.post(f"http://127.0.0.1:{port}/graphql", json={"query": EXAMPLE_QUERY})
    finally:
        process.terminate()
        process.wait(timeout=30)
    match = READY.match(lines[-1])
    assert match is not None and match[1] == f"http://127.0.0.1:{port}/graphql"
    assert any("Application startup complete" in line for line in lines[:-1])
    answer = response.json()
    assert "errors" not in answer
    assert answer["data"]["user"]["orderCount"] == 200
