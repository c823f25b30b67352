"""MongoDB 8.0's rules that mongomock-ng does not enforce, with the server's limits and codes.

The engine calls these before and after every write, and raises the exception classes, codes and
messages that PyMongo raises on a real server. arraygraph's ../shared/mongo-semantics.md lists
the rules and how mongomock-ng 7.11 behaves without them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from bson import ObjectId
from bson.regex import Regex
from pymongo.errors import DuplicateKeyError, OperationFailure, WriteError

# MongoDB's own limits, which the engine enforces as a server does.
MAX_BSON_DOCUMENT_BYTES = 16 * 1024 * 1024
MAX_DOCUMENT_NESTING = 100

# Server error codes (src/mongo/base/error_codes.yml).
INTERNAL_ERROR = 1
BAD_VALUE = 2
FAILED_TO_PARSE = 9
OVERFLOW = 15
TYPE_MISMATCH = 14
NAMESPACE_NOT_FOUND = 26
DOLLAR_PREFIXED_FIELD_NAME = 52
INVALID_ID_FIELD = 53
CONFLICTING_UPDATE_OPERATORS = 40
CURSOR_NOT_FOUND = 43
COMMAND_NOT_FOUND = 59
IMMUTABLE_FIELD = 66
BSON_OBJECT_TOO_LARGE = 10334
DUPLICATE_KEY = 11000
UPDATE_TOO_LARGE = 17419
UPSERT_TOO_LARGE = 17420
INVALID_PIPELINE_OPERATOR = 168
# What the engine does not do answers the server's own "not implemented" code, never a success
# with other data: a client can tell it from a server's refusal by code and by message.
NOT_IMPLEMENTED = 238
UNSUPPORTED_PREFIX = "the embedded engine does not support"

# The `codeName` a server sends beside each code; a code without a name of its own (an assertion
# number) is named "Location<code>".
CODE_NAMES = {
    INTERNAL_ERROR: "InternalError",
    BAD_VALUE: "BadValue",
    INVALID_PIPELINE_OPERATOR: "InvalidPipelineOperator",
    FAILED_TO_PARSE: "FailedToParse",
    TYPE_MISMATCH: "TypeMismatch",
    OVERFLOW: "Overflow",
    NAMESPACE_NOT_FOUND: "NamespaceNotFound",
    DOLLAR_PREFIXED_FIELD_NAME: "DollarPrefixedFieldName",
    INVALID_ID_FIELD: "InvalidIdField",
    CONFLICTING_UPDATE_OPERATORS: "ConflictingUpdateOperators",
    CURSOR_NOT_FOUND: "CursorNotFound",
    COMMAND_NOT_FOUND: "CommandNotFound",
    IMMUTABLE_FIELD: "ImmutableField",
    BSON_OBJECT_TOO_LARGE: "BSONObjectTooLarge",
    DUPLICATE_KEY: "DuplicateKey",
    NOT_IMPLEMENTED: "NotImplemented",
}

PIPELINE_STAGES = frozenset(
    {"$set", "$addFields", "$unset", "$project", "$replaceWith", "$replaceRoot"}
)


def code_name(code: int) -> str:
    return CODE_NAMES.get(code, f"Location{code}")


def unsupported(what: str, detail: str = "") -> OperationFailure:
    """The clear error for what the engine does not do: "the embedded engine does not support
    <what>[: <detail>]", code NotImplemented (238). `what` names the feature alone (the docs'
    list groups by it), `detail` the value this command sent."""
    message = f"{UNSUPPORTED_PREFIX} {what}" + (f": {detail}" if detail else "")
    details = {"ok": 0.0, "errmsg": message, "code": NOT_IMPLEMENTED, "codeName": "NotImplemented"}
    return OperationFailure(message, NOT_IMPLEMENTED, details)


def write_error(code: int, message: str) -> WriteError:
    return WriteError(message, code, {"code": code, "errmsg": message, "index": 0})


def error_parts(exc: OperationFailure) -> tuple[int, str, dict[str, Any]]:
    """A failure's code, server message and extra fields (a duplicate key's keyPattern and
    keyValue): PyMongo's `str(exc)` appends the details, `details["errmsg"]` is the message."""
    details = dict(exc.details or {})
    message = str(details.get("errmsg") or exc)
    extra: dict[str, Any] = {k: details[k] for k in ("keyPattern", "keyValue") if k in details}
    return (exc.code if exc.code is not None else BAD_VALUE), message, extra


