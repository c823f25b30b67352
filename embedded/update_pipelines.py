"""Update pipelines: `let` variables, and `$set`, `$addFields` and `$unset` stages applied
without mongomock-ng.

mongomock-ng runs an update pipeline as an aggregation: each stage a pass over a one-document
list, each field through its parser's entry point, before the compiled closure
(`embedded.compiler`) is found. Here each stage of a pipeline made of these three kinds is
compiled once (by identity, as expressions are) into its fields' closures, and applied to the
document directly, as a server applies them: every expression of a stage reads the document as
it was before that stage; a field whose value is missing (`$$REMOVE`, an absent path) is
removed; an existing field keeps its place, a new one goes last. A stage outside that plain form
(a dotted or `$` field name, an embedded-document value, which `$addFields` merges, an empty
specification) leaves the whole pipeline to mongomock-ng, which also reports its errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from embedded import mongomock_internals as mongomock
from embedded import operators, reads
from embedded.mongomock_internals import NOTHING, Evaluator
from embedded.protocols import Document
from embedded.stored_form import reply_copy

_SETTING = ("$set", "$addFields")


@dataclass(frozen=True, slots=True)
class Plan:
    """A stage compiled: the fields it sets, each with its closure, or those it removes."""

    sets: tuple[tuple[str, Evaluator], ...] = ()
    removes: tuple[str, ...] = ()


_plans: dict[int, tuple[Mapping[str, Any], Plan | None]] = {}
_PLANS_LIMIT = 1024


def _plain_name(name: object) -> bool:
    return isinstance(name, str) and bool(name) and "." not in name and not name.startswith("$")


def _plain_value(value: object) -> bool:
    """An operator expression, a path or variable, or a literal: not an embedded document."""
    if isinstance(value, dict):
        return len(value) == 1 and next(iter(value)).startswith("$")
    return True


def _compile(stage: Mapping[str, Any]) -> Plan | None:
    if len(stage) != 1:
        return None
    [(kind, spec)] = stage.items()
    if kind in _SETTING:
        if not isinstance(spec, dict) or not spec:
            return None
        if not all(_plain_name(n) and _plain_value(v) for n, v in spec.items()):
            return None
        return Plan(sets=tuple((name, operators.compiled(v)) for name, v in spec.items()))
    if kind == "$unset":
        names = [spec] if isinstance(spec, str) else spec
        if not isinstance(names, list) or not names or not all(map(_plain_name, names)):
            return None
        return Plan(removes=tuple(names))
    return None


def _plan(stage: Mapping[str, Any]) -> Plan | None:
    hit = _plans.get(id(stage))
    if hit is not None and hit[0] is stage:
        return hit[1]
    plan = _compile(stage)
    if len(_plans) >= _PLANS_LIMIT:
        _plans.clear()
    _plans[id(stage)] = (stage, plan)  # holding the stage keeps its id its own
    return plan


def apply_plain(doc: Document, pipeline: Sequence[Mapping[str, Any]], scope: dict[str, Any]) -> Any:
    """What `pipeline` makes of `doc` (a copy the caller owns), with the `let` variables in
    `scope`; NOTHING when a stage is not of the plain form (mongomock-ng then runs it all)."""
    plans = [_plan(stage) if isinstance(stage, Mapping) else None for stage in pipeline]
    if not plans or any(plan is None for plan in plans):
        return NOTHING
    current = doc
    for plan in plans:
        assert plan is not None
        values = [(name, evaluate(current, scope)) for name, evaluate in plan.sets]
        changed = dict(current)
        for name, value in values:
            if value is NOTHING:
                changed.pop(name, None)
            else:
                changed[name] = value
        for name in plan.removes:
            changed.pop(name, None)
        current = changed
    return current


def apply_pipeline(
    coll: Any, doc: Document, pipeline: Iterable[Mapping[str, Any]], scope: dict[str, Any]
) -> Document:
    """What an update pipeline turns `doc` into (a server applies it to the one document),
    with the update's `let` variables in `scope`.

    `doc` is a reply-form copy (UTC datetimes), as are the pipeline's literals: it is used as
    it is, and the result is stored by the caller, which copies it.
    """
    stages = list(pipeline)
    applied = apply_plain(doc, stages, scope)
    if applied is not NOTHING:
        return dict(applied)
    [result] = mongomock.run_pipeline(coll, [doc], stages, scope)
    return dict(result)


class LetScope(dict[str, Any]):
    """A command's `let`, evaluated: what its statements' pipelines read."""


def let_scope(variables: Mapping[str, Any] | None) -> LetScope:
    """An update's `let`: each value an expression, evaluated once per command (a command of
    many statements evaluates it first and passes the scope on), before any document, in the
    documents' form (a naive datetime is UTC, as on a server)."""
    if isinstance(variables, LetScope):
        return variables
    scope = LetScope()
    for name, expression in (variables or {}).items():
        scope[name] = reply_copy(reads.evaluate_once(expression))
    return scope
