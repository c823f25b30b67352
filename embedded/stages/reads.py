"""The engine's read path: work on the stored documents, copy only the reply.

mongomock-ng deep-copies every document a read touches (an aggregation copies the whole collection
first): a page of 20 from a user with 10,000 orders cost as much as reading all of them. A server
reads in place and sends only the result; so does this: the filter runs on the stored documents,
pipelines on shallow copies of them (`$unwind` too: `unwind_stage`), and only what is returned is
copied; stages that could change nested values in place get deep copies. Which stored documents a
filter examines (a leading sort or limit too) is the planner's (`embedded.planner.plans`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from embedded import examined
from embedded import mongomock_internals as mongomock
from embedded.expressions.literals import copied_literals
from embedded.expressions.variables import bind, let_values
from embedded.planner import command_options, fast_filters, plans
from embedded.planner.indexes import IndexedDocuments, table_of
from embedded.protocols import Document
from embedded.stages import plain_stages, projections, sort_stage, stage_names
from embedded.stages.unwind_stage import shallow_unwinds
from embedded.stored_form import read_copy

_clone = mongomock.clone_document
_naive = mongomock.to_stored_datetimes

# Stages that build new documents (or only reorder them) and never write into their input.
_NON_MUTATING_STAGES = frozenset(
    {"$match", "$project", "$sort", "$limit", "$skip", "$count", "$group", "$unwind"}
)
_SCALARS = frozenset({str, int, float, bool, type(None)})
# Containers found to hold no datetime (pipelines built once, shared): not walked again.
_WITHOUT_DATETIMES: dict[int, Any] = {}
# Shared containers holding datetimes, with their stored form, so its compiled expressions last.
_STORED_FORMS: dict[int, tuple[Any, Any]] = {}
_STORED_FORMS_KEPT = 256


def _to_stored(value: Any, memo: dict[int, Any] | None = None, *, shared: bool = False) -> Any:
    """Datetimes as the engine stores them: naive UTC, milliseconds.

    A value without datetimes comes back as the same object, so a pipeline built once keeps its
    compiled expressions; memoised by identity, as a page pipeline repeats one stage twenty times.
    `shared` marks pipeline stages, which store code builds once and never changes: those seen
    before are not walked again (`_keep_shared`).
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is datetime:
        return _naive(value)
    if kind is not dict and kind is not list:
        if isinstance(value, datetime):
            return _naive(value)
        if not isinstance(value, Mapping | list | tuple):
            return value
    memo = {} if memo is None else memo
    if id(value) in memo:
        return memo[id(value)]
    if shared:
        if _WITHOUT_DATETIMES.get(id(value)) is value:
            return value
        known = _STORED_FORMS.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
    converted = _converted(value, memo, shared)
    memo[id(value)] = converted
    if shared:
        _keep_shared(value, converted)
    return converted


def _keep_shared(value: Any, converted: Any) -> None:
    """Remember a shared container's stored form (held, so its id stays its own)."""
    if converted is value:
        if len(_WITHOUT_DATETIMES) >= 4096:
            _WITHOUT_DATETIMES.clear()
        _WITHOUT_DATETIMES[id(value)] = value
        return
    if len(_STORED_FORMS) >= _STORED_FORMS_KEPT:
        _STORED_FORMS.clear()
    _STORED_FORMS[id(value)] = (value, converted)


def _converted(value: Any, memo: dict[int, Any], shared: bool) -> Any:
    """A container's stored form: itself when none of its values changed (scalars: no call)."""
    changed = False
    if type(value) is dict or isinstance(value, Mapping):
        items: dict[Any, Any] = {}
        for key, item in value.items():
            if type(item) not in _SCALARS:
                stored = _to_stored(item, memo, shared=shared)
                changed = changed or stored is not item
                item = stored
            items[key] = item
        return items if changed else value
    elements = []
    for item in value:
        if type(item) not in _SCALARS:
            stored = _to_stored(item, memo, shared=shared)
            changed = changed or stored is not item
            item = stored
        elements.append(item)
    return elements if changed or isinstance(value, tuple) else value


