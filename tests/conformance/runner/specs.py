"""Where the spec files are, what a file holds, and whether a test's requirements are met.

The files are the `mongodb/specifications` repository's, read where they lie (their licence
is non-commercial share-alike: nothing of them is copied into this repository):
`ARRAYGRAPH_MONGODB_SPECS`, else `mongodb-specifications/` or `shared/mongodb-specifications/`
beside the repository's root.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bson import json_util
from bson.binary import UuidRepresentation
from bson.json_util import JSONOptions

REPO_ROOT = Path(__file__).resolve().parents[3]
SPECS_ENV = "ARRAYGRAPH_MONGODB_SPECS"
CRUD_TESTS = Path("source/crud/tests/unified")
# What the engine declares itself: MongoDB 8.0.0, a standalone (`embedded/wire/commands.py`).
SERVER_VERSION = (8, 0, 0)
TOPOLOGY = "single"
_JSON = JSONOptions(tz_aware=True, uuid_representation=UuidRepresentation.STANDARD)


@dataclass(frozen=True)
class SpecTest:
    file: str  # the file's name, e.g. "find.json"
    description: str
    document: Mapping[str, Any]  # the test itself
    suite: Mapping[str, Any]  # the file's document: entities, initialData, requirements

    @property
    def key(self) -> tuple[str, str]:
        return (self.file, self.description)


def specs_root() -> Path | None:
    """The specifications folder, or None where it is not on this machine."""
    configured = os.environ.get(SPECS_ENV, "").strip()
    candidates = (
        [Path(configured)]
        if configured
        else [
            REPO_ROOT.parent / "mongodb-specifications",
            REPO_ROOT.parent / "shared" / "mongodb-specifications",
        ]
    )
    return next((path for path in candidates if (path / CRUD_TESTS).is_dir()), None)


def missing_reason() -> str:
    where = os.environ.get(SPECS_ENV) or f"{REPO_ROOT.parent}/mongodb-specifications"
    return (
        f"MongoDB's specification tests are not on this machine: no {CRUD_TESTS} under {where}"
        f" (clone github.com/mongodb/specifications there, or set {SPECS_ENV})"
    )


def load_tests(root: Path) -> Iterator[SpecTest]:
    """Every test of the CRUD unified files, file by file, in the files' order."""
    for path in sorted((root / CRUD_TESTS).glob("*.json")):
        suite = json_util.loads(path.read_text(encoding="utf-8"), json_options=_JSON)
        for test in suite["tests"]:
            yield SpecTest(path.name, test["description"], test, suite)


def _version(text: str) -> tuple[int, ...]:
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def requirement_unmet(requirement: Mapping[str, Any]) -> str | None:
    """Why an 8.0 standalone does not meet `requirement`, or None when it does."""
    low, high = requirement.get("minServerVersion"), requirement.get("maxServerVersion")
    if low and _version(low) > SERVER_VERSION:
        return f"server version: needs {low} or later"
    if high and _version(high) < SERVER_VERSION:
        return f"server version: needs {high} or earlier"
    topologies = requirement.get("topologies")
    if topologies and TOPOLOGY not in topologies:
        return f"topology: needs {' or '.join(topologies)}"
    if requirement.get("serverless") == "require":
        return "topology: needs Atlas Serverless"
    if requirement.get("auth") or requirement.get("csfle"):
        return "server: needs authentication or client-side encryption"
    return None


def requirements_unmet(test: SpecTest) -> str | None:
    """Why the test does not run on an 8.0 standalone (each list is met by any one of its
    entries; the file's and the test's must both be met), or None."""
    for requirements in (
        test.suite.get("runOnRequirements"),
        test.document.get("runOnRequirements"),
    ):
        if requirements:
            reasons = [requirement_unmet(requirement) for requirement in requirements]
            if all(reasons):
                return str(reasons[0])
    return None


def operation_names(test: SpecTest) -> Sequence[str]:
    return [operation["name"] for operation in test.document["operations"]]
