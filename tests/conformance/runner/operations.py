"""A spec operation run on an entity: a collection's or a database's method, PyMongo's name for
it, awaited, its cursor read to the end and its result made a document."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from tests.conformance.runner.arguments import call_arguments, index_model
from tests.conformance.runner.client_bulk import client_bulk_write
from tests.conformance.runner.results import result_document

# The spec's operation names and PyMongo's methods for them, on a collection or a database.
METHODS = {
    "insertOne": "insert_one",
    "insertMany": "insert_many",
    "find": "find",
    "findOne": "find_one",
    "aggregate": "aggregate",
    "countDocuments": "count_documents",
    "estimatedDocumentCount": "estimated_document_count",
    "distinct": "distinct",
    "updateOne": "update_one",
    "updateMany": "update_many",
    "replaceOne": "replace_one",
    "deleteOne": "delete_one",
    "deleteMany": "delete_many",
    "findOneAndUpdate": "find_one_and_update",
    "findOneAndReplace": "find_one_and_replace",
    "findOneAndDelete": "find_one_and_delete",
    "bulkWrite": "bulk_write",
    "dropCollection": "drop_collection",
    "createCollection": "create_collection",
}
# Operations whose answer is a cursor: each document of it is a root-level document.
CURSORS = ("find", "aggregate")


class Unsupported(Exception):
    """An operation outside this runner's subset (the test is then in the skip table)."""


async def run_operation(target: Any, name: str, arguments: Mapping[str, Any]) -> Any:
    """What `name` answers on `target`, as the spec states it."""
    if name == "clientBulkWrite":
        return await client_bulk_write(target, arguments)
    if name == "modifyCollection":
        options = {key: value for key, value in arguments.items() if key != "collection"}
        return await target.command({"collMod": arguments["collection"], **options})
    if name == "createIndex":
        created = await target.create_indexes([index_model(arguments)])
        return created[0]
    if name == "dropCollection" or name == "createCollection":
        options = {key: value for key, value in arguments.items() if key != "collection"}
        return await getattr(target, METHODS[name])(arguments["collection"], **options)
    if name not in METHODS:
        raise Unsupported(f"the runner does not run {name!r}")
    positional, keywords = call_arguments(name, arguments)
    answer = getattr(target, METHODS[name])(*positional, **keywords)
    if inspect.isawaitable(answer):
        answer = await answer
    if hasattr(answer, "to_list"):
        return await answer.to_list()
    return result_document(answer)
