"""The fast paths, several on Strawberry and graphql-core internals, are taken
(`runtime/execution/executor.py`, `runtime/execution/input_builders.py`,
`runtime/execution/variable_coercion.py`, `runtime/execution/leaf_fields.py`,
`runtime/execution/object_fields.py`, `runtime/request/operation.py`,
`runtime/limits/check_memo.py`, `runtime/selection/fields.py`, `web/endpoint/view.py`,
`web/endpoint/direct_route.py`).

Each would vanish silently on an upgrade or a refactoring that stops taking it; these tests
fail instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
import strawberry
from graphql.execution import Executor
from graphql.execution.incremental import IncrementalExecutor
from starlette.routing import Router
from strawberry.http.async_base_view import AsyncBaseHTTPView
from strawberry.schema.name_converter import NameConverter

import runtime.execution.input_builders as input_builders
import runtime.execution.literal_arguments as literal_arguments
import runtime.execution.variable_coercion as variable_coercion
import runtime.execution.variable_signatures as variable_signatures
import runtime.request.document_cache as document_cache
import web.endpoint.view as graphql_view
from runtime.limits.cost import CostLimit
from schema.orders import OrderInput
from schema.sensors import SensorEventInput
from schema.trades import TradeInput
from tests.support import Api, FakeClock
from tests.support.executed import count_calls, executed_fields

RECORD_EVENTS = """mutation { recordSensorEvents(events: [
  {sensorId: "5a934e000102030405000000", at: "2022-09-12T12:00:00Z"},
  {sensorId: "5a934e000102030405000000", at: "2022-09-12T12:10:00Z", value: 1.5}]) { accepted } }"""
RECORD_EVENTS_OF = """mutation($events: [SensorEventInput!]!) {
  recordSensorEvents(events: $events) { accepted } }"""
UPSERT = """mutation { upsertOrders(userId: "u", orders: [
  {id: "1", createTime: "2024-01-01T00:00:00Z"}]) { orderCount } }"""
RECORD_TRADES = """mutation { recordTrades(customerId: 1, trades: [
  {type: SELL, ticker: "T", qty: 1, date: "2024-01-01T00:00:00Z"}]) { pageNumbers } }"""
TYPENAME = {"data": {"__typename": "Query"}}


def _converted_types(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The types Strawberry's own `convert_argument` converts, from now on."""
    converted: list[object] = []
    original = input_builders._strawberry_convert_argument

    def counting(value: object, type_: Any, *args: Any, **kwargs: Any) -> object:
        converted.append(type_)
        return original(value, type_, *args, **kwargs)

    monkeypatch.setattr(input_builders, "_strawberry_convert_argument", counting)
    return converted


async def _typename(api: Api, method: str) -> dict[str, Any]:
    if method == "GET":
        response = await api.client.get("/graphql", params={"query": "{ __typename }"})
    else:
        response = await api.client.post("/graphql", json={"query": "{ __typename }"})
    body: dict[str, Any] = response.json()
    return body


