"""The Dockerfile and .dockerignore, read as Docker reads them (no Docker engine runs here):
wheels built once in a builder stage, installed with no index, a non-root user, exec-form
entrypoint and command, a liveness health check, and a build context of the sources alone."""

from __future__ import annotations

import tomllib

import pytest

from tests.deploy.support import (
    DOCKERFILE,
    DOCKERIGNORE,
    ENTRYPOINT_SCRIPT,
    ROOT,
    Stage,
    dockerignore_patterns,
    exec_form,
    flags_and_rest,
    ignored,
    stages,
)


@pytest.fixture(scope="module")
def builder_and_final() -> tuple[Stage, Stage]:
    found = stages(DOCKERFILE.read_text())
    assert len(found) == 2, [stage.base for stage in found]
    return found[0], found[1]


def copied_sources(stage: Stage) -> list[str]:
    """What the stage's COPY instructions take from the build context (not from a stage)."""
    sources: list[str] = []
    for copy in stage.all("COPY"):
        flags, rest = flags_and_rest(copy.arguments)
        if "from" not in flags:
            sources += rest.split()[:-1]
    return sources


def test_dockerfile_builds_every_wheel_in_a_builder_stage(
    builder_and_final: tuple[Stage, Stage],
) -> None:
    builder, final = builder_and_final
    assert builder.name == "builder"
    runs = [flags_and_rest(run.arguments) for run in builder.all("RUN")]
    assert runs == [
        (
            {"mount": "type=cache,target=/root/.cache/pip"},
            "pip wheel --require-hashes --no-deps --wheel-dir /wheels -r requirements/runtime.txt",
        ),
        ({}, "pip wheel --no-index --find-links=/wheels --no-deps --wheel-dir /wheels ."),
    ]
    assert not any("pip wheel" in run.arguments for run in final.all("RUN"))


def test_dockerfile_final_stage_installs_the_wheels_with_no_index(
    builder_and_final: tuple[Stage, Stage],
) -> None:
    _, final = builder_and_final
    installs = [run for run in final.all("RUN") if "pip install" in run.arguments]
    assert len(installs) == 1
    flags, command = flags_and_rest(installs[0].arguments)
    assert flags == {"mount": "type=bind,from=builder,source=/wheels,target=/wheels"}
    assert "pip install --no-index --find-links=/wheels arraygraph" in command


def test_dockerfile_final_stage_runs_as_a_non_root_user(
    builder_and_final: tuple[Stage, Stage],
) -> None:
    _, final = builder_and_final
    user = final.last("USER").arguments
    uid, _, gid = user.partition(":")
    assert uid.isdigit() and int(uid) > 0, user  # numeric: Kubernetes' runAsNonRoot can tell
    assert gid.isdigit() and int(gid) > 0, user
    created = " ".join(run.arguments for run in final.all("RUN"))
    assert f"useradd --system --uid {uid}" in created
    assert f"groupadd --system --gid {gid}" in created


def test_dockerfile_entrypoint_and_command_are_exec_form(
    builder_and_final: tuple[Stage, Stage],
) -> None:
    _, final = builder_and_final
    assert exec_form(final.last("ENTRYPOINT").arguments) == ["arraygraph-entrypoint"]
    command = exec_form(final.last("CMD").arguments)
    assert command == ["serve", "--host", "0.0.0.0", "--port", "8000"]


def test_dockerfile_entrypoint_is_the_deploy_script(
    builder_and_final: tuple[Stage, Stage],
) -> None:
    _, final = builder_and_final
    copies = [flags_and_rest(copy.arguments) for copy in final.all("COPY")]
    assert (
        {"chmod": "0755"},
        "deploy/docker-entrypoint.sh /usr/local/bin/arraygraph-entrypoint",
    ) in copies


def test_dockerfile_healthcheck_probes_healthz_on_the_served_port(
    builder_and_final: tuple[Stage, Stage],
) -> None:
    _, final = builder_and_final
    flags, rest = flags_and_rest(final.last("HEALTHCHECK").arguments)
    assert rest.startswith("CMD ")
    probe = exec_form(rest.removeprefix("CMD "))
    assert probe is not None and probe[:2] == ["python", "-c"]
    command = exec_form(final.last("CMD").arguments) or []
    port = command[command.index("--port") + 1]
    assert f"'http://127.0.0.1:{port}/healthz'" in probe[2]
    assert "readyz" not in probe[2]  # liveness: a database outage must not fail it
    assert set(flags) == {"interval", "timeout", "start-period", "start-interval", "retries"}


def test_dockerfile_starts_the_server_without_installing_anything(
    builder_and_final: tuple[Stage, Stage],
) -> None:
    _, final = builder_and_final
    script = [
        line for line in ENTRYPOINT_SCRIPT.read_text().splitlines() if not line.startswith("#")
    ]
    at_start = [final.last("ENTRYPOINT").arguments, final.last("CMD").arguments, *script]
    for text in at_start:
        assert "pip" not in text and "install" not in text, text
    assert script[-1] == 'exec arraygraph "$@"'


def test_dockerfile_copies_every_module_and_package_the_wheel_holds(
    builder_and_final: tuple[Stage, Stage],
) -> None:
    builder, _ = builder_and_final
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    setuptools = pyproject["tool"]["setuptools"]
    wanted = {f"{module}.py" for module in setuptools["py-modules"]}
    wanted |= {f"{package}/" for package in setuptools["packages"] if "." not in package}
    wanted |= {"pyproject.toml", pyproject["project"]["readme"], "requirements/runtime.txt"}
    assert set(copied_sources(builder)) == wanted


def test_dockerignore_leaves_out_local_state() -> None:
    patterns = dockerignore_patterns(DOCKERIGNORE.read_text())
    for path in (
        ".venv/bin/python",
        ".git/HEAD",
        "build/lib/app.py",
        "dist/arraygraph-0.1.0-py3-none-any.whl",
        "arraygraph.egg-info/PKG-INFO",
        "web/arraygraph.egg-info/PKG-INFO",
        "web/__pycache__/app.cpython-312.pyc",
        "store/demo.pyc",
        ".mypy_cache/3.11/app.meta.json",
        ".pytest_cache/v/cache/lastfailed",
        "tests/conftest.py",
        "docs/graphiql.png",
        "deploy/compose-spec/compose-spec.json",
        ".env",
    ):
        assert ignored(path, patterns), path


def test_dockerignore_lets_in_every_file_the_dockerfile_copies(
    builder_and_final: tuple[Stage, Stage],
) -> None:
    builder, final = builder_and_final
    patterns = dockerignore_patterns(DOCKERIGNORE.read_text())
    sent = []
    for source in copied_sources(builder) + copied_sources(final):
        path = ROOT / source
        files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
        for file in files:
            relative = file.relative_to(ROOT).as_posix()
            if "__pycache__" not in relative:
                assert not ignored(relative, patterns), relative
                sent.append(relative)
    assert "web/graphiql/assets/manifest.json" in sent
