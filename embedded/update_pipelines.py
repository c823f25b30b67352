"""Update pipelines: `let` variables, and the pipeline applied to the one document, its plain
stages without mongomock-ng (`embedded.plain_stages`), any other by mongomock-ng.

A pipeline runs on the stored document itself, in stored form (naive UTC datetimes), as an
aggregation's stages run (`embedded.reads`): its stages, and the `let` values, are put in that
form first. Nothing it reads is changed; the caller stores a copy of what it returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from embedded import mongomock_internals as mongomock
from embedded import reads
from embedded.literals import copied_literals
from embedded.mongomock_internals import NOTHING
from embedded.plain_stages import apply_plain
from embedded.protocols import Document
from embedded.stored_form import stored_copy


def apply_pipeline(
    coll: Any, doc: Document, pipeline: Iterable[Mapping[str, Any]], scope: dict[str, Any]
) -> Document:
    """What an update pipeline turns `doc` into (a server applies it to the one document),
    with the update's `let` variables in `scope`.

    `doc` and `scope` are in stored form; `doc` is not changed (mongomock-ng's stages, which
    may change their input, get a copy). The result may share values with both.
    """
    stages = reads.stored_stages(list(pipeline))
    applied = apply_plain(doc, stages, scope)
    if applied is not NOTHING:
        return applied  # type: ignore[no-any-return]  # a new dict
    with copied_literals():
        [result] = mongomock.run_pipeline(coll, [stored_copy(doc)], stages, scope)
    return dict(result)


class LetScope(dict[str, Any]):
    """A command's `let`, evaluated: what its statements' pipelines read."""


def let_scope(variables: Mapping[str, Any] | None) -> LetScope:
    """An update's `let`: each value an expression, evaluated once per command (a command of
    many statements evaluates it first and passes the scope on), before any document, in the
    documents' stored form (a naive datetime is UTC, as on a server)."""
    if isinstance(variables, LetScope):
        return variables
    scope = LetScope()
    for name, expression in (variables or {}).items():
        scope[name] = stored_copy(reads.evaluate_once(expression))
    return scope
