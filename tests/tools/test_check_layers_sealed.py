"""`tools/check_layers.py` on the sealed packages: runtime/ and embedded/ import nothing of
arraygraph's, only the store's database handle opens the engine, through its face, and the wire
front (left out of the wheel) is imported by itself and the bench alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from check_layers import main
from tests.tools.support import run_check


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
            "runtime/ may import only the standard library, strawberry, graphql, aiodataloader",
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
