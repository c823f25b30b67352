"""The bench's own environment, `.venv-bench`, for the peers the project does not depend on
(Ariadne: bench/peer_ariadne.py). `make bench` creates it on first use and installs Ariadne
with what `python -m bench.peer_env` prints: the project environment's own uvicorn, Starlette
and graphql-core versions, so that every server compared runs the same HTTP stack and the same
GraphQL engine."""

from __future__ import annotations

import subprocess
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEER_PYTHON = ROOT / ".venv-bench" / "bin" / "python"
SHARED = ("uvicorn[standard]", "starlette", "graphql-core")


def pins() -> list[str]:
    return [f"{name}=={version(name.partition('[')[0])}" for name in SHARED]


def ariadne_version() -> str | None:
    """Ariadne's version in the bench environment, or None when that has not been made (by
    `make bench`) or holds no Ariadne."""
    if not PEER_PYTHON.exists():
        return None
    script = "from importlib.metadata import version; print(version('ariadne'))"
    found = subprocess.run(
        [str(PEER_PYTHON), "-c", script], capture_output=True, text=True, check=False
    )
    return found.stdout.strip() if found.returncode == 0 else None


if __name__ == "__main__":
    print(" ".join(pins()))