_to_reply = read_copy  # a stored value as a driver would decode it
_COMMAND_OPTIONS = frozenset({"let", "hint", "collation"})


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


def aggregate(
    coll: Any, pipeline: list[Mapping[str, Any]], variables: Mapping[str, Any] | None = None
) -> list[Document]:
    """`variables` is the `let` option: each value an expression, evaluated once."""
    stages = list(pipeline)
    scope = let_values(variables)
    match = _leading_match(stages, scope)
    if match is not None:
        del stages[:1]
    docs = _sorted_and_limited(coll, _to_stored(match or {}), stages)
    converted = stored_stages(stages)
    if not converted:
        return [_to_reply(doc) for doc in docs]
    plans = plain_stages.plain_plans(converted)
    if plans is not None:
        # They read the stored documents and build new ones; the replies are copies.
        return [_to_reply(plain_stages.apply_plans(doc, plans, scope)) for doc in docs]
    if _reads_in_place(stages):
        with shallow_unwinds():
            result = mongomock.run_pipeline(coll, [dict(doc) for doc in docs], converted, scope)
    else:
        with copied_literals():
            result = mongomock.run_pipeline(coll, [_clone(d) for d in docs], converted, scope)
    return [_to_reply(doc) for doc in result]


# Stages that read other collections, or the whole one: the read is not bounded by its match.
_UNBOUNDED_STAGES = frozenset({"$lookup", "$graphLookup", "$unionWith", "$documents"})


def _leading_match(
    stages: Sequence[Mapping[str, Any]], scope: Mapping[str, Any] | None
) -> Mapping[str, Any] | None:
    """The first `$match`, run as a filter on the stored documents, its `$expr` given the
    `let` variables (`scope`, evaluated)."""
    first = stages[0] if stages else {}
    if set(first) == {"$match"}:
        match: Mapping[str, Any] = bind(first["$match"], scope)
        return match
    return None


def examines_one_document(
    coll: Any,
    filter: Mapping[str, Any] | None,
    stages: Sequence[Mapping[str, Any]] = (),
    variables: Mapping[str, Any] | None = None,
) -> bool:
    """Whether a find of `filter`, or an aggregation of `stages` (then `filter` is None),
    examines one stored document at most and reads nothing else: what the engine may run on
    the event loop (`EmbeddedEngine.run`)."""
    try:
        if stages:
            filter = _leading_match(stages, let_values(variables))
            if filter is None:
                return False
            stages = stages[1:]
        if any(_UNBOUNDED_STAGES & set(s) or "$facet" in s for s in stages):
            return False  # a `$facet` may hold any of them
        return plans.examines_at_most_one(coll, _to_stored(filter or {}))
    except Exception:  # a command the engine refuses: it runs, and fails, as any other
        return False


def _sorted_and_limited(
    coll: Any, filter: Mapping[str, Any], stages: list[Mapping[str, Any]]
) -> list[Document]:
    """The stored documents `filter` matches; a leading `$sort` (and the `$limit` after it)
    applied as an index gives them, or as `fast_filters` sorts them, a leading `$limit` as they
    are matched (`plans.matching`), and a leading `$count` counted on an index that decides the
    filter (`plans.counted`): those stages consumed."""
    counting = stages[0]["$count"] if stages and set(stages[0]) == {"$count"} else None
    if isinstance(counting, str) and counting and "." not in counting and counting[0] != "$":
        found = plans.counted(coll, filter)
        if found is not None:
            del stages[:1]
            return [{counting: found}] if found else []
    if stages and type(first := stages[0].get("$limit")) is int and first > 0:
        return plans.matching(coll, filter, limit=stages.pop(0)["$limit"])
    sort = stages[0]["$sort"] if stages and set(stages[0]) == {"$sort"} else None
    if not isinstance(sort, Mapping):
        return plans.matching(coll, filter)
    after = stages[1].get("$limit") if len(stages) > 1 and len(stages[1]) == 1 else None
    limit = after if type(after) is int and after > 0 else 0  # a server refuses other limits
    consumed = 2 if limit else 1
    walked = plans.ordered(coll, filter, list(sort.items()), 0, limit)
    if walked is not None:
        del stages[:consumed]
        return walked
    docs = plans.matching(coll, filter)
    ordered = fast_filters.sorted_documents(docs, sort)
    if ordered is None:
        return docs
    del stages[:consumed]
    return ordered[:limit] if limit else ordered


