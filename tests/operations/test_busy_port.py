"""`arraygraph serve` on a port another process listens on stops at once, before the app is
built or the demo seeded, with one line naming the address and how to choose another port."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_busy_port_is_refused_in_one_line_before_anything_starts() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ARRAYGRAPH_", "MONGODB_"))}
        process = subprocess.run(
            [sys.executable, "-m", "cli", "serve", "--demo", "--port", str(port)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert process.returncode == 1
    # One line, and nothing else: no uvicorn start, no database opened, no demo seeded.
    [line] = process.stderr.splitlines()
    assert line.startswith(f"arraygraph: 127.0.0.1:{port} is already in use")
    other = re.search(r"make run PORT=(\d+), or arraygraph serve --port (\d+)$", line)
    assert other is not None and other[1] == other[2] and int(other[1]) != port
