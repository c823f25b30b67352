"""Every entry of the skip table names a test the suite holds, with a reason of a known kind, so
a test that left the suite, or was renamed, cannot leave a stale skip behind."""

from __future__ import annotations

from pathlib import Path

from tests.conformance.runner.specs import load_tests
from tests.conformance.skips import SKIPS

REASON_KINDS = ("server version:", "topology:", "fail points:", "driver", "server:")


def test_every_skip_names_a_test_of_the_suite(specs: Path) -> None:
    existing = {test.key for test in load_tests(specs)}
    stale = sorted(key for key in SKIPS if key not in existing)
    assert not stale, f"skips.toml names tests the suite no longer has: {stale}"


def test_every_skip_says_why() -> None:
    unexplained = {key: why for key, why in SKIPS.items() if not why.startswith(REASON_KINDS)}
    assert not unexplained
