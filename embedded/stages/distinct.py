"""The `distinct` command: the values a field path takes in the documents a filter matches.

As a server answers it (`DistinctCommand`): each matched document's values along the path, arrays
expanded (an array met on the way is walked element by element; one at the path's end gives its
elements, not itself; a numeric part indexes an array), gathered in a set ordered as BSON compares
values, so the reply lists each value once (the first met of equal ones: 1 and 1.0 are one value),
in BSON order, whatever the order of the documents. The documents are found by the read path
(`embedded.stages.reads.find`), with the command's `hint` and `collation`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pymongo.errors import OperationFailure

from embedded import mongomock_internals as mongomock
from embedded import rules
from embedded.stages import reads

_bson_key = mongomock.bson_sort_key


def distinct(
    coll: Any, key: Any, filter: Mapping[str, Any] | None, options: Mapping[str, Any]
) -> list[Any]:
    """The command's `values`: `options` are its `hint` and `collation`, for the read path."""
    path = check_key(key)
    read = {name: options[name] for name in ("hint", "collation") if options.get(name) is not None}
    return distinct_values(reads.find(coll, filter, read), path)


def check_key(key: Any) -> str:
    """The command's `key` as a server takes it: a non-empty string."""
    if not isinstance(key, str):
        message = "BSON field 'distinct.key' is the wrong type, expected type 'string'"
        raise OperationFailure(message, rules.TYPE_MISMATCH)
    if not key:
        raise OperationFailure("FieldPath cannot be constructed with empty string", 40352)
    return key


def values_along(doc: Mapping[str, Any], path: str, out: list[Any]) -> None:
    """Every value of `path` in `doc`, arrays expanded, appended to `out` (the server's
    `extractAllElementsAlongPath`)."""
    if path in doc:  # a field whose name is the whole path (dots included) is read first
        value = doc[path]
        if isinstance(value, list):
            out.extend(value)
        else:
            out.append(value)
        return
    head, dot, rest = path.partition(".")
    if not dot:
        return
    value = doc.get(head)
    if isinstance(value, Mapping):
        values_along(value, rest, out)
    elif isinstance(value, list):
        index = rest.partition(".")[0]
        if index.isdigit() and index.isascii():
            values_along(dict(enumerate_keys(value)), rest, out)
            return
        for element in value:
            if isinstance(element, Mapping):
                values_along(element, rest, out)
            elif isinstance(element, list):
                values_along(dict(enumerate_keys(element)), rest, out)


def enumerate_keys(array: list[Any]) -> list[tuple[str, Any]]:
    """An array as BSON stores it: a document whose keys are the indexes."""
    return [(str(i), element) for i, element in enumerate(array)]


def distinct_values(docs: Sequence[Mapping[str, Any]], key: str) -> list[Any]:
    """The values of `key` in `docs`, each once, in BSON order."""
    found: list[Any] = []
    for doc in docs:
        values_along(doc, key, found)
    ordered = sorted(found, key=_bson_key)  # stable: the first met of equal values leads
    unique: list[Any] = []
    last: Any = None
    for value in ordered:
        current = _bson_key(value)
        if unique and not (last < current or current < last):
            continue
        unique.append(value)
        last = current
    return unique
