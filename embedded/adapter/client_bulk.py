"""The client's bulk write across namespaces (PyMongo's `AsyncMongoClient.bulk_write`), in process.

PyMongo builds the `bulkWrite` command from the write models itself (each model adds itself to
its bulk: the checks of an update, a replacement, a document, an `_id` made for a document that
has none) and makes its result and exception from the server's reply. The adapter leaves both to
PyMongo's own code, which is private to it (`pymongo._client_bulk_shared`: the bulk base class,
`_merge_command`, `_throw_client_bulk_write_exception`; this module is their only reader), so
the command and its answers are PyMongo's; the command runs as one command of the engine, on
`embedded.writes.client_bulk`, as the wire front runs it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from pymongo import _client_bulk_shared as shared
from pymongo.common import validate_list
from pymongo.errors import ConfigurationError, InvalidOperation, OperationFailure
from pymongo.results import ClientBulkWriteResult, DeleteResult, InsertOneResult, UpdateResult
from pymongo.write_concern import WriteConcern

from embedded.protocols import Document
from embedded.writes import client_bulk
from embedded.writes.write_path import Writes

if TYPE_CHECKING:
    from embedded.adapter.engine import EmbeddedEngine

# What PyMongo's bulk reads of its client: whether writes are retried (not here: one process).
_CLIENT = SimpleNamespace(options=SimpleNamespace(retry_writes=False))


async def bulk_write(
    engine: EmbeddedEngine,
    models: Sequence[Any],
    *,
    ordered: bool,
    verbose_results: bool,
    bypass_document_validation: bool | None,
    comment: Any,
    let: Mapping[str, Any] | None,
    write_concern: WriteConcern | None,
) -> ClientBulkWriteResult:
    concern = write_concern or WriteConcern()
    if not concern.acknowledged and verbose_results:
        raise InvalidOperation("Cannot request unacknowledged write concern and verbose results")
    if not concern.acknowledged and ordered:
        raise InvalidOperation("Cannot request unacknowledged write concern and ordered writes")
    options = (ordered, bypass_document_validation, comment, let, verbose_results)
    blk = _built(models, concern, options)
    ops, ns_info = _command_ops(blk.ops, blk.namespaces)

    def run() -> Document:
        return client_bulk.bulk_write(
            lambda namespace: _writes_of(engine, namespace),
            ops,
            ns_info,
            ordered=ordered,
            errors_only=not verbose_results,
            variables=let,
        )

    await asyncio.sleep(0)  # a round trip lets other requests run, as network I/O does
    if not concern.acknowledged:
        with contextlib.suppress(OperationFailure):
            await engine.run("bulkWrite", run)
        return ClientBulkWriteResult(None, False, False)  # type: ignore[arg-type]  # PyMongo's
    reply = await engine.run("bulkWrite", run)
    return _result(blk, reply, ordered=ordered, verbose=verbose_results)


def _built(models: Sequence[Any], concern: WriteConcern, options: tuple[Any, ...]) -> Any:
    """PyMongo's bulk of `models`, each added as PyMongo adds it (its checks, its `_id`s)."""
    validate_list("models", models)
    blk = shared._AgnosticClientBulkBase(_CLIENT, concern, *options)  # type: ignore[arg-type]
    for model in models:
        try:
            model._add_to_client_bulk(blk)
        except AttributeError:
            raise TypeError(f"{model!r} is not a valid request") from None
    if not blk.ops:
        raise InvalidOperation("No operations to execute")
    if not concern.acknowledged:
        _check_unacknowledged(blk)
    return blk


def _check_unacknowledged(blk: Any) -> None:
    """What PyMongo refuses of an unacknowledged bulk write."""
    if blk.uses_collation:
        raise ConfigurationError("Collation is unsupported for unacknowledged writes.")
    if blk.uses_array_filters:
        raise ConfigurationError("arrayFilters is unsupported for unacknowledged writes.")
    if blk.bypass_doc_val is not None:
        raise OperationFailure(
            "Cannot set bypass_document_validation with unacknowledged write concern"
        )


def _command_ops(
    built: list[tuple[str, Mapping[str, Any]]], namespaces: list[str]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The command's `ops` and `nsInfo`, as PyMongo sends them: each op names its namespace by
    its index in `nsInfo`."""
    indexes: dict[str, int] = {}
    ops = []
    for (_, op), namespace in zip(built, namespaces, strict=True):
        sent = dict(op)
        sent[next(iter(sent))] = indexes.setdefault(namespace, len(indexes))
        ops.append(sent)
    return ops, [{"ns": namespace} for namespace in indexes]


def _writes_of(engine: EmbeddedEngine, namespace: str) -> Writes:
    db, _, coll = namespace.partition(".")
    return engine[db][coll].writes


def _result(blk: Any, reply: Document, *, ordered: bool, verbose: bool) -> ClientBulkWriteResult:
    """PyMongo's result of the reply, or its exception when an op failed."""
    full: dict[str, Any] = {
        "anySuccessful": reply["nErrors"] < len(blk.ops),
        "error": None,
        "writeErrors": [],
        "writeConcernErrors": [],
        "nInserted": 0,
        "nUpserted": 0,
        "nMatched": 0,
        "nModified": 0,
        "nDeleted": 0,
        "insertResults": {},
        "updateResults": {},
        "deleteResults": {},
    }
    merged = {**reply, "writeErrors": [], "error": None}
    for doc in reply["cursor"]["firstBatch"]:
        op_type, op = blk.ops[doc["idx"]]
        if not doc["ok"]:
            merged["writeErrors"].append(doc)
            if ordered:
                break
        elif verbose:
            _record(full, doc, op_type, op)
    shared._merge_command(blk.ops, 0, full, merged)
    if full["writeErrors"]:
        shared._throw_client_bulk_write_exception(full, verbose)
    return ClientBulkWriteResult(full, True, verbose)


def _record(full: dict[str, Any], doc: Document, op_type: str, op: Mapping[str, Any]) -> None:
    """One op's result, as PyMongo records it for verbose results."""
    index = doc["idx"]
    if op_type == "insert":
        full["insertResults"][index] = InsertOneResult(op["document"]["_id"], acknowledged=True)
    elif op_type in ("update", "replace"):
        full["updateResults"][index] = UpdateResult(doc, acknowledged=True, in_client_bulk=True)
    else:
        full["deleteResults"][index] = DeleteResult(doc, acknowledged=True)
