"""The field names a server stores, as MongoDB 8.0 checks them.

Since 5.0 a document may hold `$`-prefixed and dotted field names, at any level, with two
exceptions: inside `_id` no `$`-prefixed name is stored, at any depth (but a DBRef's `$ref`,
`$id`, `$db`), and a replacement of a matched document may not have one at its top level (an
insert, an upsert and a pipeline's result may). An insert is refused with the insert path's
message (`BSONObj::storageValidEmbedded`), an update with the update path's
(`storage_validation::scanDocument`), both DollarPrefixedFieldName (52). `_id` may be neither an
array nor a regular expression.

mongomock-ng refuses a top-level `$`-prefixed name on insert: the engine stores such a
document itself (`Writes`), and sets those fields aside while mongomock-ng applies operators
(no operator can name them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from bson.regex import Regex

from embedded import rules
from embedded.protocols import Document

_REPLACEMENT_MESSAGE = (
    "The dollar ($) prefixed field '{name}' in '{path}' is not allowed in the context of an "
    "update's replacement document. Consider using an aggregation pipeline with $replaceWith."
)


def _dbref_names(document: Mapping[str, Any]) -> int:
    """How many of `document`'s first fields are a DBRef's (`$ref` and `$id` with string
    `$ref`, then an optional string `$db`), which a server stores as they are."""
    items = iter(document.items())
    first = next(items, None)
    if first is None or first[0] != "$ref" or not isinstance(first[1], str):
        return 0
    second = next(items, None)
    if second is None or second[0] != "$id":
        return 0
    third = next(items, None)
    return 3 if third is not None and third[0] == "$db" and isinstance(third[1], str) else 2


def _dollar_names(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Each `$`-prefixed name inside `value` (a DBRef's aside) and its dotted path."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            yield from _dollar_names(item, f"{path}.{index}")
        return
    if not isinstance(value, Mapping):
        return
    skipped = _dbref_names(value)
    for position, (name, item) in enumerate(value.items()):
        if position >= skipped and isinstance(name, str) and name.startswith("$"):
            yield name, f"{path}.{name}"
        yield from _dollar_names(item, f"{path}.{name}")


def _check_id(document: Mapping[str, Any], *, inserting: bool) -> None:
    value = document.get("_id")
    if type(value) in rules.LEAF_TYPES:  # the usual `_id`: an ObjectId, a string, a number
        return
    if isinstance(value, list | re.Pattern | Regex):
        kind = "array" if isinstance(value, list) else "regex"
        if inserting:
            raise rules.write_error(
                rules.BAD_VALUE, f"can't use a{'n' * (kind == 'array')} {kind} for _id"
            )
        raise rules.write_error(rules.INVALID_ID_FIELD, f"The '_id' value cannot be of type {kind}")
    for name, path in _dollar_names(value, "_id"):
        if inserting:
            message = (
                f"_id fields may not contain '$'-prefixed fields: {name} is not valid for storage."
            )
        else:
            message = _REPLACEMENT_MESSAGE.format(name=name, path=path)
        raise rules.write_error(rules.DOLLAR_PREFIXED_FIELD_NAME, message)


def check_insert(document: Mapping[str, Any]) -> None:
    """What the insert path refuses of a document's names: its `_id`'s."""
    _check_id(document, inserting=True)


def check_update_result(document: Mapping[str, Any]) -> None:
    """What the update path refuses of the document an update or an upsert made: its `_id`'s."""
    _check_id(document, inserting=False)


def check_replacement(replacement: Mapping[str, Any]) -> None:
    """A replacement of a matched document has no `$`-prefixed name at its top level."""
    for name in replacement:
        if name.startswith("$"):
            raise refuse_written(name)


def written_dollar_field(update: Mapping[str, Any]) -> str | None:
    """The first top-level `$`-prefixed field an operator update writes (`$unset` writes none).
    A server refuses it in each document the update applies to, as it checks an updated field
    at the top level (`ModifierNode::validateUpdate`)."""
    for operator, fields in update.items():
        if operator == "$unset" or not isinstance(fields, Mapping):
            continue
        for path in fields.values() if operator == "$rename" else fields:
            if isinstance(path, str) and path.startswith("$"):
                return path.split(".", 1)[0]
    return None


def refuse_written(name: str) -> Exception:
    message = _REPLACEMENT_MESSAGE.format(name=name, path=name)
    return rules.write_error(rules.DOLLAR_PREFIXED_FIELD_NAME, message)


def has_dollar_field(document: Mapping[str, Any]) -> bool:
    return any(name.startswith("$") for name in document)


def set_aside(document: Document) -> tuple[Document, Document]:
    """`document` without its top-level `$`-prefixed fields, and those fields."""
    if not has_dollar_field(document):
        return document, {}
    kept = {name: value for name, value in document.items() if not name.startswith("$")}
    aside = {name: value for name, value in document.items() if name.startswith("$")}
    return kept, aside


def aside_after(aside: Document, update: Mapping[str, Any]) -> Document:
    """The fields `aside` as `update` leaves them: without those its `$unset` removes. Any other
    operator that reads one (a `$rename` from it) is refused as what the engine does not do."""
    kept = dict(aside)
    for operator, fields in update.items():
        for path in fields if isinstance(fields, Mapping) else ():
            name = str(path).split(".", 1)[0]
            if name not in kept:
                continue
            if operator == "$unset" and path == name:
                del kept[name]
                continue
            what = f"{operator} of a $-prefixed field ('{path}')"
            raise rules.write_error(rules.NOT_IMPLEMENTED, f"{rules.UNSUPPORTED_PREFIX} {what}")
    return kept


def put_back(before: Document, after: Document, aside: Document) -> Document:
    """`after` (what an update made of `before` without the fields `aside`) with them back, in
    their places: each field of `before` where it was, then the fields the update added."""
    if not aside:
        return after
    merged = {
        name: aside[name] if name in aside else after[name]
        for name in before
        if name in aside or name in after
    }
    return {**merged, **after}
