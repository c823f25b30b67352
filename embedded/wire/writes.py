"""The wire front's writes: insert, update, delete, findAndModify and bulkWrite, replied to as a
server does.

insert, update and delete run their statements in turn on the engine's write path
(`embedded.writes.write_path`); a statement that fails is a write error in the reply (`writeErrors`,
with its index, code and message, and a duplicate key's keyPattern and keyValue), and stops the rest
when the command is ordered; the command itself succeeds. findAndModify is one document's write: its
failure is the command's failure (`{ok: 0, code, codeName, errmsg}`), which PyMongo raises as
`OperationFailure`, or `DuplicateKeyError` for E11000.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from pymongo.errors import OperationFailure

from embedded import rules
from embedded.adapter.engine import EmbeddedEngine
from embedded.expressions.variables import let_values
from embedded.planner import command_options
from embedded.protocols import Document
from embedded.stages import reads
from embedded.wire.messages import Request
from embedded.wire.pipelines import interned
from embedded.wire.reads import sort_list
from embedded.writes import client_bulk
from embedded.writes.update_commands import UpdateCommand
from embedded.writes.update_pipelines import let_scope
from embedded.writes.write_path import Outcome, Writes

# One statement: its reply fields to add up (n, nModified), and the upserted _id if any (in a
# list: an upserted `_id` may be null).
Statement = Callable[[Writes, Any], tuple[dict[str, int], list[Any]]]


def _statements(engine: EmbeddedEngine, request: Request, field: str, run: Statement) -> Document:
    """Each statement of `request.body[field]` in turn, replied to as a server does."""
    writes = engine[request.db][request.target].writes
    ordered = bool(request.body.get("ordered", True))
    totals: dict[str, int] = {"n": 0}
    upserted: list[Document] = []
    errors: list[Document] = []
    for index, statement in enumerate(request.body.get(field, [])):
        try:
            counts, upserted_ids = run(writes, statement)
        except OperationFailure as exc:
            code, message, extra = rules.error_parts(exc)
            errors.append({"index": index, "code": code, "errmsg": message, **extra})
            if ordered:
                break
            continue
        for name, value in counts.items():
            totals[name] = totals.get(name, 0) + value
        upserted += [{"index": index, "_id": upserted_id} for upserted_id in upserted_ids]
    reply: Document = dict(totals)
    if upserted:
        reply["upserted"] = upserted
    if errors:
        reply["writeErrors"] = errors
    return {**reply, "ok": 1.0}


def _insert(writes: Writes, document: Any) -> tuple[dict[str, int], list[Any]]:
    writes.insert(document)
    return {"n": 1}, []


def _update(
    command: UpdateCommand, writes: Writes, statement: Any
) -> tuple[dict[str, int], list[Any]]:
    writes.check_options(statement.get("hint"), statement.get("collation"))
    filter, update = statement.get("q") or {}, interned(statement["u"])
    upsert, array_filters = bool(statement.get("upsert")), statement.get("arrayFilters")
    outcome: Outcome
    if statement.get("multi"):
        outcome = writes.update_many(filter, update, upsert, array_filters, command.scope)
    else:
        sort = sort_list(statement.get("sort"))
        outcome = writes.update_one(filter, update, upsert, sort, array_filters, command=command)
    counts = {"n": outcome.matched + int(outcome.upserted), "nModified": outcome.modified}
    return counts, [outcome.upserted_id] if outcome.upserted else []


def _delete(variables: Any, writes: Writes, statement: Any) -> tuple[dict[str, int], list[Any]]:
    writes.check_options(statement.get("hint"), statement.get("collation"))
    many = int(statement.get("limit", 0)) == 0
    return {"n": writes.delete(statement.get("q") or {}, many=many, variables=variables)}, []


def insert(engine: EmbeddedEngine, request: Request) -> Document:
    return _statements(engine, request, "documents", _insert)


def update(engine: EmbeddedEngine, request: Request) -> Document:
    # The command's `let` is every statement's; its statements' updates are checked once each
    # (an update decoded from the wire is interned: statements that send one share it).
    each = functools.partial(_update, UpdateCommand(request.body.get("let")))
    reply = _statements(engine, request, "updates", each)
    return {"n": reply.pop("n"), "nModified": reply.pop("nModified", 0), **reply}


def delete(engine: EmbeddedEngine, request: Request) -> Document:
    # The command's `let`, evaluated once for its statements.
    each = functools.partial(_delete, let_scope(request.body.get("let")))
    return _statements(engine, request, "deletes", each)


def find_and_modify(engine: EmbeddedEngine, request: Request) -> Document:
    """findAndModify: remove, or update (upsert, `new`), the first match in `sort` order."""
    body = request.body
    collection = engine[request.db][request.target]
    writes = collection.writes
    filter, sort = body.get("query") or {}, sort_list(body.get("sort"))
    command_options.check(collection.mongomock_collection, body.get("hint"), body.get("collation"))
    last_error: Document
    if body.get("remove"):
        value = writes.find_and_delete(filter, sort, body.get("let"))
        last_error = {"n": int(value is not None)}
    else:
        upsert = bool(body.get("upsert"))
        array_filters, variables = body.get("arrayFilters"), body.get("let")
        update = interned(body["update"])
        outcome = writes.update_one(filter, update, upsert, sort, array_filters, variables)
        value = outcome.after if body.get("new") else outcome.before
        last_error = {"n": int(outcome.matched or outcome.upserted)}
        last_error["updatedExisting"] = bool(outcome.matched)
        if outcome.upserted:
            last_error["upserted"] = outcome.upserted_id
    fields = body.get("fields")
    if value is not None and fields:
        scope = let_values(body.get("let"))
        value = reads.project(collection.mongomock_collection, value, fields, scope)
    return {"lastErrorObject": last_error, "value": value, "ok": 1.0}


def client_bulk_write(engine: EmbeddedEngine, request: Request) -> Document:
    """bulkWrite, the client's bulk write across namespaces (`embedded.writes.client_bulk`)."""
    body = request.body
    return client_bulk.bulk_write(
        lambda namespace: _writes_of(engine, namespace),
        body.get("ops", []),
        body.get("nsInfo", []),
        ordered=bool(body.get("ordered", True)),
        errors_only=bool(body.get("errorsOnly", False)),
        variables=body.get("let"),
    )


def _writes_of(engine: EmbeddedEngine, namespace: str) -> Writes:
    db, _, coll = namespace.partition(".")
    return engine[db][coll].writes
