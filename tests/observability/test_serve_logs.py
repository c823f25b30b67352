"""`arraygraph serve` with ARRAYGRAPH_LOG_FORMAT=json: uvicorn's lines and the request lines are
JSON, and uvicorn's own access line is gone (the request line replaces it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.support import free_port
from tests.support.stderr_lines import stderr_lines_until

ROOT = Path(__file__).resolve().parents[2]
STARTED = "Application startup complete"


def _serve(port: int) -> subprocess.Popen[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ARRAYGRAPH_", "MONGODB_", "OTEL_"))
    }
    env["ARRAYGRAPH_LOG_FORMAT"] = "json"
    return subprocess.Popen(
        [sys.executable, "-c", "import cli; raise SystemExit(cli.main())", "serve",
         "--port", str(port)],
        cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _json(lines: list[str]) -> list[dict[str, Any]]:
    # `serve` prints where GraphiQL is before logging starts: the one line that is not a log line.
    return [json.loads(line) for line in lines if not line.startswith("arraygraph: ")]


def test_serve_writes_uvicorn_and_request_lines_as_json() -> None:
    port = free_port()
    process = _serve(port)
    try:
        started = stderr_lines_until(process, lambda line: STARTED in line, 60)
        response = httpx.get(f"http://127.0.0.1:{port}/healthz", headers={"x-request-id": "e2e"})
        assert response.headers["x-request-id"] == "e2e"
        logged = stderr_lines_until(process, lambda line: '"e2e"' in line, 10)
    finally:
        process.terminate()
        process.wait(timeout=30)
    lines = _json(started + logged)
    uvicorn = [line for line in lines if line["logger"].startswith("uvicorn")]
    assert any(STARTED in line["message"] for line in uvicorn)
    requests = [line for line in lines if line["logger"] == "arraygraph.request"]
    assert [(line["request_id"], line["status"]) for line in requests] == [("e2e", 200)]
    assert not any(line["logger"] == "uvicorn.access" for line in lines)
