"""`tools/check_layers.py`: dependencies run app -> schema -> resolvers -> store -> embedded, and
runtime/ and embedded/ are sealed."""

from __future__ import annotations

from pathlib import Path

import pytest

from check_layers import main
from tests.tools.support import REPO_ROOT, run_check


def check(
    root: Path, files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[str]]:
    return run_check(main, root, files, capsys)


def test_embedded_must_not_import_arraygraph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "embedded/x.py": "import settings\nfrom store.database import Database\n",
        "embedded/y.py": "import resolvers.paging\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "embedded/x.py:1: embedded.x imports settings: embedded/ must not import arraygraph",
            "embedded/x.py:2: embedded.x imports store.database: "
            "embedded/ must not import arraygraph",
            "embedded/y.py:1: embedded.y imports resolvers.paging: "
            "embedded/ must not import arraygraph",
        ],
    )


def test_runtime_must_not_import_arraygraph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "runtime/x.py": "import settings\nfrom schema.errors import code_of\n",
        "runtime/y.py": "from resolvers.errors import BadUserInput\nimport bson\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "runtime/x.py:1: runtime.x imports settings: runtime/ must not import arraygraph",
            "runtime/x.py:2: runtime.x imports schema.errors: runtime/ must not import arraygraph",
            "runtime/y.py:1: runtime.y imports resolvers.errors: "
            "runtime/ must not import arraygraph",
            "runtime/y.py:2: runtime.y imports bson: "
            "runtime/ may import only the standard library, strawberry, graphql",
        ],
    )


def test_runtime_may_import_strawberry_graphql_and_itself_and_store_may_not_import_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runtime_source = (
        "import threading\nimport strawberry\nfrom graphql import GraphQLError\n"
        "from runtime.errors import shown\nfrom . import errors\n"
    )
    files = {
        "runtime/__init__.py": "",
        "runtime/limits.py": runtime_source,
        "schema/s.py": "import runtime\n",
        "resolvers/r.py": "from runtime.selection.fields import selects\n",
        "web/w.py": "from runtime.request.operation import OperationRunner\n",
        "store/s.py": "from runtime.errors import shown\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        ["store/s.py:1: store.s imports runtime.errors: store/ must not import runtime/"],
    )


def test_embedded_may_import_the_standard_library_pymongo_bson_mongomock_and_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (
        "from __future__ import annotations\n"
        "import asyncio\n"
        "from collections.abc import Mapping\n"
        "import pymongo.errors\n"
        "from bson import ObjectId\n"
        "import mongomock_ng\n"
        "from embedded.rules import check\n"
        "from . import rules\n"
        "import strawberry\n"
    )
    files = {"embedded/__init__.py": "", "embedded/adapter/engine.py": source}
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "embedded/adapter/engine.py:9: embedded.adapter.engine imports strawberry: "
            "embedded/ may import only the standard library, pymongo, bson, mongomock_ng",
        ],
    )


def test_resolvers_must_not_import_schema_web_app_or_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (
        "from schema.b import C\nimport web.state\nfrom app import create_app\nimport cli\n"
        "from store.sensors import SensorStore\nimport settings\n"
    )
    assert check(tmp_path, {"resolvers/a.py": source}, capsys) == (
        1,
        [
            "resolvers/a.py:1: resolvers.a imports schema.b: resolvers/ must not import schema/",
            "resolvers/a.py:2: resolvers.a imports web.state: resolvers/ must not import web/",
            "resolvers/a.py:3: resolvers.a imports app: resolvers/ must not import app.py",
            "resolvers/a.py:4: resolvers.a imports cli: resolvers/ must not import cli.py",
        ],
    )


def test_store_must_not_import_the_layers_above_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = "import resolvers\nfrom schema import schema\nimport web\nimport pymongo\n"
    assert check(tmp_path, {"store/s.py": source}, capsys) == (
        1,
        [
            "store/s.py:1: store.s imports resolvers: store/ must not import resolvers/",
            "store/s.py:2: store.s imports schema: store/ must not import schema/",
            "store/s.py:3: store.s imports web: store/ must not import web/",
        ],
    )


def test_store_imports_embedded_only_in_the_database_handle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "store/s.py": "import embedded\n",
        "store/t.py": "from embedded.adapter.engine import EmbeddedEngine\n",
        "store/database.py": "from embedded import E\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "store/s.py:1: store.s imports embedded: "
            "store/ imports embedded/ only in store/database.py",
            "store/t.py:1: store.t imports embedded.adapter.engine: "
            "store/ imports embedded/ only in store/database.py",
        ],
    )


