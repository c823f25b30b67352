"""The user arraygraph connects as (deploy/mongodb/create-app-user.js, run by the mongodb
image on an empty volume): its name, password and authentication database are those of the URI
arraygraph reads, and its one role is readWrite on arraygraph's database: no other database,
no administration. Run with Node.js, mongosh's `db` stood in for."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.support import ROOT, compose_file

SCRIPT = ROOT / "deploy" / "mongodb" / "create-app-user.js"
MONGOSH = """
const made = [];
process.on("exit", () => console.log(JSON.stringify(made)));
globalThis.print = () => {};
globalThis.db = {getSiblingDB(name) { return {createUser(spec) { made.push([name, spec]); }}; }};
"""

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")


def create(tmp_path: Path, uri: str, env: dict[str, str] | None = None) -> tuple[int, Any, str]:
    """The script's exit code, the users it made ([database, spec]) and its stderr."""
    secret = tmp_path / "mongodb_uri"
    secret.write_text(uri + "\n", encoding="utf-8")
    mongodb = compose_file({} if env is None else env)["services"]["mongodb"]["environment"]
    result = subprocess.run(
        [shutil.which("node") or "node", "-e", MONGOSH + SCRIPT.read_text()],
        env={**os.environ, **mongodb, "MONGODB_URI_FILE": str(secret)},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return result.returncode, json.loads(result.stdout.splitlines()[-1]), result.stderr


def test_the_init_script_is_mounted_where_the_image_runs_it_once() -> None:
    mongodb = compose_file({})["services"]["mongodb"]
    sources = {c["target"]: c["source"] for c in mongodb["configs"]}
    source = sources["/docker-entrypoint-initdb.d/create-app-user.js"]
    assert compose_file({})["configs"][source] == {"file": "./deploy/mongodb/create-app-user.js"}
    app = compose_file({})["services"]["arraygraph"]["environment"]
    assert mongodb["environment"]["MONGODB_URI_FILE"] == app["MONGODB_URI_FILE"]  # one secret


def test_the_app_user_may_read_and_write_its_database_only(tmp_path: Path) -> None:
    uri = "mongodb://arraygraph:app-password@mongodb:27017/?replicaSet=rs0&authSource=admin"
    code, made, _ = create(tmp_path, uri)
    assert code == 0
    roles = [{"role": "readWrite", "db": "arraygraph"}]  # createIndexes included; nothing more
    assert made == [["admin", {"user": "arraygraph", "pwd": "app-password", "roles": roles}]]


def test_the_app_user_follows_the_database_arraygraph_uses(tmp_path: Path) -> None:
    uri = "mongodb://shop%2Dapi:p%40ss%3Aword@mongodb:27017/shop?replicaSet=rs0"
    code, made, _ = create(tmp_path, uri, {"ARRAYGRAPH_DB": "shop"})
    assert code == 0  # the password decoded as the driver decodes it; authSource: the path's
    roles = [{"role": "readWrite", "db": "shop"}]
    assert made == [["shop", {"user": "shop-api", "pwd": "p@ss:word", "roles": roles}]]


def test_a_uri_without_credentials_makes_no_user(tmp_path: Path) -> None:
    code, made, stderr = create(tmp_path, "mongodb://mongodb:27017/?replicaSet=rs0")
    assert code != 0
    assert made == []
    assert "holds no user and password" in stderr
