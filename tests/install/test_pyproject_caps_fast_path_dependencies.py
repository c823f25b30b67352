"""pyproject.toml caps strawberry-graphql and graphql-core at the releases the fast paths are
tested on (runtime/internals.py lists the private functions they replace), and mongomock-ng and
PyMongo at the releases the embedded engine is tested on (embedded/internals.py's TESTED): the
locked release is allowed, the next one, even a patch, is not until someone raises the cap."""

from __future__ import annotations

import pytest
from packaging.utils import canonicalize_name
from packaging.version import Version

from embedded.internals import TESTED as EMBEDDED_TESTED
from tests.install.support import DEV_LOCK, lock, project_requirements


def next_releases(version: str) -> list[str]:
    major, minor, micro = Version(version).release[:3]
    return [f"{major}.{minor}.{micro + 1}", f"{major}.{minor + 1}.0", f"{major + 1}.0.0"]


@pytest.mark.parametrize("name", ["strawberry-graphql", "graphql-core", *sorted(EMBEDDED_TESTED)])
def test_pyproject_refuses_releases_after_the_locked_one(name: str) -> None:
    (requirement,) = [r for r in project_requirements() if canonicalize_name(r.name) == name]
    locked = lock(DEV_LOCK)[canonicalize_name(name)].version
    assert requirement.specifier.contains(locked)
    for later in next_releases(locked):
        assert not requirement.specifier.contains(later, prereleases=True), (name, later)
