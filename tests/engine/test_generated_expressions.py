"""Expressions with array loops run as generated code (`embedded/generated.py`) and give the
closures' answers (`embedded/compiler.py`) in every case: the same value, of the same types, or
the same error. Random expressions over the written operators and the closures beside them,
evaluated against documents of every shape the operators meet, and the store's own pipelines."""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from bson import ObjectId
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from embedded import EmbeddedEngine, compiler, generated, operators
from embedded.mongomock_internals import NOTHING
from store import sensors

WHEN = datetime(2024, 1, 1)
DOCS: list[dict[str, Any]] = [
    {
        "_id": ObjectId("65a000000000000000000001"),
        "n": 5,
        "f": 2.5,
        "s": "b",
        "t": True,
        "none": None,
        "when": WHEN,
        "nan": math.nan,
        "list": [10, 20.5, None, "s", True, WHEN],
        "subs": [{"x": 1, "w": WHEN}, {"x": 2.0}, {"y": "a"}, {}, {"x": None}],
        "sub": {"a": {"b": 7}, "x": 3},
        "nested": [[1, 2], [{"x": 1}]],
    },
    {"_id": 2, "subs": "not an array", "list": None, "sub": "text"},
    {"_id": 3},
]
LEAVES = st.sampled_from(
    [
        "$n", "$f", "$s", "$t", "$none", "$missing", "$when", "$nan", "$list", "$subs",
        "$sub", "$sub.a.b", "$subs.x", "$nested", "$list.0", "$$this", "$$this.x", "$$this.w",
        "$$value", "$$value.x", "$$v", "$$v.x", "$$REMOVE", "$$ROOT.n", "$$CURRENT", "$$unset",
        0, 1, -1, 2.5, math.nan, math.inf, "a", "", True, False, None, WHEN,
        WHEN + timedelta(hours=1), [], {}, [1, "a"], {"x": 1},
    ]
)  # fmt: skip
BINARY = ["$eq", "$ne", "$lt", "$lte", "$gt", "$gte", "$add", "$subtract", "$in"]


