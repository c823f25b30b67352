"""Every internal of mongomock-ng and PyMongo the engine relies on, in one place.

An internal is what no library promises to keep: a private name (`_x`), a name in a module
the library keeps for itself (mongomock-ng's modules: only `mongomock_ng.__all__` is its API;
PyMongo's `_x` modules and `pymongo.common`), or an attribute of an object such a name gives.
Any release, a patch too, may change one without a word, so pyproject.toml caps each library
at the release tested here (`TESTED`), and tests/engine/test_internals_guard.py fails, naming
the internal and the versions, when one is missing, when the module said to rely on one no
longer names it, or when a module of `embedded` reads one this table does not list. To raise
a cap: raise it in pyproject.toml and here, `make lock`, run that test, then `make test`.

Each `Internal` names where it lives (`module`, and `name`, an attribute path from it, whose
last part may be an instance attribute), what the engine uses it for, and the module of
`embedded` that does (`used_in`). The table holds names only: importing it imports neither
library (only `embedded.mongomock_internals` imports mongomock-ng).
"""

from __future__ import annotations

from typing import NamedTuple

# The releases the engine is tested on: pyproject.toml's caps.
TESTED = {"mongomock-ng": "7.11.1", "pymongo": "4.20.1"}
# Each library's distribution, by its top-level module.
PACKAGES = {"mongomock_ng": "mongomock-ng", "pymongo": "pymongo"}
# PyMongo modules its API documentation leaves out, though their names have no underscore.
PRIVATE_MODULES = ("pymongo.common",)
# mongomock-ng's operator categories, in the order its parser tries them: each has a list
# (`aggregate.<category>_operators`) and a handler (`_Parser._handle_<category>_operator`),
# which `embedded.mongomock_internals` looks up by a computed name (its `_CATEGORIES`).
CATEGORIES = (
    *("arithmetic", "project", "projection", "comparison", "date", "array", "conditional"),
    *("control_flow", "set", "string", "type_convertion", "type", "boolean", "object"),
    *("field", "custom"),
)


class Internal(NamedTuple):
    module: str
    name: str  # an attribute path from the module; its last part may be an instance attribute
    use: str
    used_in: str  # the module of `embedded` that relies on it

    @property
    def package(self) -> str:
        return PACKAGES[self.module.split(".")[0]]


def _expanded(name: str) -> list[str]:
    """`{A,B}.x` is `A.x` and `B.x`: one attribute of several classes."""
    if not name.startswith("{"):
        return [name]
    owners, _, rest = name[1:].partition("}")
    return [owner + rest for owner in owners.split(",")]


def _table(text: str) -> tuple[Internal, ...]:
    """Rows of `module  name  used_in  use` (two spaces apart; a module or used_in of `-` is
    the row above's), `used_in` under embedded/."""
    rows: list[Internal] = []
    module = used_in = ""
    for line in text.strip().splitlines():
        given, name, given_in, use = (part.strip() for part in line.split("  ", 3))
        module = module if given == "-" else given
        used_in = used_in if given_in == "-" else f"embedded.{given_in}"
        rows += [Internal(module, each, use, used_in) for each in _expanded(name)]
    return tuple(rows)


