"""`clientBulkWrite`: the client's bulk write across namespaces (PyMongo's
`AsyncMongoClient.bulk_write`), its result and its exception as the unified format states them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pymongo.errors import ClientBulkWriteException
from pymongo.results import ClientBulkWriteResult, UpdateResult
from pymongo.write_concern import WriteConcern

from tests.conformance.runner.arguments import write_model
from tests.conformance.runner.matching import Mismatch, match

_OPTIONS = {
    "verboseResults": "verbose_results",
    "bypassDocumentValidation": "bypass_document_validation",
}


async def client_bulk_write(client: Any, arguments: Mapping[str, Any]) -> Any:
    models = []
    for request in arguments["models"]:
        models.append(write_model(request))
    options = {_OPTIONS.get(key, key): value for key, value in arguments.items() if key != "models"}
    if "writeConcern" in options:
        options["write_concern"] = WriteConcern(**options.pop("writeConcern"))
    return client_result(await client.bulk_write(models, **options))


def client_result(result: ClientBulkWriteResult) -> dict[str, Any]:
    if not result.acknowledged:
        return {"acknowledged": False}
    answer: dict[str, Any] = {
        "insertedCount": result.inserted_count,
        "upsertedCount": result.upserted_count,
        "matchedCount": result.matched_count,
        "modifiedCount": result.modified_count,
        "deletedCount": result.deleted_count,
    }
    if result.has_verbose_results:
        answer["insertResults"] = {
            str(i): {"insertedId": r.inserted_id} for i, r in result.insert_results.items()
        }
        answer["updateResults"] = {str(i): _update(r) for i, r in result.update_results.items()}
        answer["deleteResults"] = {
            str(i): {"deletedCount": r.deleted_count} for i, r in result.delete_results.items()
        }
    return answer


def _update(result: UpdateResult) -> dict[str, Any]:
    # PyMongo's result of one operation of a client bulk write: an upsert's counts as matched.
    found = {"matchedCount": result.matched_count, "modifiedCount": result.modified_count}
    if result.upserted_id is not None:
        found["upsertedId"] = result.upserted_id
    return found


def check_client_bulk_error(
    expected: Mapping[str, Any], error: BaseException, entities: Mapping[str, Any]
) -> None:
    """The parts of `expectError` only a client bulk write's exception holds."""
    if not isinstance(error, ClientBulkWriteException):
        if "writeErrors" in expected or "writeConcernErrors" in expected:
            raise Mismatch(f"expected a client bulk write exception, found {error!r}")
        return
    if "writeErrors" in expected:
        found = {str(item["idx"]): item for item in error.write_errors or []}  # type: ignore[index]
        if set(found) != set(expected["writeErrors"]):
            raise Mismatch(f"expected write errors at {list(expected['writeErrors'])}: {found}")
        for index, want in expected["writeErrors"].items():
            match(want, found[index], entities, root=True, at=f"writeErrors.{index}")
    if "writeConcernErrors" in expected:
        found_concern = list(error.write_concern_errors or [])
        if len(found_concern) != len(expected["writeConcernErrors"]):
            raise Mismatch(f"expected {expected['writeConcernErrors']}, found {found_concern}")
        for want, got in zip(expected["writeConcernErrors"], found_concern, strict=True):
            match(want, got, entities, root=True, at="writeConcernErrors")
    partial = error.partial_result
    if "expectResult" in expected and partial is not None:
        match(expected["expectResult"], client_result(partial), entities, root=True)
