"""One test run on a front: its entities and data, each operation checked against what the spec
expects, then the collections' outcome. A failure is told apart by what the engine did: raised
an error where the server answers (a clear refusal), or answered success with other data than
the server's, or succeeded where the server fails (silent)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tests.conformance.runner.entities import create_entities, databases_named, insert_initial_data
from tests.conformance.runner.fronts import Front
from tests.conformance.runner.matching import Mismatch, match
from tests.conformance.runner.operations import CURSORS, Unsupported, run_operation
from tests.conformance.runner.results import check_error
from tests.conformance.runner.specs import SpecTest
from tests.conformance.runner.unsupported import unsupported_named

PER_TEST_SECONDS = 20

PASSED, FAILED, SKIPPED = "pass", "fail", "skip"
# Why a test failed: the engine raised where the server answers (or raised another error), or
# it answered success with other data, or succeeded where the server fails.
CLEAR_ERROR, SILENT = "clear error", "silent"


@dataclass(frozen=True)
class TestResult:
    file: str
    description: str
    status: str
    cause: str = ""  # CLEAR_ERROR or SILENT, for a failure
    detail: str = ""  # the failure's message, or the skip's reason
    unsupported: str = ""  # what the engine said it does not support, for a clear error


class _Failure(Exception):
    def __init__(self, cause: str, detail: str, unsupported: str = "") -> None:
        super().__init__(detail)
        self.cause = cause
        self.unsupported = unsupported


async def run_test(front: Front, test: SpecTest) -> TestResult:
    try:
        await asyncio.wait_for(_run(front, test), PER_TEST_SECONDS)
    except _Failure as failure:
        return TestResult(
            test.file, test.description, FAILED, failure.cause, str(failure), failure.unsupported
        )
    except Unsupported as unsupported:
        return TestResult(test.file, test.description, FAILED, CLEAR_ERROR, str(unsupported))
    except Exception as error:
        detail, named = _describe(error), unsupported_named(error)
        return TestResult(test.file, test.description, FAILED, CLEAR_ERROR, detail, named)
    return TestResult(test.file, test.description, PASSED)


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"[:300]


async def _run(front: Front, test: SpecTest) -> None:
    await front.fresh(databases_named(test.suite))
    await insert_initial_data(front, test.suite.get("initialData", ()))
    entities = create_entities(front, test.suite.get("createEntities", ()))
    for operation in test.document["operations"]:
        await _operate(entities, operation)
    for expected in test.document.get("outcome", ()):
        found = await front.read_all(expected["databaseName"], expected["collectionName"])
        try:
            match(expected["documents"], found, entities, at="outcome")
        except Mismatch as mismatch:
            raise _Failure(SILENT, str(mismatch)) from None


async def _operate(entities: dict[str, Any], operation: Mapping[str, Any]) -> None:
    name, arguments = operation["name"], dict(operation.get("arguments", {}))
    if operation["object"] not in entities or "session" in arguments:
        raise Unsupported(f"{name} on {operation['object']}: outside the runner's subset")
    expected_error = operation.get("expectError")
    try:
        result = await run_operation(entities[operation["object"]], name, arguments)
    except Unsupported:
        raise
    except Exception as error:
        named = unsupported_named(error)
        if expected_error is None:
            raise _Failure(CLEAR_ERROR, f"{name}: {_describe(error)}", named) from None
        try:
            check_error(expected_error, error, entities)
        except Mismatch as mismatch:
            raise _Failure(CLEAR_ERROR, f"{name}: {mismatch}"[:300], named) from None
        return
    if expected_error is not None:
        raise _Failure(SILENT, f"{name}: succeeded where the server fails: {expected_error}")
    if "expectResult" in operation:
        _check_result(name, operation["expectResult"], result, entities)
    if "saveResultAsEntity" in operation:
        entities[operation["saveResultAsEntity"]] = result


def _check_result(name: str, expected: Any, result: Any, entities: Mapping[str, Any]) -> None:
    try:
        if name in CURSORS and isinstance(expected, list) and isinstance(result, list):
            if len(expected) != len(result):
                raise Mismatch(f"expected {len(expected)} documents, found {result!r}")
            for index, (want, got) in enumerate(zip(expected, result, strict=True)):
                match(want, got, entities, root=True, at=f"$[{index}]")
        else:
            match(expected, result, entities, root=isinstance(result, Mapping))
    except Mismatch as mismatch:
        raise _Failure(SILENT, f"{name}: {mismatch}"[:300]) from None
