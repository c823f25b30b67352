"""Collections created and dropped: the `create` command, `drop`, and what the engine refuses.

The engine keeps plain collections only: `create` of one makes it (a collection also comes to be
at its first write, as on a server), and answers ok when it exists already, as MongoDB 8.0 does
for a collection of the same options. Views, validators, capped, clustered and time-series
collections, collations and the other options that change what a collection does are refused
with the engine's clear error, never ignored; `collMod` likewise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

from embedded import rules

# Fields any command may carry, which change nothing of what `create` makes.
_GENERIC_FIELDS = frozenset(
    {
        "lsid",
        "txnNumber",
        "autocommit",
        "startTransaction",
        "writeConcern",
        "readConcern",
        "comment",
        "maxTimeMS",
        "apiVersion",
        "apiStrict",
        "apiDeprecationErrors",
    }
)
# What each refused option makes, for the error that names it.
_REFUSED = {
    "viewOn": "views",
    "pipeline": "views",
    "capped": "capped collections",
    "size": "capped collections",
    "max": "capped collections",
    "validator": "document validation",
    "validationLevel": "document validation",
    "validationAction": "document validation",
    "timeseries": "time-series collections",
    "expireAfterSeconds": "time-series collections",
    "clusteredIndex": "clustered collections",
    "collation": "collation",
    "encryptedFields": "queryable encryption",
    "changeStreamPreAndPostImages": "change streams",
}


def check_create_options(options: Mapping[str, Any]) -> None:
    """Refuse, with the engine's clear error, an option of `create` the engine does not keep."""
    for name, value in options.items():
        if name.startswith("$") or name in _GENERIC_FIELDS:
            continue
        if name == "capped" and value is False:
            continue  # a plain collection, said so
        what = _REFUSED.get(name, f"the create option {name!r}")
        raise rules.unsupported(f"{what} (create with {name!r})")


def create_collection(db: Any, name: str, options: Mapping[str, Any]) -> None:
    """`create`: a plain collection named `name` in mongomock-ng's `db`, if it is not there."""
    check_create_options(options)
    if name not in db.list_collection_names():
        db.create_collection(name)


def collection_names(db: Any, filter: Mapping[str, Any] | None) -> list[str]:
    """listCollections' names, in order: a filter may name one collection (all the engine
    filters by; any other filter is refused)."""
    wanted = dict(filter or {})
    if set(wanted) - {"name"} or not isinstance(wanted.get("name", ""), str):
        raise rules.unsupported("a listCollections filter other than {name: <string>}")
    names = sorted(db.list_collection_names())
    return [name for name in names if wanted.get("name", name) == name]


def drop_collection(db: Any, name: str) -> int:
    """`drop`: the collection dropped with its indexes, their count answered (0 when it did
    not exist: since MongoDB 7.0 dropping a collection that does not exist succeeds)."""
    if name not in db.list_collection_names():
        return 0
    indexes = len(db[name].index_information())
    db.drop_collection(name)
    return indexes


def refuse_coll_mod() -> NoReturn:
    raise rules.unsupported("collMod (changing a collection's options)")