def _operators(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    pair = st.lists(inner, min_size=2, max_size=2)
    some = st.lists(inner, min_size=0, max_size=3)
    loop = st.fixed_dictionaries({"input": inner, "as": st.sampled_from(["this", "v"])})
    return st.one_of(
        st.builds(lambda op, args: {op: args}, st.sampled_from(BINARY), pair),
        st.builds(lambda a: {"$cond": a}, st.lists(inner, min_size=3, max_size=3)),
        st.builds(lambda a, b, c: {"$cond": {"if": a, "then": b, "else": c}}, inner, inner, inner),
        st.builds(lambda a: {"$ifNull": a}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda op, a: {op: a}, st.sampled_from(["$and", "$or"]), some),
        st.builds(lambda a: {"$not": a}, st.one_of(inner, st.lists(inner, max_size=2))),
        st.builds(lambda op, a: {op: a}, st.sampled_from(["$min", "$max"]), st.one_of(inner, some)),
        st.builds(lambda a: {"$mergeObjects": a}, st.one_of(inner, some)),
        st.builds(lambda a: {"$toString": a}, st.one_of(inner, some)),
        st.builds(lambda f, i: {"$getField": {"field": f, "input": i}}, inner, inner),
        st.builds(lambda f: {"$getField": f}, st.sampled_from(["x", "$x", "n"])),
        st.builds(lambda v, b: {"$let": {"vars": {"v": v}, "in": b}}, inner, inner),
        st.builds(lambda lp, c: {"$filter": {**lp, "cond": c}}, loop, inner),
        st.builds(lambda lp, c: {"$map": {**lp, "in": c}}, loop, inner),
        st.builds(
            lambda i, s, b: {"$reduce": {"input": i, "initialValue": s, "in": b}},
            inner,
            inner,
            inner,
        ),
        st.builds(lambda a: {"$size": a}, inner),
        st.builds(lambda a: {"$concatArrays": a}, some),
        st.builds(lambda a: {"$literal": a}, inner),
        st.builds(lambda a, b: {"k": a, "m": b}, inner, inner),
        some,
    )


EXPRESSIONS = st.recursive(LEAVES, _operators, max_leaves=12)


def _loop_around(expression: Any) -> Any:
    """`expression` inside a `$map`, so that it is generated whatever it holds."""
    return {"$map": {"input": "$subs", "as": "v", "in": expression}}


def _outcome(evaluate: Callable[[Any, dict[str, Any]], Any], doc: Any) -> Any:
    try:
        return ("value", _typed(evaluate(doc, {"scoped": 1})))
    except Exception as exc:
        return ("error", type(exc).__name__, str(exc), getattr(exc, "code", None))


def _typed(value: Any) -> Any:
    """`value` with every type spelled out (1 == 1.0 == True in Python, never in BSON), and
    NaN equal to itself."""
    if value is NOTHING:
        return "NOTHING"
    if isinstance(value, dict):
        return ("dict", [(k, _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [_typed(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


@pytest.fixture(scope="module", autouse=True)
def _installed() -> None:
    EmbeddedEngine()  # installs the engine's operators once


def _both(expression: Any) -> tuple[Callable[..., Any], Callable[..., Any]]:
    interpret = operators._compiled.keywords["interpret"]  # type: ignore[union-attr]
    closures = compiler._Compiler(interpret).compile(expression)
    written = generated.generated(expression, compiler._Compiler(interpret))
    assert written is not None
    return closures, written


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS)
def test_generated_code_answers_as_the_closures_do(expression: Any) -> None:
    closures, written = _both(_loop_around(expression))
    for doc in DOCS:
        assert _outcome(written, doc) == _outcome(closures, doc)


# Every written operator over every pair (or triple) of these operands: each branch of its code.
OPERANDS = [
    "$n", "$f", "$s", "$none", "$missing", "$when", "$nan", "$list", "$subs", "$sub",
    "$$v.x", "$$v", "$$REMOVE", 0, 1, 2.5, "a", True, None, WHEN, [], {"x": 1},
]  # fmt: skip
PAIRS = [[a, b] for a in OPERANDS for b in OPERANDS]


def _cases() -> list[Any]:
    cases: list[Any] = [{op: pair} for op in BINARY for pair in PAIRS]
    cases += [{op: pair} for op in ("$ifNull", "$and", "$or", "$min", "$max") for pair in PAIRS]
    cases += [{"$ifNull": [a, b, 3]} for a, b in PAIRS[:200]]
    cases += [{"$cond": [a, "yes", b]} for a, b in PAIRS]
    cases += [{op: a} for op in ("$not", "$min", "$max", "$toString") for a in OPERANDS]
    cases += [{"$mergeObjects": pair} for pair in PAIRS]
    cases += [{"$getField": {"field": a, "input": b}} for a, b in PAIRS]
    cases += [{"$let": {"vars": {"v": a}, "in": {"$eq": ["$$v", b]}}} for a, b in PAIRS]
    cases += [{"$filter": {"input": a, "cond": {"$gte": ["$$this", b]}}} for a, b in PAIRS]
    cases += [{"$map": {"input": a, "as": "v", "in": ["$$v", b]}} for a, b in PAIRS]
    reduce = {"$reduce": {"input": "$list", "initialValue": 0, "in": {"$add": ["$$value", 1]}}}
    return [*cases, reduce]


def test_each_written_operator_answers_as_its_closure_for_every_operand() -> None:
    mismatches = []
    for case in _cases():
        closures, written = _both(_loop_around(case))
        for doc in DOCS:
            if _outcome(written, doc) != _outcome(closures, doc):
                mismatches.append((case, doc["_id"]))
    assert mismatches == []


@pytest.mark.parametrize("field", ["totals", "lastEventAt"])
def test_generated_code_answers_the_hourly_pipeline_as_the_closures_do(field: str) -> None:
    expression = _loop_around(sensors.RECORD_PIPELINE[0]["$set"][field])
    closures, written = _both(expression)
    hours = [{"timestamp": WHEN + timedelta(hours=h), "count": h, "sum": 1.5} for h in range(5)]
    doc = {"_id": 1, "totals": hours, "subs": [{"x": 1}, {"x": 2}]}
    latest = WHEN + timedelta(hours=4)
    mine = {"hours": [{"timestamp": latest, "count": 2, "valueCount": 0}], "latest": latest}
    scope = {"events": {"1": mine}, "oldestKept": WHEN + timedelta(hours=1)}
    assert _typed(written(doc, scope)) == _typed(closures(doc, scope))


def test_expressions_of_one_shape_share_one_compiled_function() -> None:
    first = _loop_around({"$gte": ["$$v.x", 1]})
    second = _loop_around({"$gte": ["$$v.x", 2]})
    _both(first)
    compiled = len(generated._factories)
    _, written = _both(second)
    assert len(generated._factories) == compiled
    assert _typed(written(DOCS[0], {})) == _typed([False, True, False, False, False])


def test_an_expression_without_a_loop_stays_closures() -> None:
    interpret = operators._compiled.keywords["interpret"]  # type: ignore[union-attr]
    assert generated.generated({"$add": ["$n", 1]}, compiler._Compiler(interpret)) is None


def test_names_of_any_text_enter_the_source_as_strings_only() -> None:
    hostile = "x'] or __import__('os') or ['"  # no dot: one field's name
    expression = _loop_around({"k": f"$$v.{hostile}", hostile: "$$v"})
    closures, written = _both(expression)
    doc = {"_id": 1, "subs": [{hostile: 1}]}
    assert _typed(written(doc, {})) == _typed(closures(doc, {}))
    assert written(doc, {}) == [{"k": 1, hostile: {hostile: 1}}]


def test_a_literal_array_is_a_new_list_on_each_evaluation() -> None:
    _, written = _both(_loop_around([1, 2.5, None]))
    doc = {"_id": 1, "subs": [{}, {}]}
    first, second = written(doc, {})
    assert first == second == [1, 2.5, None]
    assert first is not second


def test_an_array_of_thousands_of_expressions_stays_closures() -> None:
    interpret = operators._compiled.keywords["interpret"]  # type: ignore[union-attr]
    expression = _loop_around([{"$add": ["$$v.x", n]} for n in range(2_000)])
    assert generated.generated(expression, compiler._Compiler(interpret)) is None


def test_an_expression_nested_past_pythons_stack_stays_closures() -> None:
    interpret = operators._compiled.keywords["interpret"]  # type: ignore[union-attr]
    nested: Any = "$$v.x"
    for _ in range(5_000):
        nested = {"$ifNull": [nested, 0]}
    assert generated.generated(_loop_around(nested), compiler._Compiler(interpret)) is None


def test_a_literal_array_of_names_is_one_constant() -> None:
    names = [f"n{number}" for number in range(10_000)]
    closures, written = _both({"$filter": {"input": names, "cond": {"$eq": ["$$this", "n7"]}}})
    assert written(DOCS[0], {}) == closures(DOCS[0], {}) == ["n7"]


def test_an_expression_of_thousands_of_operands_stays_closures() -> None:
    interpret = operators._compiled.keywords["interpret"]  # type: ignore[union-attr]
    expression = _loop_around({"$max": ["$$v.x", *range(2_000)]})
    assert generated.generated(expression, compiler._Compiler(interpret)) is None


def _counted_generation(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    made: list[Any] = []
    original = generated.generated

    def counting(expression: Any, closures: Any) -> Any:
        made.append(expression)
        return original(expression, closures)

    monkeypatch.setattr(generated, "generated", counting)
    return made


def test_an_expression_evaluated_a_few_times_is_never_generated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = _counted_generation(monkeypatch)
    interpret = operators._compiled.keywords["interpret"]  # type: ignore[union-attr]
    evaluate = compiler.evaluator(_loop_around({"$gte": ["$$v.x", 2]}), interpret)
    answers = [evaluate(DOCS[0], {}) for _ in range(generated.WARM_UP - 1)]
    assert made == []
    assert answers[-1] == [False, True, False, False, False]


def test_an_expression_evaluated_again_and_again_runs_as_generated_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = _counted_generation(monkeypatch)
    interpret = operators._compiled.keywords["interpret"]  # type: ignore[union-attr]
    expression = _loop_around({"$gte": ["$$v.x", 2]})
    evaluate = compiler.evaluator(expression, interpret)
    answers = [evaluate(DOCS[0], {}) for _ in range(generated.WARM_UP * 3)]
    assert made == [expression]  # once, at the WARM_UP-th evaluation
    assert all(answer == [False, True, False, False, False] for answer in answers)
