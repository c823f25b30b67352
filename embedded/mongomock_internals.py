"""Every mongomock-ng name the engine uses, in one module: the rest of `embedded` uses these.

mongomock-ng exports its client, collection, database and error classes (`mongomock_ng.__all__`).
The engine also needs its implementation: the aggregation expression parser, which it teaches
operators and routes through compiled closures; the pipeline runner; BSON comparison, copying
and datetime conversion; and a collection's stored documents, read without mongomock-ng's copy.
None of that is a public API: each name gets a typed name or an accessor here (no other module
of `embedded` imports mongomock-ng), listed in embedded/internals.py, whose guard
(tests/engine/test_internals_guard.py) fails on a name read here and not listed there.
mongomock-ng is pinned to 7.11.1 (pyproject.toml); when upgrading, re-check in its source:

- `aggregate._Parser`: the constructor `(doc_dict, *, user_vars=None)`, the attributes
  `_doc_dict` and `_user_vars`, `parse(expression)`, and that `parse` sends a one-key operator
  document to `_handle_<category>_operator(operator, argument)` after testing the operator lists
  in the order of `_CATEGORIES` below (the engine's one-lookup dispatch copies that order), and
  that nothing subclasses `_Parser` (handlers are looked up on the class once);
- the operator lists (`aggregate.array_operators`, ...): names and membership; `install()`
  appends `$sortArray` to `array_operators`, so it must stay a list;
- `aggregate.NOTHING` (imported there from `sentinels`): the value of a missing field;
- `aggregate.process_pipeline(documents, database, pipeline, session, user_vars)`, which may
  change its input documents in place;
- `filtering.SORTING_OPERATOR_MAP`, `filtering.BsonComparable` (a sort key), `filter_applies(filter,
  doc)` (the positional `$` tests elements with it); `route_comparisons_to(equal(a, b), order(op,
  a, b, can_compare_types), operators, updaters)` replaces its globals `operator_eq`,
  `bson_compare`, `_in_op`, `ObjectId` (what is left of it matches an ObjectId's hex string),
  entries of `_filterer_inst._operator_map` and `collection._updaters` (`{operator: updater(doc,
  field, value, codec_options)}`), and `collection._add_to_set_contains(array, value)`;
- `Collection._apply_pull_operator` and `_apply_pull_all_operator(doc, spec, fields)`, replaced
  by `route_array_removals_to`;
- `Collection._ensure_uniques(new_document)` (replaced by `route_unique_checks_to`) and
  `Collection._store.indexes` (`{name: {key, unique?, sparse?, partialFilterExpression?}}`);
- `helpers.patch_datetime_awareness_in_document`: to naive UTC at millisecond precision;
- `Collection._iter_documents(filter)` (the matching stored documents, not copied, in natural
  order); `Collection._store` and its `_documents`, the dictionary by `_id` it reads and writes
  through (`[]`, `[] =`, `del`, `in`, `values()`, `len`), which `drop()` replaces;
- TTL expiry, run before a store is read: `_remove_expired_documents()`, `_ttl_indexes`,
  `_expire_documents(index)`, `_value_meets_expiry(value, seconds, now)`, `mongomock_ng.utcnow`;
- `aggregate._PIPELINE_HANDLERS` (`{stage: handler(documents, database, spec, user_vars)}`),
  `_GROUPING_OPERATOR_MAP` (`{accumulator: of(values)}`, tried before its own `$addToSet`).
  `tests/engine/` tests each of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any, Final, TypeVar

import mongomock_ng
from mongomock_ng import aggregate as _aggregate
from mongomock_ng import collection as _collection
from mongomock_ng import filtering as _filtering
from mongomock_ng import helpers as _helpers
from mongomock_ng import store as _store

from embedded.protocols import Document, DocumentStore, Evaluator, Handler, Parser, Stage

Table = TypeVar("Table", bound="Mapping[Any, Document]")
Expiry = Callable[[Any, Any, Mapping[str, Any], Callable[[], None]], None]
# (document, an update operator's fields, mongomock-ng's own on the same document) -> None
Removal = Callable[[Document, Mapping[str, Any], Callable[[Mapping[str, Any]], None]], None]


_ParserClass: Any = _aggregate._Parser
_process_pipeline: Any = _aggregate.process_pipeline

# The value of a missing field or variable (`sentinels.NOTHING`, which mongomock-ng imports).
NOTHING: Final[object] = getattr(_aggregate, "NOTHING")  # noqa: B009 (not exported)

# BSON semantics, as mongomock-ng implements them.
get_value_by_dot: Callable[..., Any] = _helpers.get_value_by_dot
mongodb_to_bool: Callable[[Any], bool] = _helpers.mongodb_to_bool
SORTING_OPERATOR_MAP: Mapping[str, Any] = _filtering.SORTING_OPERATOR_MAP
filter_applies: Callable[[Mapping[str, Any], Any], bool] = _filtering.filter_applies
bson_sort_key: Callable[[Any], Any] = _filtering.BsonComparable
group_accumulators: dict[str, Callable[[list[Any]], Any]] = _aggregate._GROUPING_OPERATOR_MAP

# Copies and datetimes: documents are stored with naive UTC datetimes.
clone_document: Callable[[Any], Any] = _helpers._clone_document
patch_datetimes: Callable[[Any], Any] = _helpers.patch_datetime_awareness_in_document
to_stored_datetimes = patch_datetimes
to_aware_datetimes: Callable[[Any], Any] = _helpers.make_datetime_timezone_aware_in_document
READ_ZONE: Any = _helpers.utc  # the zone `to_aware_datetimes` gives every datetime

# mongomock-ng's operator lists, in the order its parser tries them, and their handlers.
_ORDER = (
    "arithmetic project projection comparison date array conditional control_flow set string"
    " type_convertion type boolean object field custom"
)
_CATEGORIES = tuple((f"{c}_operators", f"_handle_{c}_operator") for c in _ORDER.split())
_HANDLER_OF = {names.removesuffix("_operators"): handler for names, handler in _CATEGORIES}


def new_client() -> Any:
    """A mongomock-ng client; replies carry UTC datetimes, as the driver's do with tz_aware."""
    return mongomock_ng.MongoClient(tz_aware=True)


