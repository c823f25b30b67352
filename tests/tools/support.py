"""Running a repository check on a small tree written for the test."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def run_check(
    main: Callable[[Path], int],
    root: Path,
    files: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, list[str]]:
    """Write `files` under `root`, run the check on it: its exit code and the lines printed."""
    for relative, source in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    code = main(root)
    return code, capsys.readouterr().out.splitlines()
