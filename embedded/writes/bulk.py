"""Bulk writes as PyMongo sends them: runs of one kind of write, each run one command.

PyMongo splits a bulk write (`bulk_write`, `insert_many`) into commands: an ordered bulk into
runs of consecutive requests of one kind, in order; an unordered one into one run per kind,
inserts first, then updates, then deletes (`pymongo.bulk_shared._Bulk.gen_ordered` and
`gen_unordered`). A run longer than the server's `maxWriteBatchSize` or `maxMessageSizeBytes`
becomes several commands. Each command is a round trip; the engine runs each as one command.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import bson
from pymongo import DeleteMany, DeleteOne, InsertOne, ReplaceOne, UpdateMany, UpdateOne, common
from pymongo.errors import WriteError

from embedded import rules
from embedded.writes.update_commands import UpdateCommand
from embedded.writes.write_path import Writes

# A server's limits of one write command (its hello reply says them to the driver).
MAX_WRITE_BATCH_SIZE = 100_000
MAX_MESSAGE_BYTES = 48_000_000

_KINDS = (
    (InsertOne, "insert"),
    (UpdateOne, "update"),
    (UpdateMany, "update"),
    (ReplaceOne, "update"),
    (DeleteOne, "delete"),
    (DeleteMany, "delete"),
)
_UPDATES = (UpdateOne, UpdateMany, ReplaceOne)
_ORDER_UNORDERED = ("insert", "update", "delete")
_EMPTY_DOCUMENT = len(bson.encode({}))  # a document's length prefix and terminator


@dataclass(frozen=True, slots=True)
class Run:
    """One command of a bulk write: `requests` are (index in the bulk, request)."""

    command: str
    requests: list[tuple[int, Any]]


def _kind(op: Any) -> str:
    for request_class, command in _KINDS:
        if isinstance(op, request_class):
            return command
    raise TypeError(f"{op!r} is not a valid request")  # as PyMongo's bulk_write refuses it


def _split(command: str, requests: list[tuple[int, Any]]) -> Iterator[Run]:
    """`requests` in commands of at most 100,000 statements and 48 MB, as PyMongo batches them."""
    updates: dict[int, tuple[Any, int]] = {}
    if (
        len(requests) <= MAX_WRITE_BATCH_SIZE
        and _total_size(requests, updates) <= MAX_MESSAGE_BYTES
    ):
        yield Run(command, requests)  # the common bulk: one command, no statement measured alone
        return
    batch: list[tuple[int, Any]] = []
    size = 0
    for index, op in requests:
        statement = _statement_size(op, updates)
        if batch and (len(batch) == MAX_WRITE_BATCH_SIZE or size + statement > MAX_MESSAGE_BYTES):
            yield Run(command, batch)
            batch, size = [], 0
        batch.append((index, op))
        size += statement
    if batch:
        yield Run(command, batch)


def _statement_size(op: Any, updates: dict[int, tuple[Any, int]]) -> int:
    """The BSON size of `op`'s statement. A bulk of many updates usually sends one update
    document or pipeline in each: its element's size is measured once (`updates`, by identity,
    for one split), and added to the rest of the statement's (BSON sizes are additive)."""
    statement, update_size = _without_update(op, updates)
    return len(bson.encode(statement)) + update_size


def _without_update(op: Any, updates: dict[int, tuple[Any, int]]) -> tuple[Any, int]:
    """`op`'s statement without its update, and the size of the update's element."""
    statement = _as_sent(op)
    update = statement.get("u") if isinstance(op, _UPDATES) else None
    if update is None:
        return statement, 0
    del statement["u"]
    known = updates.get(id(update))
    if known is None or known[0] is not update:
        known = updates[id(update)] = (update, len(bson.encode({"u": update})) - _EMPTY_DOCUMENT)
    return statement, known[1]


def _total_size(requests: list[tuple[int, Any]], updates: dict[int, tuple[Any, int]]) -> int:
    """The sum of the statements' sizes, encoded in one call: `{"s": [statement, ...]}` is 13
    bytes, and each statement's own plus its type, its index key and its terminator."""
    statements, update_sizes = [], 0
    for _, op in requests:
        statement, update_size = _without_update(op, updates)
        statements.append(statement)
        update_sizes += update_size
    keys = sum(2 + len(str(index)) for index in range(len(statements)))
    return len(bson.encode({"s": statements})) - 13 - keys + update_sizes


def command_runs(requests: Sequence[Any], ordered: bool) -> Iterator[Run]:
    """The commands PyMongo sends for a bulk write of `requests`, in the order it sends them."""
    kinds = [(_kind(op), index, op) for index, op in enumerate(requests)]
    groups: list[tuple[str, list[tuple[int, Any]]]] = []
    if ordered:
        for kind, index, op in kinds:
            if not groups or groups[-1][0] != kind:
                groups.append((kind, []))
            groups[-1][1].append((index, op))
    else:
        for name in _ORDER_UNORDERED:
            found = [(index, op) for kind, index, op in kinds if kind == name]
            if found:
                groups.append((name, found))
    for command, group in groups:
        yield from _split(command, group)