def error_reply(code: int, message: str, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A command's reply when it fails, as a server sends it."""
    return {
        "ok": 0.0,
        "errmsg": message,
        "code": code,
        "codeName": code_name(code),
        **(extra or {}),
    }


def command_error(exc: OperationFailure) -> OperationFailure:
    """What PyMongo raises when a command (findAndModify...) fails as `exc` did: a server reports
    such a failure as the command's error, not as a write error, and PyMongo raises
    `OperationFailure` for it (`DuplicateKeyError` for E11000)."""
    code, message, extra = error_parts(exc)
    reply = error_reply(code, message, extra)
    if code == DUPLICATE_KEY:
        return DuplicateKeyError(message, code, reply)
    return OperationFailure(message, code, reply)


def shell_value(value: Any) -> str:
    """A value as a server's messages print it (BSON's toString)."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, ObjectId):
        return f"ObjectId('{value}')"
    if isinstance(value, datetime):
        aware = value if value.tzinfo else value.replace(tzinfo=UTC)  # stored naive, in UTC
        return f"new Date({int(aware.timestamp() * 1000)})"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{k}: {shell_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[ " + ", ".join(shell_value(v) for v in value) + " ]"
    return str(value)


def shell(value: Any) -> str:
    """A value as a server's messages print it (`{ a: 1 }`, `"text"`)."""
    return shell_value(value)


def duplicate_key(namespace: str, index: str, pattern: Any, key: Any) -> DuplicateKeyError:
    """A server's E11000 write error, with its message, keyPattern and keyValue."""
    shown = shell_value(key)
    message = f"E11000 duplicate key error collection: {namespace} index: {index} dup key: {shown}"
    details = {"index": 0, "code": DUPLICATE_KEY, "errmsg": message}
    return DuplicateKeyError(
        message, DUPLICATE_KEY, {**details, "keyPattern": pattern, "keyValue": key}
    )


def _conflict(path: str, other: str) -> WriteError:
    shorter = min(path, other, key=len)
    return write_error(
        CONFLICTING_UPDATE_OPERATORS,
        f"Updating the path '{path}' would create a conflict at '{shorter}'",
    )


def check_update_paths(update: Mapping[str, Any]) -> None:
    """One update may not touch a path twice, across all operators, even if nothing matches.

    Linear in the paths' length: each path is checked against the paths seen (itself and its
    prefixes) and against the prefixes of the paths seen (a longer path under it)."""
    seen: set[str] = set()
    under: dict[str, str] = {}  # a prefix of a path seen -> that path
    for operator, fields in update.items():
        if not operator.startswith("$") or not isinstance(fields, Mapping):
            continue
        for path in fields:
            paths = [path]
            if operator == "$rename" and isinstance(fields[path], str):
                paths.append(fields[path])
            for one in paths:
                _check_path(one, seen, under)


def _check_path(path: str, seen: set[str], under: dict[str, str]) -> None:
    if path in seen:
        raise _conflict(path, path)
    if path in under:
        raise _conflict(path, under[path])
    parts = path.split(".")
    for end in range(1, len(parts)):
        prefix = ".".join(parts[:end])
        if prefix in seen:
            raise _conflict(path, prefix)
        under.setdefault(prefix, path)
    seen.add(path)


def check_pipeline(pipeline: list[Mapping[str, Any]], *, array_filters: object) -> None:
    if array_filters:
        raise write_error(
            FAILED_TO_PARSE, "arrayFilters may not be specified for pipeline-style updates"
        )
    for stage in pipeline:
        for name in stage:
            if name not in PIPELINE_STAGES:
                raise write_error(BAD_VALUE, f"{name} is not allowed to be used within an update")


# Values that hold no other value (what a nesting walk and a filter walk skip).
LEAF_TYPES = frozenset({str, int, float, bool, type(None), datetime, ObjectId})


def has_expr(filter: Any) -> bool:
    kind = type(filter)  # the common leaves told apart without an isinstance of an ABC
    if kind is dict and LEAF_TYPES.issuperset(map(type, filter.values())):
        return "$expr" in filter  # a flat filter (`{_id: value}`), told in one C call
    if kind is dict or (kind not in LEAF_TYPES and isinstance(filter, Mapping)):
        return any(key == "$expr" or has_expr(value) for key, value in filter.items())
    if kind is list or (kind not in LEAF_TYPES and isinstance(filter, list)):
        return any(has_expr(value) for value in filter)
    return False


def _is_operator_doc(value: Any) -> bool:
    return isinstance(value, Mapping) and bool(value) and next(iter(value)).startswith("$")


def _equalities(filter: Mapping[str, Any], out: dict[str, Any]) -> None:
    for key, value in filter.items():
        if key == "$and" and isinstance(value, list):
            for clause in value:
                _equalities(clause, out)
        elif key.startswith("$"):
            continue  # $or, $nor, $expr...: nothing a server copies
        elif isinstance(value, re.Pattern | Regex):
            continue
        elif _is_operator_doc(value):
            if "$eq" in value:
                out[key] = value["$eq"]
            elif "$in" in value and len(value) == 1 and len(value["$in"]) == 1:
                out[key] = value["$in"][0]
        else:
            out[key] = value


def upsert_seed(filter: Mapping[str, Any]) -> dict[str, Any]:
    """The fields a server copies from an upsert's filter into the new document.

    Only equality predicates are copied (`$and` of equalities included); a regex, a range or an
    `$in` of several values never is. Dotted paths become nested documents.
    """
    if has_expr(filter):
        raise write_error(BAD_VALUE, "$expr is not allowed in the query predicate for an upsert")
    flat: dict[str, Any] = {}
    _equalities(filter, flat)
    seed: dict[str, Any] = {}
    for path, value in flat.items():
        parts = path.split(".")
        target = seed
        for part in parts[:-1]:
            target = target.setdefault(part, {})
        target[parts[-1]] = value
    return seed


def check_immutable_id(before: Any, after: Any, *, replaced: bool = False) -> None:
    if before != after:
        raise immutable_id(after, replaced=replaced)


def immutable_id(after: Any = None, *, replaced: bool = False) -> WriteError:
    """ImmutableField, with the message of the update's kind: operators, or a whole new document
    (a replacement, a pipeline's result) whose `_id` is `after`."""
    message = "Performing an update on the path '_id' would modify the immutable field '_id'"
    if replaced:
        message = (
            "After applying the update, the (immutable) field '_id' was found to have been "
            f"altered to _id: {shell_value(after)}"
        )
    return write_error(IMMUTABLE_FIELD, message)
