"""Update pipelines: `let` variables, and the pipeline applied to the one document, its plain
stages without mongomock-ng (`embedded.stages.plain_stages`), any other by mongomock-ng.

A pipeline runs on the stored document itself, in stored form (naive UTC datetimes), as an
aggregation's stages run (`embedded.stages.reads`): its stages, and the `let` values, are put in
that form first. Nothing it reads is changed; the caller stores a copy of what it returns.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from embedded import mongomock_internals as mongomock
from embedded.expressions.literals import copied_literals
from embedded.expressions.variables import let_values
from embedded.protocols import Document
from embedded.stages import reads
from embedded.stages.plain_stages import Plan, apply_plans, plain_plans
from embedded.stored_form import stored_copy


class StoredPipeline(NamedTuple):
    """An update pipeline's stages in stored form, and their plans when every stage is plain
    (`embedded.stages.plain_stages`; None: mongomock-ng runs them)."""

    stages: list[Mapping[str, Any]]
    plans: list[Plan] | None


def stored_pipeline(pipeline: Iterable[Mapping[str, Any]]) -> StoredPipeline:
    stages = reads.stored_stages(list(pipeline))
    return StoredPipeline(stages, plain_plans(stages))


def apply_pipeline(
    coll: Any, doc: Document, pipeline: StoredPipeline, scope: dict[str, Any]
) -> Document:
    """What an update pipeline (`stored_pipeline`) turns `doc` into (a server applies it to
    the one document), with the update's `let` variables in `scope`.

    `doc` and `scope` are in stored form; `doc` is not changed (mongomock-ng's stages, which
    may change their input, get a copy). The result may share values with both.
    """
    if pipeline.plans is not None:
        return apply_plans(doc, pipeline.plans, scope)
    with copied_literals():
        [result] = mongomock.run_pipeline(coll, [stored_copy(doc)], pipeline.stages, scope)
    return dict(result)


class LetScope(dict[str, Any]):
    """A command's `let`, evaluated: what its statements' pipelines read."""


def let_scope(variables: Mapping[str, Any] | None) -> LetScope:
    """An update's `let`: each value an expression, evaluated once per command (a command of
    many statements evaluates it first and passes the scope on), before any document, in the
    documents' stored form (a naive datetime is UTC, as on a server)."""
    if isinstance(variables, LetScope):
        return variables
    return LetScope(let_values(variables))
