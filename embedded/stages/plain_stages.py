"""Plain pipeline stages, applied without mongomock-ng: `$set`, `$addFields`, `$unset` and
`$project` of top-level fields, in update pipelines (`embedded.writes.update_pipelines`) and in
aggregations (`embedded.stages.reads`).

mongomock-ng runs each stage as a pass over the documents, each field through its parser's entry
point, before the compiled closure (`embedded.expressions.compiler`) is found. Here each stage of a
pipeline made of these kinds is compiled once (by identity, as expressions are) into its fields'
closures, and applied to each document directly, as a server applies them: every expression of a
stage reads the document as it was before that stage; a field whose value is missing (`$$REMOVE`, an
absent path) is removed; an existing field keeps its place, a new one goes last; a projection keeps
its fields in the document's order, and its computed ones follow in the specification's. A stage
outside that plain form (a dotted or `$` field name, an embedded-document value, which `$addFields`
merges, an exclusion, an empty specification) leaves the whole pipeline to mongomock-ng, which also
reports its errors. The input document is never changed: each stage builds a new one (its values are
shared; callers copy the result).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from embedded.expressions import operators
from embedded.mongomock_internals import NOTHING
from embedded.protocols import Document, Evaluator

_SETTING = ("$set", "$addFields")


@dataclass(frozen=True, slots=True)
class Plan:
    """A stage compiled: the fields it sets, each with its closure, or those it removes; for a
    `$project`, the fields it keeps (`_id` unless excluded), and it drops every other."""

    sets: tuple[tuple[str, Evaluator], ...] = ()
    removes: tuple[str, ...] = ()
    keeps: frozenset[str] | None = None


_plans: dict[int, tuple[Mapping[str, Any], Plan | None]] = {}
_PLANS_LIMIT = 1024


def _plain_name(name: object) -> bool:
    return isinstance(name, str) and bool(name) and "." not in name and not name.startswith("$")


def _plain_value(value: object) -> bool:
    """An operator expression, a path or variable, or a literal: not an embedded document."""
    if isinstance(value, dict):
        return len(value) == 1 and next(iter(value)).startswith("$")
    return True


def _plan_of(stage: Mapping[str, Any]) -> Plan | None:
    if len(stage) != 1:
        return None
    [(kind, spec)] = stage.items()
    if kind in _SETTING:
        if not isinstance(spec, dict) or not spec:
            return None
        if not all(_plain_name(n) and _plain_value(v) for n, v in spec.items()):
            return None
        return Plan(sets=tuple((name, operators.compiled(v)) for name, v in spec.items()))
    if kind == "$project":
        return _project(spec)
    if kind == "$unset":
        names = [spec] if isinstance(spec, str) else spec
        if not isinstance(names, list) or not names or not all(map(_plain_name, names)):
            return None
        return Plan(removes=tuple(names))
    return None


def _project(spec: object) -> Plan | None:
    """A `$project` of top-level fields kept (1 or true; `_id` also 0 or false) and computed
    (operator expressions, paths); anything else (exclusions, dotted or embedded fields, a
    computed `_id`) is mongomock-ng's."""
    if not isinstance(spec, dict) or not spec:
        return None
    keeps, sets = {"_id"}, []
    for name, value in spec.items():
        if not _plain_name(name):
            return None
        if value is True or (type(value) in (int, float) and value == 1):
            keeps.add(name)
        elif name == "_id" and (value is False or (type(value) in (int, float) and value == 0)):
            keeps.discard(name)
        elif name != "_id" and _computed(value):
            sets.append((name, operators.compiled(value)))
        else:
            return None
    if not sets and keeps == set():  # `{_id: 0}` alone excludes: every other field stays
        return None
    return Plan(sets=tuple(sets), keeps=frozenset(keeps))


def _computed(value: object) -> bool:
    if isinstance(value, dict):
        return len(value) == 1 and next(iter(value)).startswith("$")
    return isinstance(value, str) and value.startswith("$")


def _plan(stage: Mapping[str, Any]) -> Plan | None:
    hit = _plans.get(id(stage))
    if hit is not None and hit[0] is stage:
        return hit[1]
    plan = _plan_of(stage)
    if len(_plans) >= _PLANS_LIMIT:
        _plans.clear()
    _plans[id(stage)] = (stage, plan)  # holding the stage keeps its id its own
    return plan


def is_mapping(value: Any) -> bool:
    """A document (a stage, an update document), as opposed to a pipeline or a value: a dict,
    or a list, told without the Mapping ABC's check."""
    return type(value) is dict or (type(value) is not list and isinstance(value, Mapping))


def is_plain(pipeline: Sequence[Mapping[str, Any]]) -> bool:
    """Whether every stage of `pipeline` is of the plain form (`apply_plans` applies it)."""
    return all(is_mapping(stage) and _plan(stage) is not None for stage in pipeline)


def plain_plans(pipeline: Sequence[Mapping[str, Any]]) -> list[Plan] | None:
    """The plans of `pipeline`'s stages when every stage is of the plain form; None if not."""
    plans = [_plan(stage) if is_mapping(stage) else None for stage in pipeline]
    if not plans or any(plan is None for plan in plans):
        return None
    return plans  # type: ignore[return-value]  # none is None


def apply_plans(doc: Document, plans: Sequence[Plan], scope: dict[str, Any]) -> Document:
    """What the stages of `plans` (`plain_plans`) make of `doc`, which they never change."""
    current = doc
    for plan in plans:
        values = [(name, evaluate(current, scope)) for name, evaluate in plan.sets]
        keeps = plan.keeps
        # A projection keeps its fields in the document's order; computed ones follow, in the
        # specification's order (as a server's inclusion projection builds its output).
        changed = dict(current) if keeps is None else {k: current[k] for k in current if k in keeps}
        for name, value in values:
            if value is NOTHING:
                changed.pop(name, None)
            else:
                changed[name] = value
        for name in plan.removes:
            changed.pop(name, None)
        current = changed
    return current