def _totals() -> dict[str, int]:
    return {"nInserted": 0, "nUpserted": 0, "nMatched": 0, "nModified": 0, "nRemoved": 0}


@dataclass(slots=True)
class BulkOutcome:
    totals: dict[str, int] = field(default_factory=_totals)
    upserted: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    inserted_ids: list[Any] = field(default_factory=list)

    def raw(self) -> dict[str, Any]:
        """The reply PyMongo's `BulkWriteResult` and `BulkWriteError` are built from: the
        commands' replies merged, write errors in the order of their requests (PyMongo sorts
        them so)."""
        return {
            **self.totals,
            "upserted": self.upserted,
            "writeErrors": sorted(self.errors, key=lambda error: int(error["index"])),
            "writeConcernErrors": [],
        }


def apply_run(
    writes: Writes,
    run: Run,
    ordered: bool,
    bulk: BulkOutcome,
    variables: Mapping[str, Any] | None = None,
) -> None:
    """One command of a bulk write; a write error stops it when the bulk is ordered.
    `variables` is the bulk's `let`, sent with each command.

    Write errors are reported as PyMongo reports a server's (a DuplicateKeyError is one): each
    names its request's index in the bulk, code and statement.
    """
    command = UpdateCommand(variables)  # what the command's statements share
    for index, op in run.requests:
        try:
            _apply(writes, index, op, bulk, command)
        except WriteError as exc:
            bulk.errors.append(_write_error(index, op, exc))
            if ordered:
                return


def _apply(
    writes: Writes,
    index: int,
    op: Any,
    bulk: BulkOutcome,
    command: UpdateCommand,
) -> None:
    writes.check_options(*_hint_and_collation(op))
    if isinstance(op, InsertOne):
        bulk.inserted_ids.append(writes.insert(_inserted_document(op)))
        bulk.totals["nInserted"] += 1
        return
    if isinstance(op, DeleteOne | DeleteMany):
        many = isinstance(op, DeleteMany)
        bulk.totals["nRemoved"] += writes.delete(op._filter, many=many, variables=command.scope)
        return
    filter, update, upsert, sort, array_filters = _update_arguments(op)
    if isinstance(op, UpdateMany):
        outcome = writes.update_many(filter, update, upsert, array_filters, command.scope)
    else:
        outcome = writes.update_one(filter, update, upsert, sort, array_filters, command=command)
    bulk.totals["nMatched"] += outcome.matched
    bulk.totals["nModified"] += outcome.modified
    if outcome.upserted:
        bulk.totals["nUpserted"] += 1
        bulk.upserted.append({"index": index, "_id": outcome.upserted_id})


def check_request(op: Any) -> None:
    """What PyMongo checks of a request as it adds it to a bulk write, before anything is sent:
    an update of operators or a pipeline, a replacement of no operator."""
    if isinstance(op, UpdateOne | UpdateMany):
        common.validate_ok_for_update(op._doc)
        common.validate_list_or_none("array_filters", op._array_filters)
    elif isinstance(op, ReplaceOne):
        common.validate_ok_for_replace(op._doc)
    elif isinstance(op, InsertOne):
        common.validate_is_document_type("document", op._doc)
    else:
        _kind(op)


# PyMongo's request classes keep their arguments in private attributes (pymongo/operations.py);
# these functions are the only readers.
def _hint_and_collation(op: Any) -> tuple[Any, Any]:
    return getattr(op, "_hint", None), getattr(op, "_collation", None)


def _update_arguments(op: Any) -> tuple[Any, Any, bool, Any, Any]:
    array_filters = None if isinstance(op, ReplaceOne) else op._array_filters
    sort = None if isinstance(op, UpdateMany) else op._sort
    return op._filter, op._doc, bool(op._upsert), sort, array_filters


def _inserted_document(op: InsertOne[Any]) -> Any:
    return op._doc


def _as_sent(op: Any) -> Any:
    """A request as PyMongo names it in a write error: the statement sent to the server."""
    if isinstance(op, InsertOne):
        return _inserted_document(op)
    if isinstance(op, _UPDATES):
        filter, update, upsert, sort, array_filters = _update_arguments(op)
        multi = isinstance(op, UpdateMany)
        statement = {"q": filter, "u": update, "multi": multi, "upsert": upsert}
        if array_filters is not None:
            statement["arrayFilters"] = array_filters
        if sort is not None:
            statement["sort"] = sort
        return statement
    return {"q": op._filter, "limit": 0 if isinstance(op, DeleteMany) else 1}


def _write_error(index: int, op: Any, exc: WriteError) -> dict[str, Any]:
    # A duplicate key's keyPattern and keyValue go along, as in a server's reply; PyMongo adds
    # the statement as `op`.
    code, message, extra = rules.error_parts(exc)
    return {"index": index, "code": code, "errmsg": message, **extra, "op": _as_sent(op)}