def test_outside_embedded_only_its_face_is_imported_and_the_wire_front_by_the_bench(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "store/database.py": "from embedded import EmbeddedEngine\nimport embedded.stages.reads\n",
        "bench/b.py": (
            "from embedded import EmbeddedEngine\n"
            "from embedded.wire import start_wire_server\n"
            "from embedded.wire.messages import HEADER\n"
            "from embedded.adapter import engine\n"
        ),
    }
    face = "outside embedded/, only its face is imported (`embedded`; bench/ `embedded.wire`)"
    assert check(tmp_path, files, capsys) == (
        1,
        [
            f"bench/b.py:4: bench.b imports embedded.adapter: {face}",
            f"store/database.py:2: store.database imports embedded.stages.reads: {face}",
        ],
    )


def test_only_the_wire_front_imports_itself_as_the_wheel_leaves_it_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "embedded/adapter/engine.py": "from embedded.wire import start_wire_server\n",
        "embedded/__init__.py": "import embedded.wire\n",
        "embedded/wire/server.py": "from embedded.wire.messages import HEADER\n",
    }
    refused = "only embedded/wire/ imports the wire front (it is not in the wheel)"
    assert check(tmp_path, files, capsys) == (
        1,
        [
            f"embedded/__init__.py:1: embedded imports embedded.wire: {refused}",
            "embedded/adapter/engine.py:1: embedded.adapter.engine imports embedded.wire: "
            + refused,
        ],
    )


def test_schema_must_not_import_web_app_or_cli_and_web_must_not_import_app_or_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "schema/s.py": "import web.health\nimport resolvers.sensors\n",
        "web/w.py": "from cli import main\nimport schema\n",
        "app.py": "import web\nimport schema\nimport resolvers\nimport store\nimport embedded\n",
        "cli.py": "import app\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "schema/s.py:1: schema.s imports web.health: schema/ must not import web/",
            "web/w.py:1: web.w imports cli: web/ must not import cli.py",
        ],
    )


def test_relative_imports_are_resolved(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = {
        "resolvers/__init__.py": "from .paging import page\n",
        "resolvers/sub/x.py": "from ...schema import types\nfrom .. import paging\n",
        "schema/__init__.py": "from .. import web, store\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "resolvers/sub/x.py:1: resolvers.sub.x imports schema: "
            "resolvers/ must not import schema/",
            "schema/__init__.py:1: schema imports web: schema/ must not import web/",
        ],
    )


def test_imports_under_type_checking_and_in_functions_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from resolvers.context import Context\n"
        "def later() -> None:\n"
        "    import schema\n"
        "import resolvers.loaders\n"
    )
    assert check(tmp_path, {"store/s.py": source}, capsys) == (
        1,
        [
            "store/s.py:3: store.s imports resolvers.context: store/ must not import resolvers/",
            "store/s.py:5: store.s imports schema: store/ must not import schema/",
            "store/s.py:6: store.s imports resolvers.loaders: store/ must not import resolvers/",
        ],
    )


def test_the_top_level_tests_bench_tools_and_venv_are_not_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "tests/embedded/test_x.py": "import app\n",
        "bench/embedded/x.py": "import app\n",
        "tools/store/x.py": "import app\n",
        ".venv/lib/store/x.py": "import app\n",
        "store/tests/x.py": "import app\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        ["store/tests/x.py:1: store.tests.x imports app: store/ must not import app.py"],
    )


def test_a_clean_tree_exits_0_with_a_one_line_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "app.py": "import web\nimport settings\n",
        "web/w.py": "import schema\n",
        "schema/s.py": "import resolvers\n",
        "resolvers/r.py": "import store\n",
        "store/database.py": "import embedded\nimport pymongo\n",
        "embedded/e.py": "import mongomock_ng\n",
    }
    assert check(tmp_path, files, capsys) == (
        0,
        ["check-layers: 6 modules, dependencies run one way"],
    )


def test_the_repository_keeps_its_layers(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(REPO_ROOT)
    assert code == 0, capsys.readouterr().out


def test_only_the_database_handle_opens_the_engine_and_no_layer_skips_to_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {
        "store/database.py": "from embedded import EmbeddedEngine\n",
        "resolvers/r.py": "from embedded import EmbeddedEngine\n",
        "schema/s.py": "import embedded.rules\n",
    }
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "resolvers/r.py:1: resolvers.r imports embedded: resolvers/ must not import embedded/",
            "schema/s.py:1: schema.s imports embedded.rules: schema/ must not import embedded/",
        ],
    )


def test_bench_must_not_import_the_test_helpers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {"bench/b.py": "from tests.support import free_port\nfrom app import create_app\n"}
    assert check(tmp_path, files, capsys) == (
        1,
        ["bench/b.py:1: bench.b imports tests.support: bench/ must not import tests/"],
    )


def test_settings_must_not_import_any_layer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {"settings.py": "import os\nfrom store.times import as_utc\n"}
    assert check(tmp_path, files, capsys) == (
        1,
        [
            "settings.py:2: settings imports store.times: "
            "settings.py must not import arraygraph (every layer imports it)"
        ],
    )
