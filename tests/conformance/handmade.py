"""Unified-format files written here for the runner's own tests (nothing of MongoDB's), laid
out as the specifications repository lays out its CRUD tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conformance.runner.specs import CRUD_TESTS

ENTITIES = [
    {"client": {"id": "client0"}},
    {"database": {"id": "database0", "client": "client0", "databaseName": "handmade"}},
    {"collection": {"id": "collection0", "database": "database0", "collectionName": "items"}},
]
INITIAL = [{"databaseName": "handmade", "collectionName": "items", "documents": [{"_id": 1}]}]


def find_all(expected: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """A test whose one operation reads the collection and expects `expected`."""
    operation = {"object": "collection0", "name": "find", "arguments": {"filter": {}}}
    return {"operations": [{**operation, "expectResult": expected}], **extra}


def write_suite(root: Path, tests: dict[str, dict[str, Any]]) -> Path:
    """A specifications folder under `root` holding one file of `tests` by description."""
    folder = root / CRUD_TESTS
    folder.mkdir(parents=True)
    suite = {
        "description": "handmade",
        "schemaVersion": "1.0",
        "createEntities": ENTITIES,
        "initialData": INITIAL,
        "tests": [{"description": name, **test} for name, test in tests.items()],
    }
    (folder / "handmade.json").write_text(json.dumps(suite), encoding="utf-8")
    return root
