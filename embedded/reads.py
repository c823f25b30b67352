"""The engine's read path: work on the stored documents, copy only the reply.

mongomock-ng deep-copies every document a read touches (an aggregation copies the whole
collection first), which makes a page of 20 from a user with 10,000 orders cost as much as
reading all of them. A server reads in place and sends only the result; so does this: the
filter runs on the stored documents, pipelines run on shallow copies of them, and only what is
returned is copied. Stages that could change nested values in place get deep copies instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from bson import ObjectId

from embedded import fast_filters, rules
from embedded import mongomock_internals as mongomock
from embedded.protocols import Document

_clone = mongomock.clone_document
_naive = mongomock.to_stored_datetimes
_aware = mongomock.to_aware_datetimes

# Stages that build new documents (or only reorder them) and never write into their input.
_NON_MUTATING_STAGES = frozenset(
    {"$match", "$project", "$sort", "$limit", "$skip", "$count", "$group", "$unwind"}
)


# Containers found to hold no datetime (pipelines built once and shared): not walked again.
_WITHOUT_DATETIMES: dict[int, Any] = {}


def _to_stored(value: Any, memo: dict[int, Any] | None = None, *, shared: bool = False) -> Any:
    """Datetimes as the engine stores them: naive UTC, milliseconds.

    A value without datetimes comes back as the same object, so a pipeline built once keeps its
    compiled expressions; memoised by identity, as a page pipeline repeats one stage twenty times.
    `shared` marks pipeline stages, which store code builds once and never changes: those found
    without datetimes are not walked again.
    """
    memo = {} if memo is None else memo
    if isinstance(value, datetime):
        return _naive(value)
    if not isinstance(value, Mapping | list | tuple):
        return value
    if id(value) in memo:
        return memo[id(value)]
    if shared and _WITHOUT_DATETIMES.get(id(value)) is value:
        return value
    if isinstance(value, Mapping):
        items = {k: _to_stored(v, memo, shared=shared) for k, v in value.items()}
        changed = any(items[k] is not v for k, v in value.items())
        converted: Any = items if changed else value
    else:
        elements = [_to_stored(v, memo, shared=shared) for v in value]
        changed = any(a is not b for a, b in zip(elements, value, strict=True))
        converted = elements if changed or isinstance(value, tuple) else value
    memo[id(value)] = converted
    if shared and converted is value:
        if len(_WITHOUT_DATETIMES) >= 4096:
            _WITHOUT_DATETIMES.clear()
        _WITHOUT_DATETIMES[id(value)] = value  # held, so its id stays its own
    return converted


def _to_reply(value: Any) -> Any:
    """A copy of a stored value, with UTC datetimes, as a driver would decode it."""
    kind = type(value)
    if kind is dict:
        return {k: _to_reply(v) for k, v in value.items()}
    if kind is list:
        return [_to_reply(v) for v in value]
    if kind is str or kind is int or kind is float or value is None:
        return value
    return _aware(value)  # datetimes, and every less common type


def _stored_documents(coll: Any, filter: Mapping[str, Any] | None) -> list[Document]:
    stored = _to_stored(filter or {})
    by_id = _by_id(coll, stored)
    if by_id is not None:
        return by_id
    checks = fast_filters.conditions(stored)
    if checks is None:
        return list(mongomock.iter_documents(coll, stored))
    return fast_filters.matching(mongomock.stored_documents(coll), stored, checks)


def _same(a: Any, b: Any) -> bool:
    """BSON equality of two `_id`s: a subdocument's fields compare in order."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return bool(a == b)


