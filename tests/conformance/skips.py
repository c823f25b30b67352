"""The tests of MongoDB's CRUD suite that do not run here, each with why (`skips.toml`): a
requirement an 8.0 standalone does not meet, a fail point, or a driver method or option PyMongo
lacks. A test not in the table runs, and counts as failed when it fails; an entry naming a test
the suite no longer has fails `test_skip_table_names_existing_tests.py`."""

from __future__ import annotations

import tomllib
from pathlib import Path

SKIPS_FILE = Path(__file__).with_name("skips.toml")


def load_skips() -> dict[tuple[str, str], str]:
    """The table: the reason by (file, test description)."""
    with SKIPS_FILE.open("rb") as opened:
        table = tomllib.load(opened)
    return {
        (file, description): str(reason)
        for file, tests in table.items()
        for description, reason in tests.items()
    }


SKIPS = load_skips()
