"""docker-compose.yml, read as Compose reads it (no Docker engine runs here): valid under the
compose-spec schema (vendored in deploy/compose-spec/), MongoDB a one-node replica set with
authentication, healthy only once primary and signed in as root, the app started after it and
restarted unless stopped, and the demo loaded only when asked. Its secrets: test_compose_secrets.
`docker compose config` checks it too where the compose plugin is installed."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.deploy.support import COMPOSE_FILE, ROOT, compose_file

SCHEMA_DIR = ROOT / "deploy" / "compose-spec"
ENV: dict[str, str] = {}  # nothing is required from the environment: secrets are files


def validator() -> jsonschema.protocols.Validator:
    schema = json.loads((SCHEMA_DIR / "compose-spec.json").read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def schema_errors(document: dict[str, Any]) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator().iter_errors(document)]


def app(env: dict[str, str] | None = None) -> dict[str, Any]:
    service: dict[str, Any] = compose_file(ENV if env is None else env)["services"]["arraygraph"]
    return service


def mongodb() -> dict[str, Any]:
    service: dict[str, Any] = compose_file(ENV)["services"]["mongodb"]
    return service


def test_compose_file_is_valid_under_the_compose_spec() -> None:
    assert schema_errors(compose_file(ENV)) == []


def test_compose_spec_schema_refuses_a_misspelled_service_key() -> None:
    broken = copy.deepcopy(compose_file(ENV))
    broken["services"]["arraygraph"]["restart_policy"] = "unless-stopped"
    assert schema_errors(broken)  # the check bites: a typo is an error, not ignored


def test_compose_spec_schema_is_the_recorded_upstream_file() -> None:
    recorded = re.search(r"sha256 `([0-9a-f]{64})`", (SCHEMA_DIR / "README.md").read_text())
    assert recorded is not None
    digest = hashlib.sha256((SCHEMA_DIR / "compose-spec.json").read_bytes()).hexdigest()
    assert digest == recorded.group(1)


def test_compose_app_is_built_from_the_checkout() -> None:
    assert app()["build"] == {"context": "."}
    assert (ROOT / "Dockerfile").is_file()


def test_compose_app_starts_once_mongodb_is_healthy() -> None:
    assert app()["depends_on"] == {"mongodb": {"condition": "service_healthy", "restart": True}}


def test_compose_services_restart_unless_stopped() -> None:
    services = compose_file(ENV)["services"]
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
    uri = re.search(r"(mongodb://[^\s\"]+)\" > mongodb-uri", COMPOSE_FILE.read_text())
    assert uri is not None  # the URI the file's instructions write, with the app's password
    assert uri.group(1).endswith(f"@mongodb:27017/?replicaSet={replica_set}&authSource=admin")
    check = mongodb()["healthcheck"]["test"][-1]
    member = "{_id: 0, host: 'mongodb:27017'}"  # the service's name, as the app resolves it
    assert f"rs.initiate({{_id: '{replica_set}', members: [{member}]}})" in check


def test_compose_mongodb_health_check_runs_mongosh_without_a_shell() -> None:
    test = mongodb()["healthcheck"]["test"]
    assert test[:5] == ["CMD", "mongosh", "--quiet", "--norc", "--eval"]
    assert len(test) == 6
    assert "isWritablePrimary" in test[5] and "quit(1)" in test[5]


def test_compose_mongodb_keeps_its_data_in_named_volumes() -> None:
    loaded = compose_file(ENV)
    assert mongodb()["volumes"] == ["mongodb-data:/data/db", "mongodb-config:/data/configdb"]
    assert set(loaded["volumes"]) == {"mongodb-data", "mongodb-config"}


@pytest.mark.parametrize(("asked", "passed"), [(None, "0"), ("1", "1"), ("", "0")])
def test_compose_app_loads_the_demo_only_when_asked(asked: str | None, passed: str) -> None:
    env = ENV if asked is None else {**ENV, "ARRAYGRAPH_DEMO": asked}
    assert app(env)["environment"]["ARRAYGRAPH_DEMO"] == passed
    assert "--demo" not in COMPOSE_FILE.read_text()


def test_compose_app_is_published_on_the_host_loopback_by_default() -> None:
    assert app()["ports"] == ["127.0.0.1:8000:8000"]
    assert app({**ENV, "ARRAYGRAPH_PUBLISH": "0.0.0.0:80"})["ports"] == ["0.0.0.0:80:8000"]


def test_compose_file_documents_the_uri_to_reach_mongodb_from_the_host() -> None:
    assert mongodb()["ports"] == ["127.0.0.1:27017:27017"]
    documented = "@127.0.0.1:27017/?directConnection=true&authSource=admin'"
    assert f"MONGODB_URI='mongodb://USER:PASSWORD{documented}" in COMPOSE_FILE.read_text()


def test_compose_mongodb_runs_with_a_key_file_its_entrypoint_makes() -> None:
    command = mongodb()["command"]
    assert command[0] == "mongod"  # the image's entrypoint makes users and adds --auth for mongod
    key_file = command[command.index("--keyFile") + 1]
    script = (ROOT / "deploy" / "mongodb" / "entrypoint.sh").read_text()
    assert f"key_file={key_file}\n" in script and key_file.startswith("/data/configdb/")
    assert 'chmod 0400 "$key_file"' in script and 'exec docker-entrypoint.sh "$@"' in script
    sources = {c["target"]: c["source"] for c in mongodb()["configs"]}
    shell, path = mongodb()["entrypoint"]
    assert shell == "sh"
    assert compose_file(ENV)["configs"][sources[path]] == {"file": "./deploy/mongodb/entrypoint.sh"}


# A stand-in for mongosh's globals (rs, db, sleep, quit), to run the health check's script with
# Node.js: `status` is the error rs.status() throws (None: initiated), `primary_after` the calls
# to db.hello() before it answers isWritablePrimary (None: never), `password` root's. As the
# server does, every call before a good sign-in is refused.
MONGOSH = """
const state = %s;
const seen = {signedIn: [], initiated: [], hellos: 0};
process.on("exit", () => console.log(JSON.stringify(seen)));
function refused(codeName) { const e = new Error(codeName); e.codeName = codeName; throw e; }
function signedIn() { if (seen.signedIn.length === 0) refused("Unauthorized"); }
globalThis.rs = {
  status() { signedIn(); if (state.status) refused(state.status); return {ok: 1}; },
  initiate(config) {
    signedIn(); seen.initiated.push(config); state.status = null; return {ok: 1};
  },
};
globalThis.db = {
  getSiblingDB(name) {
    return {auth(user, pwd) {
      if (pwd !== state.password) refused("AuthenticationFailed");
      seen.signedIn.push([name, user]);
      return {ok: 1};
    }};
  },
  hello() {
    seen.hellos += 1;
    return {isWritablePrimary: state.primary_after !== null && seen.hellos > state.primary_after};
  },
};
globalThis.sleep = () => {};
globalThis.quit = (code) => process.exit(code);
"""
ROOT_PASSWORD = "root-password-from-the-secret"


def run_health_check(
    status: str | None, primary_after: int | None, password: str = ROOT_PASSWORD
) -> tuple[int, dict[str, Any]]:
    """The check's exit code, and what it did: its sign-ins, rs.initiate's configurations,
    db.hello() calls. Root's password is in a file, as the secret is mounted (with a newline)."""
    script = mongodb()["healthcheck"]["test"][-1]
    state = json.dumps({"status": status, "primary_after": primary_after, "password": password})
    env = mongodb()["environment"]
    node = shutil.which("node") or "node"
    with tempfile.TemporaryDirectory() as directory:
        secret = Path(directory) / "mongodb_root_password"
        secret.write_text(ROOT_PASSWORD + "\n", encoding="utf-8")
        result = subprocess.run(
            [node, "-e", MONGOSH % state + script],
            env={**os.environ, **env, "MONGO_INITDB_ROOT_PASSWORD_FILE": str(secret)},
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    return result.returncode, json.loads(result.stdout.splitlines()[-1])


needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")


@needs_node
def test_compose_mongodb_health_check_initiates_the_replica_set_then_waits_for_primary() -> None:
    code, seen = run_health_check(status="NotYetInitialized", primary_after=3)
    assert code == 0
    assert seen["signedIn"] == [["admin", "root"]]  # as root, before anything else
    assert seen["initiated"] == [{"_id": "rs0", "members": [{"_id": 0, "host": "mongodb:27017"}]}]
    assert seen["hellos"] == 5  # 3 not primary, 1 primary (the wait ends), 1 final check


@needs_node
def test_compose_mongodb_health_check_fails_while_no_member_is_primary() -> None:
    code, seen = run_health_check(status=None, primary_after=None)
    assert code == 1
    assert seen["initiated"] == []


@needs_node
def test_compose_mongodb_health_check_fails_on_any_other_error() -> None:
    code, seen = run_health_check(status="NotPrimaryOrSecondary", primary_after=0)
    assert code != 0
    assert seen == {"signedIn": [["admin", "root"]], "initiated": [], "hellos": 0}


@needs_node
def test_compose_mongodb_health_check_fails_when_root_cannot_sign_in() -> None:
    code, seen = run_health_check(status="NotYetInitialized", primary_after=0, password="other")
    assert code != 0
    assert seen == {"signedIn": [], "initiated": [], "hellos": 0}


@needs_node
def test_compose_mongodb_health_check_passes_on_a_primary_without_initiating() -> None:
    code, seen = run_health_check(status=None, primary_after=0)
    assert code == 0
    assert seen == {"signedIn": [["admin", "root"]], "initiated": [], "hellos": 2}


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
def test_compose_config_accepts_the_file(tmp_path: Path) -> None:
    command = docker_compose() or []
    base = {k: v for k, v in os.environ.items() if not k.startswith("ARRAYGRAPH_")}
    for name in ("mongodb-root-password", "mongodb-uri", "api-tokens"):
        (tmp_path / name).write_text("placeholder\n", encoding="utf-8")
    result = subprocess.run(
        # --env-file: a developer's .env beside the file is not read.
        [*command, "--file", str(COMPOSE_FILE), "--env-file", os.devnull, "config", "--quiet"],
        env={**base, "ARRAYGRAPH_SECRETS": str(tmp_path)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
