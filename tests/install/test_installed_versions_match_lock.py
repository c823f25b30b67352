"""The environment the tests run in holds the locked versions: above all strawberry-graphql and
graphql-core, whose private functions the fast paths replace (a stale or hand-upgraded venv
would test other code than the one that ships), and every other locked package it has."""

from __future__ import annotations

from importlib import metadata

import pytest

from tests.install.support import DEV_LOCK, RUNTIME_LOCK, lock


@pytest.mark.parametrize("name", ["strawberry-graphql", "graphql-core"])
def test_fast_path_dependencies_are_installed_at_the_locked_version(name: str) -> None:
    assert metadata.version(name) == lock(RUNTIME_LOCK)[name].version


def test_every_installed_locked_package_is_at_its_locked_version() -> None:
    wrong = {}
    for name, locked in lock(DEV_LOCK).items():
        marker = locked.requirement.marker
        if marker is not None and not marker.evaluate():
            continue  # another platform's or interpreter's package
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue  # `make run`'s environment holds the runtime lock alone
        if installed != locked.version:
            wrong[name] = (installed, locked.version)
    assert wrong == {}
