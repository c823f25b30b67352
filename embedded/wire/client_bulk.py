"""The client bulk write (`bulkWrite` on `admin`, MongoDB 8.0's `MongoClient.bulkWrite`): writes
to many namespaces in one command, each run as the collection's own `insert`, `update` or
`delete` statement would be, and replied to as a server does: the summary counts, and a cursor
of each operation's result (only the errors when `errorsOnly`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pymongo.errors import OperationFailure

from embedded import rules
from embedded.adapter.engine import EmbeddedEngine
from embedded.protocols import Document
from embedded.wire import writes as wire_writes
from embedded.wire.messages import Request
from embedded.writes.update_commands import UpdateCommand

NAMESPACE = "admin.$cmd.bulkWrite"
_UPDATE_FIELDS = {"filter": "q", "updateMods": "u"}
_SUMMARY = ("nInserted", "nMatched", "nModified", "nUpserted", "nDeleted")


def bulk_write(engine: EmbeddedEngine, request: Request) -> Document:
    body = request.body
    namespaces = [str(entry["ns"]) for entry in body.get("nsInfo", [])]
    ordered, errors_only = bool(body.get("ordered", True)), bool(body.get("errorsOnly", False))
    command = UpdateCommand(body.get("let"))
    summary = dict.fromkeys(_SUMMARY, 0)
    results: list[Document] = []
    errors = 0
    for index, operation in enumerate(body.get("ops", [])):
        try:
            result = _run(engine, command, namespaces, operation, summary)
        except OperationFailure as exc:
            code, message, extra = rules.error_parts(exc)
            results.append(
                {"ok": 0.0, "idx": index, "code": code, "codeName": rules.code_name(code),
                 "errmsg": message, **extra}
            )  # fmt: skip
            errors += 1
            if ordered:
                break
            continue
        if not errors_only:
            results.append({"ok": 1.0, "idx": index, **result})
    cursor = {"id": 0, "firstBatch": results, "ns": NAMESPACE}
    return {"cursor": cursor, "nErrors": errors, **summary, "ok": 1.0}


def _run(
    engine: EmbeddedEngine,
    command: UpdateCommand,
    namespaces: list[str],
    operation: Mapping[str, Any],
    summary: dict[str, int],
) -> Document:
    """One operation on its namespace: its result fields, its counts added to `summary`."""
    kind = next(iter(operation))
    database, _, collection = namespaces[int(operation[kind])].partition(".")
    writes = engine[database][collection].writes
    if kind == "insert":
        wire_writes.insert_statement(writes, operation["document"])
        summary["nInserted"] += 1
        return {"n": 1}
    if kind == "delete":
        statement = {
            "q": operation.get("filter") or {},
            "limit": 0 if operation.get("multi") else 1,
        }
        statement.update(_options(operation, ("hint", "collation")))
        counts, _ = wire_writes.delete_statement(writes, statement)
        summary["nDeleted"] += counts["n"]
        return {"n": counts["n"]}
    if kind != "update":
        raise rules.unsupported(f"the client bulk write operation {kind!r}")
    return _update(writes, command, operation, summary)


def _update(
    writes: Any, command: UpdateCommand, operation: Mapping[str, Any], summary: dict[str, int]
) -> Document:
    statement = {_UPDATE_FIELDS.get(key, key): value for key, value in operation.items()}
    statement.pop("update", None)
    counts, upserted_id = wire_writes.update_statement(command, writes, statement)
    upserted = upserted_id is not None
    summary["nMatched"] += counts["n"] - int(upserted)
    summary["nModified"] += counts["nModified"]
    summary["nUpserted"] += int(upserted)
    result: Document = {"n": counts["n"], "nModified": counts["nModified"]}
    if upserted:
        result["upserted"] = {"_id": upserted_id}
    return result


def _options(operation: Mapping[str, Any], names: tuple[str, ...]) -> Document:
    return {name: operation[name] for name in names if name in operation}
