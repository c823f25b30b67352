"""`make run` installs the runtime lock alone, with its hashes (no pytest, mypy, ruff,
Playwright or Hypothesis in a fresh clone's environment), and `make test` the development lock:
read from `make -n` (what make would run) against a venv that does not exist yet."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from tests.install.support import ROOT


def dry_run(target: str, venv: Path) -> list[str]:
    """The commands `make <target>` would run to set up `venv` from nothing, then run."""
    # not the flags of a `make test` this runs under: its own dry run, from a clean slate
    inherited = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")
    env = {name: value for name, value in os.environ.items() if name not in inherited}
    done = subprocess.run(
        ["make", "-n", "-C", str(ROOT), target, f"VENV={venv}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return done.stdout.splitlines()


def installs(commands: list[str]) -> list[str]:
    """The lines that install something (pip's or uv's `pip install` or `pip sync`)."""
    steps = [c.strip() for c in commands if not c.startswith("echo ")]
    return [c for c in steps if re.search(r"\bpip (install|sync) ", c)]


def installs_the_project(command: str) -> bool:
    words = command.split()
    return "-e" in words and words[words.index("-e") + 1] == "."


def test_make_run_installs_the_runtime_lock_only(tmp_path: Path) -> None:
    commands = dry_run("run", tmp_path / "venv")
    steps = installs(commands)
    syncs = [c for c in steps if " pip sync " in c]
    assert len(syncs) == 1, steps
    assert "--require-hashes" in syncs[0]
    assert "requirements/runtime.txt" in syncs[0].split()
    assert not [c for c in commands if "requirements/dev.txt" in c or "[dev]" in c]
    # uv from its lock with its hashes, then the project alone: no dependency unlocked
    assert [c for c in steps if "-r requirements/uv.txt" in c and "--require-hashes" in c]
    project = [c for c in steps if installs_the_project(c)]
    assert len(project) == 1 and "--no-deps" in project[0], steps
    assert len(steps) == 3, steps


def test_make_test_installs_the_dev_lock(tmp_path: Path) -> None:
    syncs = [c for c in installs(dry_run("test", tmp_path / "venv")) if " pip sync " in c]
    assert len(syncs) == 1, syncs
    assert "--require-hashes" in syncs[0]
    assert "requirements/dev.txt" in syncs[0].split()
