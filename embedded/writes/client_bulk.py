"""The `bulkWrite` command (MongoDB 8.0's client-level bulk write): writes across namespaces in
one command, answered as a server answers it.

Each op names its namespace by index into `nsInfo`: `{insert: i, document}`, `{update: i,
filter, updateMods, multi, upsert?, arrayFilters?, sort?}` (a replacement or operators or a
pipeline), `{delete: i, filter, multi}`. Each runs on its collection's write path in turn; one
that fails is an error in the reply's results (`{ok: 0, idx, code, errmsg}`) and stops the rest
when the command is ordered. The reply is a cursor over the results (only the errors when
`errorsOnly`) with the command's totals. An op's `hint` and `collation` are checked as a
statement's (`Writes.check_options`), and its filter reads the command's `let`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pymongo.errors import OperationFailure

from embedded import rules
from embedded.protocols import Document
from embedded.writes.update_commands import UpdateCommand
from embedded.writes.write_path import Writes

WritesOf = Callable[[str], Writes]  # a namespace ("db.coll") -> its collection's write path


def bulk_write(
    writes_of: WritesOf,
    ops: Sequence[Mapping[str, Any]],
    ns_info: Sequence[Mapping[str, Any]],
    *,
    ordered: bool = True,
    errors_only: bool = False,
    variables: Mapping[str, Any] | None = None,
) -> Document:
    """The command's reply, after its ops ran."""
    namespaces = [str(info["ns"]) for info in ns_info]
    command = UpdateCommand(variables)
    totals = {"nInserted": 0, "nUpserted": 0, "nMatched": 0, "nModified": 0, "nDeleted": 0}
    results: list[Document] = []
    errors = 0
    for index, op in enumerate(ops):
        try:
            result = _run(writes_of, namespaces, op, command, totals)
        except OperationFailure as exc:
            code, message, extra = rules.error_parts(exc)
            results.append({"ok": 0.0, "idx": index, "code": code, "errmsg": message, **extra})
            errors += 1
            if ordered:
                break
            continue
        if not errors_only:
            results.append({"ok": 1.0, "idx": index, **result})
    cursor = {"id": 0, "firstBatch": results, "ns": "admin.$cmd.bulkWrite"}
    return {"cursor": cursor, "nErrors": errors, **totals, "ok": 1.0}


def _run(
    writes_of: WritesOf,
    namespaces: list[str],
    op: Mapping[str, Any],
    command: UpdateCommand,
    totals: dict[str, int],
) -> Document:
    """One op, its totals added: its result (`n`, and an update's `nModified`, `upserted`)."""
    kind = next(iter(op))
    writes = writes_of(namespaces[int(op[kind])])
    writes.check_options(op.get("hint"), op.get("collation"))
    if kind == "insert":
        writes.insert(op["document"])
        totals["nInserted"] += 1
        return {"n": 1}
    filter = op.get("filter") or {}
    multi = bool(op.get("multi"))
    if kind == "delete":
        deleted = writes.delete(filter, many=multi, variables=command.scope)
        totals["nDeleted"] += deleted
        return {"n": deleted}
    if kind != "update":
        raise OperationFailure(f"Unrecognized bulkWrite operation: {kind!r}", rules.FAILED_TO_PARSE)
    update, upsert = op["updateMods"], bool(op.get("upsert"))
    array_filters = op.get("arrayFilters")
    if multi:
        outcome = writes.update_many(filter, update, upsert, array_filters, command.scope)
    else:
        outcome = writes.update_one(
            filter, update, upsert, op.get("sort"), array_filters, command=command
        )
    totals["nMatched"] += outcome.matched
    totals["nModified"] += outcome.modified
    result: Document = {"n": outcome.matched, "nModified": outcome.modified}
    if outcome.upserted:
        totals["nUpserted"] += 1
        result = {"n": 1, "nModified": 0, "upserted": {"_id": outcome.upserted_id}}
    return result
