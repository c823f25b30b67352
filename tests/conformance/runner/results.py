"""PyMongo's results and errors as the unified format states them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pymongo.errors import (
    BulkWriteError,
    ClientBulkWriteException,
    OperationFailure,
    PyMongoError,
)
from pymongo.results import (
    BulkWriteResult,
    DeleteResult,
    InsertManyResult,
    InsertOneResult,
    UpdateResult,
)

from tests.conformance.runner.client_bulk import check_client_bulk_error
from tests.conformance.runner.matching import Mismatch, match

# Where a TypeError or ValueError means the driver refused the operation before sending it
# (PyMongo's own checks, or the engine's copy of them); elsewhere it is an internal failure.
_CLIENT_SIDE = ("pymongo", "bson", str(Path("embedded", "adapter", "driver.py")))


def result_document(result: Any) -> Any:
    """A write's result as the spec's fields (a read's is already documents or a value)."""
    if getattr(result, "acknowledged", True) is False:
        return {"acknowledged": False}
    if isinstance(result, InsertOneResult):
        return {"insertedId": result.inserted_id}
    if isinstance(result, InsertManyResult):
        return {"insertedIds": {str(i): id for i, id in enumerate(result.inserted_ids)}}
    if isinstance(result, UpdateResult):
        return {
            "matchedCount": result.matched_count,
            "modifiedCount": result.modified_count,
            "upsertedCount": 0 if result.upserted_id is None else 1,
            **({} if result.upserted_id is None else {"upsertedId": result.upserted_id}),
        }
    if isinstance(result, DeleteResult):
        return {"deletedCount": result.deleted_count}
    if isinstance(result, BulkWriteResult):
        return bulk_result(result.bulk_api_result)
    return result


def bulk_result(raw: Mapping[str, Any]) -> dict[str, Any]:
    upserted = {str(item["index"]): item["_id"] for item in raw.get("upserted", [])}
    return {
        "deletedCount": raw.get("nRemoved", 0),
        "insertedCount": raw.get("nInserted", 0),
        "matchedCount": raw.get("nMatched", 0),
        "modifiedCount": raw.get("nModified", 0),
        "upsertedCount": raw.get("nUpserted", 0),
        "upsertedIds": upserted,
    }


def is_client_error(error: BaseException) -> bool:
    """Whether `error` is the driver's before anything was sent (not a server's answer)."""
    if isinstance(error, OperationFailure):
        return False
    if isinstance(error, ClientBulkWriteException):
        return error.error is not None and is_client_error(error.error)
    if isinstance(error, PyMongoError):
        return True
    if isinstance(error, (TypeError, ValueError)):
        return _raised_in(error, _CLIENT_SIDE)
    return False


def _raised_in(error: BaseException, places: tuple[str, ...]) -> bool:
    trace = error.__traceback__
    while trace is not None and trace.tb_next is not None:
        trace = trace.tb_next
    filename = trace.tb_frame.f_code.co_filename if trace is not None else ""
    return any(f"{place}" in filename for place in places)


def _server_reply(error: BaseException) -> Mapping[str, Any]:
    if isinstance(error, BulkWriteError):
        write_errors = error.details.get("writeErrors") or [{}]
        return {**error.details, **write_errors[0]}
    if isinstance(error, ClientBulkWriteException) and error.error is not None:
        return _server_reply(error.error)
    if isinstance(error, OperationFailure):
        return error.details or {"code": error.code, "errmsg": str(error)}
    return {}


def check_error(expected: Mapping[str, Any], error: BaseException, entities: Any) -> None:
    """Raise `Mismatch` unless `error` is what `expectError` describes."""
    client = is_client_error(error)
    if "isClientError" in expected and bool(expected["isClientError"]) != client:
        raise Mismatch(f"expected isClientError {expected['isClientError']}: {error!r}")
    if not client and not isinstance(error, PyMongoError):
        raise Mismatch(f"expected a driver or server error, found {error!r}")
    _check_reply(expected, error, _server_reply(error), entities)
    _check_labels(expected, error)
    check_client_bulk_error(expected, error, entities)
    if "expectResult" in expected and not isinstance(error, ClientBulkWriteException):
        partial = bulk_result(error.details) if isinstance(error, BulkWriteError) else None
        unset_allowed = "$$unsetOrMatches" in expected["expectResult"]
        if partial is not None or not unset_allowed:
            match(expected["expectResult"], partial, entities, root=True)


def _check_reply(
    expected: Mapping[str, Any], error: BaseException, reply: Mapping[str, Any], entities: Any
) -> None:
    code, name = reply.get("code"), str(reply.get("codeName", ""))
    if "errorCode" in expected and code != expected["errorCode"]:
        raise Mismatch(f"expected code {expected['errorCode']}, found {code}: {error}")
    if "errorCodeName" in expected and name.lower() != expected["errorCodeName"].lower():
        raise Mismatch(f"expected {expected['errorCodeName']}, found {reply}")
    if "errorContains" in expected:
        text = f"{error} {reply.get('errmsg', '')}".lower()
        if expected["errorContains"].lower() not in text:
            raise Mismatch(f"expected {expected['errorContains']!r} in {text!r}")
    if "errorResponse" in expected:
        match(expected["errorResponse"], reply, entities, root=True)


def _check_labels(expected: Mapping[str, Any], error: BaseException) -> None:
    def has(label: str) -> bool:
        return isinstance(error, PyMongoError) and error.has_error_label(label)

    if not all(has(label) for label in expected.get("errorLabelsContain", ())):
        raise Mismatch(f"expected labels {expected['errorLabelsContain']}: {error!r}")
    if any(has(label) for label in expected.get("errorLabelsOmit", ())):
        raise Mismatch(f"labels {expected['errorLabelsOmit']} must be absent: {error!r}")