def _plain_id(value: Any) -> bool:
    """An `_id` value looked up by equality: strings, whole numbers, ObjectIds, dates, finite
    doubles, and subdocuments of these (no operator)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str | int | ObjectId | datetime):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, Mapping):
        return all(
            isinstance(key, str) and not key.startswith("$") and _plain_id(item)
            for key, item in value.items()
        )
    return False


def _by_id(coll: Any, filter: Mapping[str, Any]) -> list[Document] | None:
    """The document an `{_id: value}` filter names, found as a server finds it, by the `_id`
    index (not by a scan of the collection); None when the filter is of another shape."""
    if len(filter) != 1 or "_id" not in filter:
        return None
    value = filter["_id"]
    if not _plain_id(value):
        return None  # an operator, a pattern, a number that is not itself (NaN)...: a scan
    store = mongomock.document_store(coll)
    key = mongomock.store_key(value)
    if key not in store:
        return []
    found = store[key]
    return [found] if _same(found["_id"], value) else []


def _reads_in_place(pipeline: Iterable[Mapping[str, Any]]) -> bool:
    for stage in pipeline:
        for name, spec in stage.items():
            if name in ("$set", "$addFields"):
                if any("." in key for key in spec):
                    return False  # mongomock writes dotted paths into the input's subdocuments
            elif name == "$facet":
                if not all(_reads_in_place(sub) for sub in spec.values()):
                    return False
            elif name not in _NON_MUTATING_STAGES:
                return False
    return True


def _evaluate_once(expression: Any) -> Any:
    if isinstance(expression, Mapping) and set(expression) == {"$literal"}:
        return expression["$literal"]
    return mongomock.new_parser({}).parse(expression)


def aggregate(
    coll: Any, pipeline: list[Mapping[str, Any]], variables: Mapping[str, Any] | None = None
) -> list[Document]:
    """`variables` is the `let` option: each value an expression, evaluated once."""
    stages = list(pipeline)
    match: Mapping[str, Any] | None = None
    # The first `$match` runs as a filter on the stored documents, unless it is an `$expr` that
    # may use the `let` variables, which a filter cannot see: that one stays a stage.
    first = stages[0] if stages else {}
    if set(first) == {"$match"} and not (variables and rules.has_expr(first["$match"])):
        match = stages.pop(0)["$match"]
    docs = _sorted_and_limited(_stored_documents(coll, match), stages)
    copy = dict if _reads_in_place(stages) else _clone
    docs = [copy(doc) for doc in docs]
    scope = {name: _evaluate_once(e) for name, e in _to_stored(dict(variables or {})).items()}
    result = mongomock.run_pipeline(coll, docs, _to_stored(stages, shared=True), scope)
    return [_to_reply(doc) for doc in result]


def _sorted_and_limited(docs: list[Document], stages: list[Mapping[str, Any]]) -> list[Document]:
    """A leading `$sort` (and the `$limit` after it) applied to the stored documents, as an
    index would give them, when `fast_filters` can sort them; the stages are consumed."""
    if not stages or set(stages[0]) != {"$sort"}:
        return docs
    ordered = fast_filters.sorted_documents(docs, stages[0]["$sort"])
    if ordered is None:
        return docs
    stages.pop(0)
    limit = stages[0].get("$limit") if stages and len(stages[0]) == 1 else None
    if type(limit) is int and limit > 0:  # a server refuses other limits: the stage says so
        stages.pop(0)
        ordered = ordered[:limit]
    return ordered


def _fast_sorted(
    coll: Any, filter: Mapping[str, Any] | None, kwargs: Mapping[str, Any]
) -> list[Document] | None:
    """A sorted `find`'s documents (skip and limit applied), when `fast_filters` sorts them."""
    sort = kwargs.get("sort")
    if not sort:
        return None
    pairs = sort.items() if isinstance(sort, Mapping) else sort
    docs = _stored_documents(coll, filter)
    ordered = fast_filters.sorted_documents(docs, dict(pairs))
    if ordered is None:
        return None
    skip, limit = int(kwargs.get("skip") or 0), int(kwargs.get("limit") or 0)
    ordered = ordered[skip:]
    return ordered[: abs(limit)] if limit else ordered


def _slice(values: list[Any], spec: Any) -> list[Any]:
    if isinstance(spec, int):
        return values[:spec] if spec >= 0 else values[spec:]
    skip, limit = spec
    start = skip if skip >= 0 else max(len(values) + skip, 0)
    return values[start : start + limit]


def _simple_projection(projection: Any) -> bool:
    if not isinstance(projection, Mapping):
        return False
    for key, value in projection.items():
        if "." in key:
            return False
        if isinstance(value, Mapping):
            if set(value) != {"$slice"}:
                return False
        elif value not in (0, 1, True, False):
            return False
    return True


def _project(doc: Document, projection: Mapping[str, Any]) -> Document:
    slices = {k: v["$slice"] for k, v in projection.items() if isinstance(v, Mapping)}
    flags = {k: bool(v) for k, v in projection.items() if not isinstance(v, Mapping)}
    includes = {k for k, v in flags.items() if v and k != "_id"}
    if includes:
        keep = includes | set(slices) | ({"_id"} if flags.get("_id", True) else set())
        out = {k: v for k, v in doc.items() if k in keep}
    else:
        out = {k: v for k, v in doc.items() if flags.get(k, True)}
    for key, spec in slices.items():
        if isinstance(out.get(key), list):
            out[key] = _slice(out[key], spec)
    return out


def project(coll: Any, doc: Document, projection: Mapping[str, Any]) -> Document:
    """A find-style projection of a reply-form document; aggregation expressions allowed."""
    if _simple_projection(projection):
        return dict(_to_reply(_project(doc, projection)))
    [projected] = mongomock.run_pipeline(coll, [doc], [{"$project": projection}])
    return dict(_to_reply(projected))


# Find-only projection operators, which a `$project` stage does not know.
FIND_PROJECTION_OPERATORS = frozenset({"$elemMatch", "$meta"})


def _expression_projection(projection: Any) -> bool:
    """A projection with aggregation expressions (MongoDB 4.4+ takes them in `find`), and
    none of find's own operators (`$elemMatch`, `$meta`, positional `a.$`)."""
    if not isinstance(projection, Mapping):
        return False
    return not any(
        key.endswith(".$")
        or (isinstance(value, Mapping) and set(value) & FIND_PROJECTION_OPERATORS)
        for key, value in projection.items()
    )


def find(coll: Any, filter: Mapping[str, Any] | None, kwargs: Mapping[str, Any]) -> list[Document]:
    """`find` with sort, skip, limit and projections on the stored documents."""
    projection = kwargs.get("projection")
    if projection is not None and not _simple_projection(projection):
        if not _expression_projection(projection):
            return list(coll.find(filter or {}, **kwargs))
        found = find(coll, filter, {**kwargs, "projection": None})
        return [project(coll, doc, projection) for doc in found]
    fast = _fast_sorted(coll, filter, kwargs)
    if fast is not None:
        docs = fast
    elif kwargs.get("sort") or kwargs.get("skip"):
        order = coll.find(
            filter or {},
            {"_id": 1},
            sort=kwargs.get("sort"),
            skip=kwargs.get("skip", 0),
            limit=kwargs.get("limit", 0),
        )
        store = mongomock.document_store(coll)
        docs = [store[mongomock.store_key(doc["_id"])] for doc in order]
    else:
        docs = _stored_documents(coll, filter)
        if kwargs.get("limit"):
            docs = docs[: kwargs["limit"]]
    if projection is not None:
        docs = [_project(doc, projection) for doc in docs]
    return [_to_reply(doc) for doc in docs]
