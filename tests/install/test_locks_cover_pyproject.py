"""Each lock holds every dependency pyproject.toml names for it, at a version pyproject allows:
runtime.txt the runtime dependencies and the build backend, dev.txt those and the `dev` extra
(with `otel`); and dev.txt pins every package runtime.txt holds at the same version, so the one
venv can go from the runtime to development and back."""

from __future__ import annotations

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.install.support import (
    DEV_LOCK,
    RUNTIME_LOCK,
    Locked,
    lock,
    project_requirements,
    pyproject,
)


def assert_locked_within_bounds(
    requirements: list[Requirement], locked: dict[str, Locked], lock_name: str
) -> None:
    for requirement in requirements:
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{lock_name} lacks {requirement}"
        version = locked[name].version
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{lock_name} pins {name}=={version}, outside pyproject's {requirement}"
        )


def test_runtime_lock_holds_every_runtime_dependency_and_the_build_backend() -> None:
    build = [Requirement(text) for text in pyproject()["build-system"]["requires"]]
    wanted = project_requirements() + build
    assert_locked_within_bounds(wanted, lock(RUNTIME_LOCK), RUNTIME_LOCK.name)


def test_dev_lock_holds_every_runtime_and_development_dependency() -> None:
    build = [Requirement(text) for text in pyproject()["build-system"]["requires"]]
    wanted = project_requirements() + project_requirements("dev") + build
    names = {canonicalize_name(r.name) for r in project_requirements("dev")}
    assert {"pytest", "opentelemetry-sdk"} <= names  # the otel extra is expanded
    assert_locked_within_bounds(wanted, lock(DEV_LOCK), DEV_LOCK.name)


def test_dev_lock_pins_every_runtime_package_at_the_same_version() -> None:
    runtime, dev = lock(RUNTIME_LOCK), lock(DEV_LOCK)
    for name, locked in runtime.items():
        assert name in dev, f"{DEV_LOCK.name} lacks {name}"
        assert dev[name].version == locked.version, name
        assert set(dev[name].hashes) == set(locked.hashes), name
