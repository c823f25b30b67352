"""deploy/docker-entrypoint.sh, run by `sh` with a stand-in `arraygraph` on PATH that prints its
process id and arguments: the server replaces the script (exec, so it gets the container's
SIGTERM), and `--demo` is added only when ARRAYGRAPH_DEMO asks for it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.deploy.support import ENTRYPOINT_SCRIPT

IMAGE_COMMAND = ["serve", "--host", "0.0.0.0", "--port", "8000"]
STAND_IN = '#!/bin/sh\necho "$$"\nfor argument in "$@"; do echo "$argument"; done\n'


@pytest.fixture
def bin_dir(tmp_path: Path) -> Path:
    stand_in = tmp_path / "arraygraph"
    stand_in.write_text(STAND_IN)
    stand_in.chmod(0o755)
    return tmp_path


def run(bin_dir: Path, arguments: list[str], demo: str | None) -> tuple[int, int, list[str], str]:
    """(exit code, the script's process id, the lines the stand-in printed, stderr)."""
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    if demo is not None:
        env["ARRAYGRAPH_DEMO"] = demo
    process = subprocess.Popen(
        ["sh", str(ENTRYPOINT_SCRIPT), *arguments],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = process.communicate(timeout=30)
    return process.returncode, process.pid, out.splitlines(), err


def test_entrypoint_execs_arraygraph_in_its_own_process(bin_dir: Path) -> None:
    code, pid, printed, _ = run(bin_dir, IMAGE_COMMAND, demo=None)
    assert code == 0
    assert printed[0] == str(pid)  # the same process: the script exec'd, it did not fork
    assert printed[1:] == IMAGE_COMMAND


@pytest.mark.parametrize("demo", ["1", "true", "YES", "on"])
def test_entrypoint_adds_demo_to_serve_when_asked(bin_dir: Path, demo: str) -> None:
    code, _, printed, _ = run(bin_dir, IMAGE_COMMAND, demo=demo)
    assert code == 0
    assert printed[1:] == ["serve", "--demo", *IMAGE_COMMAND[1:]]


@pytest.mark.parametrize("demo", [None, "", "0", "false", "No", "off"])
def test_entrypoint_serves_without_demo_unless_asked(bin_dir: Path, demo: str | None) -> None:
    code, _, printed, _ = run(bin_dir, IMAGE_COMMAND, demo=demo)
    assert code == 0
    assert printed[1:] == IMAGE_COMMAND


def test_entrypoint_adds_demo_to_serve_only(bin_dir: Path) -> None:
    code, _, printed, _ = run(bin_dir, ["migrate"], demo="1")
    assert code == 0
    assert printed[1:] == ["migrate"]


def test_entrypoint_refuses_a_demo_value_it_cannot_read(bin_dir: Path) -> None:
    code, _, printed, err = run(bin_dir, IMAGE_COMMAND, demo="maybe")
    assert code == 2
    assert printed == []  # arraygraph never started
    assert "ARRAYGRAPH_DEMO must be on or off" in err and "'maybe'" in err
