"""`$match` stages after a pipeline's first, without rewriting the documents they test.

mongomock-ng's `$match` stage copies every document it tests, to make its datetimes naive, even
for an empty filter: in a page pipeline that is a copy of the whole collection per stage. Here an
empty `$match` passes its documents on untouched, and one whose filter holds no datetime and no
expression (`$expr`, `$where`, `$function`: they compare fields with each other) tests the
documents as they are: such a filter never compares a datetime, so whether a document's are
naive cannot change its answer. Any other `$match` is mongomock-ng's.

mongomock-ng's pipeline runner is one for the whole process: `install()` changes it for every
user of mongomock-ng, so it runs when the first `EmbeddedEngine` is created, never on import.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from embedded.expressions.variables import bind
from embedded.planner import fast_filters
from embedded.protocols import Stage
from embedded.stages.stage_hooks import install_stage

_EXPRESSIONS = frozenset({"$expr", "$where", "$function"})


def _compares_dates(value: Any) -> bool:
    if isinstance(value, datetime):
        return True
    if isinstance(value, Mapping):
        return any(k in _EXPRESSIONS or _compares_dates(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_compares_dates(v) for v in value)
    return False


def _with_documents_as_they_are(original: Stage) -> Stage:
    def match(documents: Any, database: Any, spec: Any, variables: Any) -> Any:
        """The `$match` stage: `(documents, database, filter, variables)` -> documents."""
        if isinstance(spec, Mapping) and not spec:
            return documents if isinstance(documents, list) else list(documents)
        if not isinstance(spec, Mapping) or _compares_dates(spec):
            # mongomock-ng's `$and`, `$or` and `$nor` drop the variables: bound to each `$expr`.
            return original(documents, database, bind(spec, variables), variables)
        test = fast_filters.matcher(spec)
        return [doc for doc in documents if test(doc)]

    return match


def install() -> None:
    """Run every pipeline's `$match` as above (idempotent)."""
    install_stage("$match", _with_documents_as_they_are)
