"""Reading a server process's stderr until a line shows it reached a point."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable


def stderr_lines_until(
    process: subprocess.Popen[str], reached: Callable[[str], object], seconds: float
) -> list[str]:
    """Its lines (without line ends) up to the first `reached` holds for; AssertionError,
    naming what came, when none does within `seconds` or before the stream ends."""
    assert process.stderr is not None
    deadline = time.monotonic() + seconds
    lines: list[str] = []
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if reached(lines[-1]):
            return lines
    raise AssertionError(f"not reached in {lines}")
