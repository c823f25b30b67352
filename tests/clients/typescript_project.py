"""The TypeScript client project in `tests/clients/typescript/`, built as a frontend team builds
it: `npm ci` from the committed lock, GraphQL Code Generator, then `tsc` under `--strict`."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

PROJECT = Path(__file__).resolve().parent / "typescript"
# Written into node_modules/ after a successful `npm ci`: the lock it installed, so that a run
# with the same lock skips the reinstall (npm ci deletes node_modules/ first, every time).
STAMP = PROJECT / "node_modules" / ".arraygraph-installed"
NPM_ENV = {"npm_config_update_notifier": "false", "NO_COLOR": "1"}
RELAY_GENERATED = PROJECT / "relay" / "__generated__"
OPERATION_TEXT = re.compile(r'"text": ("(?:[^"\\]|\\.)*")')


def require_node() -> None:
    """Fail, not skip: without node the docs' client recipes go unchecked."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        pytest.fail(
            f"{' and '.join(missing)} not found: the TypeScript client check "
            "(tests/clients/typescript) needs Node.js 20 or later with npm on PATH"
        )


async def run(*command: str, within_s: float) -> str:
    """The command's stdout, run in the project; its output in the failure when it fails."""
    process = await asyncio.create_subprocess_exec(
        *command,
        cwd=PROJECT,
        env={**os.environ, **NPM_ENV},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), within_s)
    except TimeoutError:
        process.kill()
        await process.wait()
        pytest.fail(f"{' '.join(command)} took over {within_s:.0f} s")
    if process.returncode != 0:
        shown = (out + err).decode(errors="replace")[-4000:]
        pytest.fail(f"{' '.join(command)} exited {process.returncode}:\n{shown}")
    return out.decode()


async def install() -> None:
    """`npm ci` from the committed lock, npm's cache first; skipped when that lock is installed."""
    lock = hashlib.sha256((PROJECT / "package-lock.json").read_bytes()).hexdigest()
    if STAMP.is_file() and STAMP.read_text() == lock:
        return
    await run("npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", within_s=600)
    STAMP.write_text(lock)


async def build() -> None:
    """Install, generate the typed documents (codegen, and Relay's compiler for relay/),
    type-check and compile (into dist/)."""
    await install()
    bin_dir = PROJECT / "node_modules" / ".bin"
    await run(str(bin_dir / "relay-compiler"), within_s=300)
    await run(str(bin_dir / "graphql-codegen"), "--config", "codegen.ts", within_s=300)
    await run(str(bin_dir / "tsc"), "--project", "tsconfig.json", "--strict", within_s=300)


async def run_script(endpoint: str, *arguments: str) -> Any:
    """What `dist/main.js` prints (one JSON document) against `endpoint`."""
    return json.loads(await run("node", "dist/main.js", endpoint, *arguments, within_s=120))


def relay_query(name: str) -> str:
    """The text relay-compiler wrote for an operation: what Relay's network layer sends."""
    generated = (RELAY_GENERATED / f"{name}.graphql.ts").read_text(encoding="utf-8")
    found = OPERATION_TEXT.search(generated)
    assert found is not None, f"relay-compiler wrote no text for {name}"
    text: str = json.loads(found.group(1))
    return text
