"""The Python modules of the repository that the checks read."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def python_files(root: Path, *, skipped: frozenset[str]) -> Iterator[Path]:
    """Every .py file under `root`, in a stable order; not under the top-level directories in
    `skipped`, nor under hidden directories or __pycache__ anywhere."""
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = sorted(
            name
            for name in subdirectories
            if not name.startswith(".")
            and name != "__pycache__"
            and not (name in skipped and Path(directory) == root)
        )
        for name in sorted(files):
            if name.endswith(".py"):
                yield Path(directory, name)
