"""`make run`'s environment is the runtime lock alone: none of the development toolchain
(test runners, type checker, linter, browser driver, fuzzer) is in it, while dev.txt has them."""

from __future__ import annotations

from tests.install.support import DEV_LOCK, DEV_TOOLS, RUNTIME_LOCK, lock


def test_runtime_lock_holds_no_development_tool() -> None:
    runtime = lock(RUNTIME_LOCK)
    assert not [tool for tool in DEV_TOOLS if tool in runtime]
    assert not [name for name in runtime if name.startswith(("pytest-", "types-"))]


def test_dev_lock_holds_every_development_tool() -> None:
    dev = lock(DEV_LOCK)
    assert [tool for tool in DEV_TOOLS if tool not in dev] == []