def new_parser(document: Any, variables: dict[str, Any] | None = None) -> Parser:
    """A parser of expressions over `document`, with `variables` (`$$name`) in scope."""
    parser: Parser = _ParserClass(document, user_vars=variables)
    return parser


def run_pipeline(
    coll: Any,
    documents: Iterable[Document],
    pipeline: list[Mapping[str, Any]],
    variables: Mapping[str, Any] | None = None,
) -> Iterable[Document]:
    """mongomock-ng's aggregation of `documents` (which it may change in place) in `coll`'s db."""
    result: Iterable[Document] = _process_pipeline(
        documents, coll.database, pipeline, None, variables
    )
    return result


def iter_documents(coll: Any, filter: Mapping[str, Any]) -> Iterable[Document]:
    """The stored documents (not copies) matching `filter` (stored datetimes), in natural order."""
    found: Iterable[Document] = coll._iter_documents(filter)
    return found


def stored_documents(coll: Any) -> Iterable[Document]:
    """Every stored document (not copies), in natural order."""
    documents: Iterable[Document] = coll._store.documents
    return documents


def document_store(coll: Any) -> DocumentStore:
    store: DocumentStore = coll._store
    return store


def replace_stored(coll: Any, stored: Document) -> None:
    """Store `stored` (in stored form, `embedded.stored_form`) in place of the stored document
    with its `_id`, in its place in natural order, the collection's unique indexes checked
    (`Collection._ensure_uniques`): what mongomock-ng's `replace_one` does after finding the
    document by a scan, without the scan; nor its store's lock and TTL pass (the caller found
    the document in this command, under the engine's lock, which keeps other threads out)."""
    key = store_key(stored["_id"])
    documents = coll._store._documents
    previous = documents[key]
    documents[key] = stored
    try:
        coll._ensure_uniques(stored)
    except Exception:
        documents[key] = previous
        raise


def declared_indexes(coll: Any) -> Mapping[str, Mapping[str, Any]]:
    """The collection's indexes by name, as mongomock-ng keeps them: `{key: [(path, order)],
    unique?, sparse?, partialFilterExpression?}` (the same object until the index goes)."""
    indexes: Mapping[str, Mapping[str, Any]] = coll._store.indexes
    return indexes


def indexed_documents(coll: Any, kind: Callable[[Mapping[Any, Document]], Table]) -> Table:
    """The collection's stored documents held in a `kind` (a mapping built from mongomock-ng's
    dictionary), which takes that dictionary's place in the store, so that every write of the
    store goes through it; put in place the first time, and again after a drop."""
    store = coll._store
    documents = store._documents
    if type(documents) is not kind:
        documents = kind(documents)
        store._documents = documents
    table: Table = documents
    return table


def expire_documents(coll: Any) -> None:
    """TTL expiry, as mongomock-ng runs it before reading a store (with a TTL index only)."""
    store = coll._store
    if store._ttl_indexes:
        store._remove_expired_documents()


def delete_stored(coll: Any, document: Document) -> None:
    """Delete the stored document with `document`'s `_id` (mongomock-ng's delete, unscanned)."""
    del coll._store[store_key(document["_id"])]


def wrap_stage(name: str, wrap: Callable[[Stage], Stage]) -> None:
    """Make the pipeline runner run stage `name` with `wrap(its handler)`."""
    handlers: dict[str, Any] = _aggregate._PIPELINE_HANDLERS
    handlers[name] = wrap(handlers[name])


