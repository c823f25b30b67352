"""docker-compose.yml, read as Compose reads it (no Docker engine runs here): valid under the
compose-spec schema (vendored in deploy/compose-spec/), a token required from the environment,
MongoDB a one-node replica set healthy only once primary, the app started after it and restarted
unless stopped, and the demo loaded only when asked. `docker compose config` checks it too where
the compose plugin is installed."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import shutil
import subprocess
from typing import Any

import jsonschema
import pytest

from tests.deploy.support import COMPOSE_FILE, ROOT, MissingVariable, compose_file

SCHEMA_DIR = ROOT / "deploy" / "compose-spec"
TOKENS = {"ARRAYGRAPH_API_TOKENS": "token-a,token-b"}


def validator() -> jsonschema.protocols.Validator:
    schema = json.loads((SCHEMA_DIR / "compose-spec.json").read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def schema_errors(document: dict[str, Any]) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator().iter_errors(document)]


def app(env: dict[str, str] | None = None) -> dict[str, Any]:
    service: dict[str, Any] = compose_file(TOKENS if env is None else env)["services"]["arraygraph"]
    return service


def mongodb() -> dict[str, Any]:
    service: dict[str, Any] = compose_file(TOKENS)["services"]["mongodb"]
    return service


def test_compose_file_is_valid_under_the_compose_spec() -> None:
    assert schema_errors(compose_file(TOKENS)) == []


def test_compose_spec_schema_refuses_a_misspelled_service_key() -> None:
    broken = copy.deepcopy(compose_file(TOKENS))
    broken["services"]["arraygraph"]["restart_policy"] = "unless-stopped"
    assert schema_errors(broken)  # the check bites: a typo is an error, not ignored


def test_compose_spec_schema_is_the_recorded_upstream_file() -> None:
    recorded = re.search(r"sha256 `([0-9a-f]{64})`", (SCHEMA_DIR / "README.md").read_text())
    assert recorded is not None
    digest = hashlib.sha256((SCHEMA_DIR / "compose-spec.json").read_bytes()).hexdigest()
    assert digest == recorded.group(1)


@pytest.mark.parametrize("env", [{}, {"ARRAYGRAPH_API_TOKENS": ""}])
def test_compose_app_refuses_to_start_without_tokens(env: dict[str, str]) -> None:
    with pytest.raises(MissingVariable, match=r"ARRAYGRAPH_API_TOKENS.*set ARRAYGRAPH_API_TOKENS"):
        compose_file(env)


def test_compose_app_takes_its_tokens_from_the_environment() -> None:
    raw = compose_file()["services"]["arraygraph"]["environment"]["ARRAYGRAPH_API_TOKENS"]
    assert raw.startswith("${ARRAYGRAPH_API_TOKENS:?")  # no default: no secret in the file
    assert app()["environment"]["ARRAYGRAPH_API_TOKENS"] == TOKENS["ARRAYGRAPH_API_TOKENS"]


def test_compose_app_is_built_from_the_checkout() -> None:
    assert app()["build"] == {"context": "."}
    assert (ROOT / "Dockerfile").is_file()


def test_compose_app_starts_once_mongodb_is_healthy() -> None:
    assert app()["depends_on"] == {"mongodb": {"condition": "service_healthy", "restart": True}}


def test_compose_services_restart_unless_stopped() -> None:
    services = compose_file(TOKENS)["services"]
    assert {name: s.get("restart") for name, s in services.items()} == {
        "mongodb": "unless-stopped",
        "arraygraph": "unless-stopped",
    }


def test_compose_app_keeps_the_image_liveness_check() -> None:
    # No override: the image's HEALTHCHECK (GET /healthz) is the container's. /readyz stays
    # for load balancers, so a database outage never marks the container unhealthy.
    assert "healthcheck" not in app()


def test_compose_app_runs_the_image_as_built() -> None:
    service = app()
    for key in ("command", "entrypoint", "volumes", "working_dir", "user"):
        assert key not in service, key  # no install at start, no checkout mounted, no root
    assert service["init"] is True  # docker's init forwards SIGTERM to the server


def test_compose_mongodb_runs_a_replica_set_the_app_names() -> None:
    command = mongodb()["command"]
    replica_set = command[command.index("--replSet") + 1]
    uri = app()["environment"]["MONGODB_URI"]
    assert uri == f"mongodb://mongodb:27017/?replicaSet={replica_set}"
    check = mongodb()["healthcheck"]["test"][-1]
    member = "{_id: 0, host: 'mongodb:27017'}"  # the service's name, as the app resolves it
    assert f"rs.initiate({{_id: '{replica_set}', members: [{member}]}})" in check


def test_compose_mongodb_health_check_runs_mongosh_without_a_shell() -> None:
    test = mongodb()["healthcheck"]["test"]
    assert test[:5] == ["CMD", "mongosh", "--quiet", "--norc", "--eval"]
    assert len(test) == 6
    assert "isWritablePrimary" in test[5] and "quit(1)" in test[5]


def test_compose_mongodb_keeps_its_data_in_named_volumes() -> None:
    loaded = compose_file(TOKENS)
    assert mongodb()["volumes"] == ["mongodb-data:/data/db", "mongodb-config:/data/configdb"]
    assert set(loaded["volumes"]) == {"mongodb-data", "mongodb-config"}


@pytest.mark.parametrize(("asked", "passed"), [(None, "0"), ("1", "1"), ("", "0")])
def test_compose_app_loads_the_demo_only_when_asked(asked: str | None, passed: str) -> None:
    env = TOKENS if asked is None else {**TOKENS, "ARRAYGRAPH_DEMO": asked}
    assert app(env)["environment"]["ARRAYGRAPH_DEMO"] == passed
    assert "--demo" not in COMPOSE_FILE.read_text()


def test_compose_app_is_published_on_the_host_loopback_by_default() -> None:
    assert app()["ports"] == ["127.0.0.1:8000:8000"]
    assert app({**TOKENS, "ARRAYGRAPH_PUBLISH": "0.0.0.0:80"})["ports"] == ["0.0.0.0:80:8000"]


def test_compose_file_documents_the_uri_to_reach_mongodb_from_the_host() -> None:
    assert mongodb()["ports"] == ["127.0.0.1:27017:27017"]
    assert "MONGODB_URI='mongodb://127.0.0.1:27017/?directConnection=true'" in (
        COMPOSE_FILE.read_text()
    )


# A stand-in for mongosh's globals (rs, db, sleep, quit), to run the health check's script with
# Node.js: `status` is the error rs.status() throws (None: initiated), `primary_after` the calls
# to db.hello() before it answers isWritablePrimary (None: never).
MONGOSH = """
const state = %s;
const seen = {initiated: [], hellos: 0};
process.on("exit", () => console.log(JSON.stringify(seen)));
globalThis.rs = {
  status() {
    if (state.status) { const e = new Error(state.status); e.codeName = state.status; throw e; }
    return {ok: 1};
  },
  initiate(config) { seen.initiated.push(config); state.status = null; return {ok: 1}; },
};
globalThis.db = {
  hello() {
    seen.hellos += 1;
    return {isWritablePrimary: state.primary_after !== null && seen.hellos > state.primary_after};
  },
};
globalThis.sleep = () => {};
globalThis.quit = (code) => process.exit(code);
"""


def run_health_check(status: str | None, primary_after: int | None) -> tuple[int, dict[str, Any]]:
    """The check's exit code, and what it did: rs.initiate's configurations, db.hello() calls."""
    script = mongodb()["healthcheck"]["test"][-1]
    state = json.dumps({"status": status, "primary_after": primary_after})
    node = shutil.which("node") or "node"
    result = subprocess.run(
        [node, "-e", MONGOSH % state + script], capture_output=True, text=True, check=False
    )
    return result.returncode, json.loads(result.stdout.splitlines()[-1])


needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")


@needs_node
def test_compose_mongodb_health_check_initiates_the_replica_set_then_waits_for_primary() -> None:
    code, seen = run_health_check(status="NotYetInitialized", primary_after=3)
    assert code == 0
    assert seen["initiated"] == [{"_id": "rs0", "members": [{"_id": 0, "host": "mongodb:27017"}]}]
    assert seen["hellos"] == 5  # 3 not primary, 1 primary (the wait ends), 1 final check


@needs_node
def test_compose_mongodb_health_check_fails_while_no_member_is_primary() -> None:
    code, seen = run_health_check(status=None, primary_after=None)
    assert code == 1
    assert seen["initiated"] == []


@needs_node
def test_compose_mongodb_health_check_fails_on_any_other_error() -> None:
    code, seen = run_health_check(status="Unauthorized", primary_after=0)
    assert code != 0
    assert seen == {"initiated": [], "hellos": 0}


@needs_node
def test_compose_mongodb_health_check_passes_on_a_primary_without_initiating() -> None:
    code, seen = run_health_check(status=None, primary_after=0)
    assert code == 0
    assert seen == {"initiated": [], "hellos": 2}


def docker_compose() -> list[str] | None:
    for command in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(command[0]) is None:
            continue
        probe = subprocess.run([*command, "version"], capture_output=True, text=True, check=False)
        major = re.search(r"version v?(\d+)\.", probe.stdout)
        if probe.returncode == 0 and major and int(major.group(1)) >= 2:  # not Python's 1.x
            return command
    return None


@pytest.mark.skipif(docker_compose() is None, reason="Docker Compose v2+ is not installed here")
@pytest.mark.parametrize(("env", "valid"), [(TOKENS, True), ({}, False)])
def test_compose_config_accepts_the_file_only_with_tokens(env: dict[str, str], valid: bool) -> None:
    command = docker_compose() or []
    base = {k: v for k, v in os.environ.items() if not k.startswith("ARRAYGRAPH_")}
    result = subprocess.run(
        # --env-file: a developer's .env beside the file (it may hold tokens) is not read.
        [*command, "--file", str(COMPOSE_FILE), "--env-file", os.devnull, "config", "--quiet"],
        env={**base, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode == 0) is valid, result.stderr
    if not valid:
        assert "set ARRAYGRAPH_API_TOKENS" in result.stderr