MONGOMOCK = _table(
    """
mongomock_ng  utcnow  mongomock_internals  TTL expiry's "now", which a test may patch
-  Collection._ensure_uniques  -  replaced: unique indexes checked by the engine
-  Collection._iter_documents  -  the stored documents a filter matches, not copied
-  Collection._apply_pull_operator  -  replaced: `$pull` of a value as BSON compares
-  Collection._apply_pull_all_operator  -  replaced: `$pullAll` as BSON compares
-  Collection._store  -  a collection's store of documents and indexes
mongomock_ng.store  CollectionStore  -  its TTL expiry by one index replaced
-  CollectionStore.documents  -  every stored document in natural order, not copied
-  CollectionStore._documents  -  the dictionary by `_id` read and written through; replaced
-  CollectionStore.indexes  -  the declared indexes by name
-  CollectionStore._ttl_indexes  -  whether a store has a TTL index to expire
-  CollectionStore._remove_expired_documents  -  TTL expiry, run before a read
-  CollectionStore._expire_documents  -  replaced: one TTL index's expiry, routed to the engine
-  CollectionStore._value_meets_expiry  -  whether a TTL index expires a value
mongomock_ng.aggregate  _Parser  -  the expression parser, taught the engine's operators
-  _Parser.parse  -  replaced: expression documents evaluated by compiled closures
-  _Parser._doc_dict  -  the document a parsed expression reads
-  _Parser._user_vars  -  the variables (`$$name`) in scope
-  process_pipeline  -  the pipeline runner (may change its input documents in place)
-  NOTHING  -  the value of a missing field or variable
-  _GROUPING_OPERATOR_MAP  -  `$group`'s accumulators; the engine's `$addToSet` put in
-  _PIPELINE_HANDLERS  -  the stages' handlers, wrapped by the engine's
mongomock_ng.filtering  bson_compare  -  replaced: the matcher's comparisons are the engine's
-  SORTING_OPERATOR_MAP  -  BSON comparison operators
-  operator_eq  -  replaced: the matcher's equality is the engine's
-  filter_applies  -  whether a query filter matches a document (the positional `$`)
-  BsonComparable  -  a sort key in BSON order
-  _in_op  -  replaced: `$in` as the engine compares
-  ObjectId  -  replaced: the matcher no longer equates an ObjectId with its hex string
-  _filterer_inst  -  the matcher, whose query operators the engine replaces some of
-  _filterer_inst._operator_map  -  query operators, some replaced by the engine's
-  _filterer_inst._operator_map.update  -  the engine's query operators put in
mongomock_ng.collection  _updaters  -  update operators, `$inc`/`$mul`/`$min`/`$max` replaced
-  _updaters.update  -  the engine's update operators put in
-  _add_to_set_contains  -  replaced: `$addToSet` tests membership as BSON compares
mongomock_ng.helpers  get_value_by_dot  -  a dotted path's value
-  mongodb_to_bool  -  a value's truth, as aggregation expressions test it
-  _clone_document  -  a document's copy
-  patch_datetime_awareness_in_document  -  datetimes as stored: naive UTC, milliseconds
-  make_datetime_timezone_aware_in_document  -  datetimes as replies carry them: UTC
-  utc  -  the zone of a reply's datetimes
-  hashdict  -  the key a subdocument `_id` is stored under
"""
)

# The parser's operator lists and handlers, by category (looked up by a computed name).
OPERATORS = tuple(
    Internal(
        "mongomock_ng.aggregate",
        name,
        "which operators the parser sends to which handler; lists extended, handlers wrapped",
        "embedded.mongomock_internals",
    )
    for category in CATEGORIES
    for name in (f"{category}_operators", f"_Parser._handle_{category}_operator")
)

_MODELS = "{InsertOne,UpdateOne,UpdateMany,ReplaceOne,DeleteOne,DeleteMany}"
_NOT_INSERT = "{UpdateOne,UpdateMany,ReplaceOne,DeleteOne,DeleteMany}"

PYMONGO = _table(
    f"""
pymongo._client_bulk_shared  _AgnosticClientBulkBase  adapter.client_bulk  \
a client bulk write built as PyMongo builds it (it reads `client.options.retry_writes`)
-  _AgnosticClientBulkBase.ops  -  the built ops, `(kind, op)`
-  _AgnosticClientBulkBase.namespaces  -  each op's namespace
-  _AgnosticClientBulkBase.uses_collation  -  refused when unacknowledged
-  _AgnosticClientBulkBase.uses_array_filters  -  refused when unacknowledged
-  _AgnosticClientBulkBase.bypass_doc_val  -  refused when unacknowledged
-  _merge_command  -  a reply merged into PyMongo's full result
-  _throw_client_bulk_write_exception  -  the exception of a result with write errors
pymongo.operations  {_MODELS}._add_to_client_bulk  -  a write model added to a client bulk
pymongo.common  validate_list  -  the models' check, as PyMongo's
pymongo.operations  {{InsertOne,UpdateOne,UpdateMany,ReplaceOne}}._doc  writes.bulk  \
a request's document, update or replacement
-  {_NOT_INSERT}._filter  -  a request's filter
-  {{UpdateOne,UpdateMany,ReplaceOne}}._upsert  -  a request's upsert
-  {{UpdateOne,ReplaceOne}}._sort  -  a request's sort
-  {{UpdateOne,UpdateMany}}._array_filters  -  a request's array filters
-  {_NOT_INSERT}._hint  -  a request's hint (set only when given)
-  {_NOT_INSERT}._collation  -  a request's collation
pymongo.common  validate_ok_for_update  -  a request's update checked as PyMongo checks it
-  validate_ok_for_replace  -  a request's replacement checked as PyMongo checks it
-  validate_list_or_none  -  a request's array filters checked as PyMongo checks them
-  validate_is_document_type  -  a request's document checked as PyMongo checks it
-  validate_is_document_type  adapter.collection_writes  an inserted document's check
-  validate_is_mapping  adapter.driver  a filter's check, as PyMongo's
-  validate_ok_for_update  -  an update's check
-  validate_ok_for_replace  -  a replacement's check
-  validate_list_or_none  -  array filters' check
pymongo.write_concern  validate_boolean  -  upsert's check (pymongo.common's, re-exported)
"""
)

INTERNALS = MONGOMOCK + OPERATORS + PYMONGO
