"""A command's `hint` and `collation`, checked as a server checks them before it runs.

A hint names an index by name or by key pattern (or `{$natural: ±1}`, the collection's order);
one that names no index fails with BadValue, as the server's planner fails it. The engine uses
the hinted index or not as it sees fit: the answer is the same. Collations other than the simple
one (binary comparison of strings) are not implemented: a case-insensitive collation answered
with binary comparison would be a success with other data, so the engine refuses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pymongo.errors import OperationFailure

from embedded import mongomock_internals as mongomock
from embedded import rules

NO_SUCH_INDEX = "hint provided does not correspond to an existing index"
_ID_INDEX = ("_id_", [("_id", 1)])


def check(coll: Any, hint: Any = None, collation: Any = None) -> None:
    """Refuse a collation the engine does not implement and a hint that names no index of
    `coll` (a command's failure, `OperationFailure`)."""
    if collation is not None:
        _check_collation(collation)
    if hint is not None and not _names_an_index(coll, hint):
        raise OperationFailure(
            NO_SUCH_INDEX, rules.BAD_VALUE, rules.error_reply(rules.BAD_VALUE, NO_SUCH_INDEX)
        )


def check_statement(coll: Any, hint: Any = None, collation: Any = None) -> None:
    """`check`, failing as a write statement fails (`WriteError`, the command succeeds)."""
    try:
        check(coll, hint, collation)
    except OperationFailure as exc:
        code, message, _ = rules.error_parts(exc)
        raise rules.write_error(code, message) from None


def _check_collation(collation: Any) -> None:
    collation = getattr(collation, "document", collation)  # PyMongo's `Collation`, in process
    if isinstance(collation, Mapping) and dict(collation) == {"locale": "simple"}:
        return
    document = dict(collation) if isinstance(collation, Mapping) else collation
    raise rules.unsupported("a collation other than the simple one", repr(document))


def _pairs(hint: Any) -> list[tuple[str, Any]] | None:
    if isinstance(hint, Mapping):
        return list(hint.items())
    if isinstance(hint, list | tuple):
        return [tuple(pair) for pair in hint]
    return None


def _names_an_index(coll: Any, hint: Any) -> bool:
    """Whether `hint` (a name, a key pattern, or `$natural`) names an index of `coll`; any hint
    does on a collection that does not exist (a server finds nothing to plan)."""
    if coll.name not in coll.database.list_collection_names():
        return True
    indexes = [_ID_INDEX] + [
        (name, list(spec["key"])) for name, spec in mongomock.declared_indexes(coll).items()
    ]
    if isinstance(hint, str):
        return any(name == hint for name, _ in indexes)
    pairs = _pairs(hint)
    if pairs is None:
        return False
    if len(pairs) == 1 and pairs[0][0] == "$natural":
        return True
    return any(
        len(key) == len(pairs)
        and all(a == b and _same(x, y) for (a, x), (b, y) in zip(key, pairs, strict=True))
        for _, key in indexes
    )


def _same(declared: Any, hinted: Any) -> bool:
    """Key pattern values: numbers by value (`1` is `1.0`), index kinds (`"text"`) by name."""
    if isinstance(declared, bool) or isinstance(hinted, bool):
        return False
    return bool(declared == hinted)