def route_expiry_to(expire: Expiry) -> None:
    """Make every store expire the documents of a TTL index with `expire(store, documents,
    index, scan)` (`CollectionStore._expire_documents`, run before a store is read; `documents`
    is the store's dictionary, `scan()` its own expiry)."""
    store_class: Any = _store.CollectionStore
    original = store_class._expire_documents

    def expire_documents(self: Any, index: Mapping[str, Any]) -> None:
        expire(self, self._documents, index, lambda: original(self, index))

    store_class._expire_documents = expire_documents


def expiry_now() -> datetime:
    """mongomock-ng's "now" of TTL expiry (`mongomock_ng.utcnow`, which a test may patch)."""
    now: datetime = getattr(mongomock_ng, "utcnow")()  # noqa: B009 (not typed)
    return now


def expires(store: Any, value: Any, seconds: int, now: datetime) -> bool:
    """Whether a TTL index of `seconds` expires a document whose field holds `value`."""
    return bool(store._value_meets_expiry(value, seconds, now))


def route_unique_checks_to(check: Callable[[Any, Document], None]) -> None:
    """Make every collection check its unique indexes with `check(collection, new_document)`
    (`Collection._ensure_uniques`, called by inserts, updates and `replace_stored`)."""

    def ensure_uniques(self: Any, new_data: Document) -> None:
        check(self, new_data)

    collection_class: Any = mongomock_ng.Collection
    collection_class._ensure_uniques = ensure_uniques


def store_key(document_id: Any) -> Any:
    """The key the document store files an `_id` under: mongomock-ng files a subdocument `_id`
    as its `helpers.hashdict`."""
    return _helpers.hashdict(document_id) if isinstance(document_id, dict) else document_id


def has_operator(category: str, operator: str) -> bool:
    """Whether the parser sends `operator` to the handler of `category` (`"array"`, ...)."""
    return operator in getattr(_aggregate, category + "_operators")


def add_operator(category: str, operator: str) -> None:
    """Make the parser send `operator` to the handler of `category`."""
    getattr(_aggregate, category + "_operators").append(operator)


def wrap_handler(category: str, wrap: Callable[[Handler], Handler]) -> None:
    """Replace the parser's handler of `category`'s operators with `wrap(handler)`."""
    name = _HANDLER_OF[category]
    setattr(_ParserClass, name, wrap(getattr(_ParserClass, name)))


def operator_handlers() -> dict[str, Handler]:
    """Each operator's handler as the parser finds it (the first category that lists it)."""
    handlers: dict[str, Handler] = {}
    for names, handler in _CATEGORIES:
        for operator in getattr(_aggregate, names):
            handlers.setdefault(operator, getattr(_ParserClass, handler))
    return handlers


def parser_parse() -> Callable[[Any, Any], Any]:
    """The parser's `parse(parser, expression)` as it is now."""
    parse: Callable[[Any, Any], Any] = _ParserClass.parse
    return parse


def route_documents_to(compiled: Callable[[Any], Evaluator]) -> None:
    """Make the parser evaluate an expression document or a `$$variable` `e` as `compiled(e)`."""
    original = _ParserClass.parse

    def parse(self: Any, expression: Any) -> Any:
        if isinstance(expression, dict) or (type(expression) is str and expression[:2] == "$$"):
            return compiled(expression)(self._doc_dict, self._user_vars)
        return original(self, expression)

    _ParserClass.parse = parse


def route_comparisons_to(equal: Any, order: Any, operators: Any, updaters: Any) -> None:
    """The matcher, sorts and updates compare with `equal`, `order`, `operators`, `updaters`."""
    _filtering.operator_eq, _filtering.bson_compare = equal, order
    _filtering._in_op = operators["$in"]
    _filtering.ObjectId = type("NotAnObjectId", (), {})  # type: ignore[attr-defined]
    _filtering._filterer_inst._operator_map.update(operators)
    _collection._updaters.update(updaters)
    _collection._add_to_set_contains = lambda items, value: any(equal(i, value) for i in items)


def route_array_removals_to(pull: Removal, pull_all: Removal) -> None:
    """Make updates apply `$pull` and `$pullAll` with `remove(document, fields, theirs)`
    (`Collection._apply_pull_operator`, `_apply_pull_all_operator`), `theirs(fields)` applying
    mongomock-ng's own to the same document."""
    collection_class: Any = mongomock_ng.Collection
    their_pull = collection_class._apply_pull_operator
    their_pull_all = collection_class._apply_pull_all_operator

    def apply_pull(self: Any, doc: Document, spec: Any, fields: Mapping[str, Any]) -> None:
        pull(doc, fields, lambda left: their_pull(self, doc, spec, left))

    def apply_pull_all(self: Any, doc: Document, spec: Any, fields: Mapping[str, Any]) -> None:
        pull_all(doc, fields, lambda left: their_pull_all(self, doc, spec, left))

    collection_class._apply_pull_operator = apply_pull
    collection_class._apply_pull_all_operator = apply_pull_all