def _sorted(coll: Any, filter: Mapping[str, Any], kwargs: Mapping[str, Any]) -> list[Document]:
    """A `find`'s stored documents in its sort order, skip and limit applied."""
    sort = kwargs.get("sort")
    skip, limit = int(kwargs.get("skip") or 0), abs(int(kwargs.get("limit") or 0))
    if not sort:
        docs = plans.matching(coll, filter)[skip:]
        return docs[:limit] if limit else docs
    pairs = list(sort.items() if isinstance(sort, Mapping) else sort)
    walked = plans.ordered(coll, filter, pairs, skip, limit)
    if walked is not None:
        return walked
    docs = plans.matching(coll, filter)
    ordered = fast_filters.sorted_documents(docs, dict(pairs))
    if ordered is None:  # mixed types, arrays, missing fields
        ordered = sort_stage.sorted_documents(docs, pairs)
    ordered = ordered[skip:]
    return ordered[:limit] if limit else ordered


def project(coll: Any, doc: Document, projection: Mapping[str, Any], scope: Any = None) -> Document:
    """A find-style projection of a reply-form document; its expressions may read `scope`."""
    return projections.project(coll, doc, projection, _to_reply, scope)


def find(coll: Any, filter: Mapping[str, Any] | None, kwargs: Mapping[str, Any]) -> list[Document]:
    """`find` with sort, skip, limit, projections and its `let`, `hint` and `collation`."""
    scope = let_values(kwargs.get("let"))
    if _COMMAND_OPTIONS.intersection(kwargs):
        command_options.check(coll, kwargs.get("hint"), kwargs.get("collation"))
        filter = bind(filter, scope)
        kwargs = {k: v for k, v in kwargs.items() if k not in _COMMAND_OPTIONS}
    projection = kwargs.get("projection")
    if projection is not None and not projections.is_simple(projection):
        if not projections.has_expressions(projection):
            examined.report(coll, len(table_of(coll)))
            return list(coll.find(filter or {}, **kwargs))  # find's own operators: mongomock-ng
        stage_names.check_find_projection(projection)
        found = find(coll, filter, {**kwargs, "projection": None})
        return [project(coll, doc, projection, scope) for doc in found]
    docs = _sorted(coll, _to_stored(filter or {}), kwargs)
    if projection is not None:
        docs = [projections.apply_simple(doc, projection) for doc in docs]
    return [_to_reply(doc) for doc in docs]


def first_stored(
    coll: Any, filter: Mapping[str, Any] | None, sort: Any, table: IndexedDocuments | None = None
) -> Document | None:
    """The stored document (not a copy) a `find` of `filter` and `sort` returns first."""
    if sort is None and plans.is_point_read(filter):  # a write's usual filter: nothing to convert
        found = plans.matching(coll, filter, table)  # `table`: the collection's, if known
    else:
        found = _sorted(coll, _to_stored(filter or {}), {"sort": sort, "limit": 1})
    return found[0] if found else None


def stored_stages(stages: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Pipeline stages with their datetimes in stored form: the same stage objects when they
    hold none (each walked once: stages are built once and never changed). The list is the
    caller's, usually made for one command: it is not remembered, its stages are."""
    memo: dict[int, Any] = {}
    return [_to_stored(stage, memo, shared=True) for stage in stages]


def stored(coll: Any, filter: Mapping[str, Any] | None) -> list[Document]:
    """The stored documents (not copies) `filter` matches, in natural order."""
    return plans.matching(coll, _to_stored(filter or {}))


def count(coll: Any, filter: Mapping[str, Any] | None, skip: int = 0, limit: int = 0) -> int:
    """count_documents, and the `count` command: the documents `filter` matches."""
    return plans.count(coll, _to_stored(filter or {}), skip, limit)
