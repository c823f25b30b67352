"""A spec operation's arguments as PyMongo's methods take them: snake_case names, `ReturnDocument`,
write models for bulk writes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pymongo import (
    DeleteMany,
    DeleteOne,
    IndexModel,
    InsertOne,
    ReplaceOne,
    ReturnDocument,
    UpdateMany,
    UpdateOne,
)

# The spec's names where PyMongo's keyword differs (PyMongo passes the others on as sent).
_KEYWORDS = {
    "arrayFilters": "array_filters",
    "bypassDocumentValidation": "bypass_document_validation",
    "returnDocument": "return_document",
    "noCursorTimeout": "no_cursor_timeout",
    "returnKey": "return_key",
    "showRecordId": "show_record_id",
    "allowPartialResults": "allow_partial_results",
    "fieldName": "key",
    "verboseResults": "verbose_results",
}
# Methods whose options PyMongo takes in snake_case only (find's cursor options).
_FIND_KEYWORDS = {
    "batchSize": "batch_size",
    "allowDiskUse": "allow_disk_use",
    "maxTimeMS": "max_time_ms",
}
_POSITIONAL = {
    "insertOne": ("document",),
    "insertMany": ("documents",),
    "find": ("filter",),
    "findOne": ("filter",),
    "aggregate": ("pipeline",),
    "countDocuments": ("filter",),
    "distinct": ("fieldName", "filter"),
    "updateOne": ("filter", "update"),
    "updateMany": ("filter", "update"),
    "replaceOne": ("filter", "replacement"),
    "deleteOne": ("filter",),
    "deleteMany": ("filter",),
    "findOneAndUpdate": ("filter", "update"),
    "findOneAndReplace": ("filter", "replacement"),
    "findOneAndDelete": ("filter",),
    "bulkWrite": ("requests",),
}


def call_arguments(name: str, arguments: Mapping[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    """The positional and keyword arguments of PyMongo's method for the spec's `name`."""
    given = dict(arguments)
    positional = [given.pop(key, None) for key in _POSITIONAL.get(name, ())]
    if name == "bulkWrite":
        positional = [[write_model(request) for request in positional[0]]]
    renames = {**_KEYWORDS, **(_FIND_KEYWORDS if name in ("find", "findOne") else {})}
    keywords = {renames.get(key, key): value for key, value in given.items()}
    if "return_document" in keywords:
        after = keywords["return_document"] == "After"
        keywords["return_document"] = ReturnDocument.AFTER if after else ReturnDocument.BEFORE
    return positional, keywords


def write_model(request: Mapping[str, Any]) -> Any:
    """A collection bulk write's request as PyMongo's write model."""
    (kind, spec), *_ = request.items()
    options = {_KEYWORDS.get(key, key): value for key, value in spec.items()}
    models: dict[str, Any] = {
        "insertOne": lambda: InsertOne(options.pop("document"), **options),
        "deleteOne": lambda: DeleteOne(**options),
        "deleteMany": lambda: DeleteMany(**options),
        "replaceOne": lambda: ReplaceOne(
            options.pop("filter"), options.pop("replacement"), **options
        ),
        "updateOne": lambda: UpdateOne(options.pop("filter"), options.pop("update"), **options),
        "updateMany": lambda: UpdateMany(options.pop("filter"), options.pop("update"), **options),
    }
    return models[kind]()


def index_model(arguments: Mapping[str, Any]) -> IndexModel:
    options = {key: value for key, value in arguments.items() if key != "keys"}
    return IndexModel(list(arguments["keys"].items()), **options)