async def test_input_objects_come_built_from_graphql_cores_coercion(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    converted: Counter[str] = Counter()
    for input_type in (SensorEventInput, OrderInput, TradeInput):
        definition: Any = getattr(input_type, "__strawberry_definition__")  # noqa: B009
        original: Callable[..., Any] = definition.from_input

        def counting(*args: Any, _name: str = input_type.__name__, _f: Any = original) -> Any:
            converted[_name] += 1
            return _f(*args)

        monkeypatch.setattr(definition, "from_input", counting)
    for mutation in (RECORD_EVENTS, UPSERT, RECORD_TRADES):
        assert await api.data(mutation)  # literal input objects
    events = [{"sensorId": "5a934e000102030405000000", "at": "2022-09-12T12:00:00Z"}]
    assert await api.data(RECORD_EVENTS_OF, {"events": events})  # a variable's
    assert converted == {}


async def test_a_list_of_built_inputs_skips_strawberrys_per_item_conversion(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    converted = _converted_types(monkeypatch)
    for mutation in (RECORD_EVENTS, UPSERT, RECORD_TRADES):
        await api.data(mutation)
    built = (SensorEventInput, OrderInput, TradeInput)
    assert not [t for t in converted if t in built or getattr(t, "of_type", None) in built]


async def test_field_arguments_skip_strawberrys_per_call_conversion(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    query = '{ user(userId: "u") { orders(first: 1) { totalCount } } }'
    await api.data(UPSERT)
    await api.data(query)  # each field's arguments planned once
    named: list[str] = []
    count_calls(monkeypatch, NameConverter, "from_argument", named)
    converted = _converted_types(monkeypatch)
    data = await api.data(query)
    assert data["user"]["orders"]["totalCount"] == 1
    assert named == [] and converted == []  # strings and integers pass as they are


async def test_a_list_variable_of_flat_inputs_skips_graphql_cores_coercion(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, variable_coercion, "_graphql_coerce_input_value", calls)
    count_calls(monkeypatch, variable_coercion, "_graphql_input_is_nested_too_deeply", calls)
    mutation = "mutation($e: [SensorEventInput!]!) { recordSensorEvents(events: $e) { accepted } }"
    event = {"sensorId": "5a934e000102030405000000", "at": "2022-09-12T12:00:00Z"}
    await api.data(mutation, {"e": [event, event]})
    assert calls == []


async def test_a_variable_signature_is_worked_out_once_per_definition(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, variable_signatures, "_graphql_get_variable_signature", calls)
    query = "query($u: String!, $n: Int) { user(userId: $u) { orders(first: $n) { totalCount } } }"
    for user_id in ("a", "b", "c"):
        await api.data(query, {"u": user_id, "n": 2})
    assert calls.count("_graphql_get_variable_signature") <= 2  # the first request's two


async def test_literal_arguments_are_coerced_once_per_field_node(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `b` reads a variable: its arguments are coerced each time; `a`'s literal ones once.
    calls: list[str] = []
    count_calls(monkeypatch, literal_arguments, "_graphql_argument_values", calls)
    query = """query($n: Int) {
        a: sensors(first: 2) { totalCount } b: sensors(first: $n) { totalCount } }"""
    for first in (1, 2, 3):
        await api.data(query, {"n": first})
    assert calls.count("_graphql_argument_values") == 1 + 3


async def test_literal_arguments_of_lists_are_coerced_each_time(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A list could be changed by the resolver that gets it: never shared between requests.
    calls: list[str] = []
    count_calls(monkeypatch, literal_arguments, "_graphql_argument_values", calls)
    query = '{ users(userIds: ["a", "b"]) { userId } }'
    for _ in range(3):
        assert await api.data(query) == {"users": [None, None]}
    assert calls.count("_graphql_argument_values") == 3


async def test_attribute_fields_of_scalar_type_skip_graphql_cores_execute_field(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    executed = executed_fields(monkeypatch)
    query = "{ __typename sensors(first: 1) { totalCount } }"
    data = await api.data(query)
    assert data["sensors"]["totalCount"] >= 0
    assert executed == ["sensors", "totalCount"]  # a resolver of its own


async def test_attribute_fields_of_object_type_skip_graphql_cores_execute_field(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    await api.data(UPSERT)
    executed = executed_fields(monkeypatch)
    query = """{ user(userId: "u") { orders(first: 5) {
      edges { cursor node { orderId ...O } } pageInfo { hasNextPage endCursor } } } }
    fragment O on Order { createTime info __typename }"""
    data = await api.data(query)
    assert data["user"]["orders"]["edges"][0]["node"]["orderId"] == "1"
    assert executed == ["user", "orders"]


@pytest.mark.parametrize("method", ["POST", "GET"])
async def test_a_request_takes_neither_strawberrys_view_nor_its_execute(
    api: Api, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, AsyncBaseHTTPView, "run", calls)
    count_calls(monkeypatch, strawberry.Schema, "execute", calls)
    assert await _typename(api, method) == TYPENAME
    assert calls == []


@pytest.mark.parametrize("method", ["POST", "GET"])
async def test_a_request_runs_graphql_cores_execute_on_the_cached_document(
    api: Api, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, Executor, "execute_operation", calls)
    count_calls(monkeypatch, document_cache, "parse", calls)
    for _ in range(2):
        assert await _typename(api, method) == TYPENAME
    assert calls == ["parse", "execute_operation", "execute_operation"]


async def test_operations_run_on_graphql_cores_plain_executor(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, IncrementalExecutor, "__init__", calls)
    assert await _typename(api, "POST") == TYPENAME
    assert calls == []


async def test_a_resolver_reads_its_selection_without_strawberrys_conversion(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    await api.data(UPSERT)

    def converted(info: Any) -> list[Any]:
        calls.append("selected_fields")
        return []

    monkeypatch.setattr(strawberry.Info, "selected_fields", property(converted))
    query = '{ user(userId: "u") { orders(first: 1) { totalCount edges { cursor } } } }'
    data = await api.data(query)
    assert data["user"]["orders"]["totalCount"] == 1
    assert calls == []


async def test_a_check_runs_once_for_an_operation_without_variables(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, CostLimit, "__call__", calls)
    for _ in range(3):
        assert await _typename(api, "POST") == TYPENAME
    assert calls == ["__call__"]


async def test_a_check_runs_once_per_value_of_the_variables_it_reads(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, CostLimit, "__call__", calls)
    query = (
        "query($n: Int, $u: String!) {"
        " sensors(first: $n) { edges { cursor } } user(userId: $u) { name } }"
    )
    for first, user in ((1, "a"), (2, "b"), (1, "c"), (2, "d")):
        await api.data(query, {"n": first, "u": user})
    assert calls == ["__call__"] * 2  # the size reads `first`; nothing reads `userId`


@pytest.mark.parametrize(
    ("method", "kwargs"),
    [
        ("GET", {"headers": {"accept": "text/html"}}),  # the IDE page
        ("POST", {"json": {"query": "{ nope }"}}),  # does not validate
        ("POST", {"json": {"query": "{ sensors { "}}),  # does not parse
        ("POST", {"json": {}}),  # no query: 400
    ],
    ids=["graphiql", "invalid", "unparsable", "refused"],
)
async def test_a_request_that_executes_nothing_builds_no_context(
    api: Api, monkeypatch: pytest.MonkeyPatch, method: str, kwargs: dict[str, Any]
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, graphql_view, "build_context", calls)
    await api.client.request(method, "/graphql", **kwargs)
    assert await _typename(api, "POST") == TYPENAME
    assert calls == ["build_context"]  # the second request's alone


async def test_a_query_that_never_asks_the_time_reads_no_clock(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, FakeClock, "__call__", calls)
    assert await _typename(api, "POST") == TYPENAME
    await api.data('mutation { createSensor(title: "t") { title } }')  # its field asks
    assert calls == ["__call__"]


async def test_a_request_to_the_endpoint_skips_starlettes_routing(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, Router, "__call__", calls)
    assert await _typename(api, "POST") == TYPENAME
    assert calls == []
    assert (await api.client.get("/healthz")).status_code == 200  # other routes are routed
    assert calls == ["__call__"]
