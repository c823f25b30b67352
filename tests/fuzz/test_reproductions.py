"""Bugs found before (and by) the fuzz, kept as reproductions: each goes through the oracle.

Fixed earlier: order pages that skipped or looped (cursors of float milliseconds), recordTrades
answering CONFLICT after storing part of its call, operators injected through a forged sensor
cursor, lone surrogates. Found by the fuzz: see the tests' own docstrings.
"""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.fuzz import oracle
from tests.fuzz.cursors import encode
from tests.fuzz.harness import Fuzz
from tests.fuzz.strategies import fuzz_settings
from tests.fuzz.world import World
from tests.support import walk
from tests.trades.support import RECORD, assert_invariants, trade

NUMBERS = itertools.count(1)
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
UPSERT = """mutation($u: String!, $o: [OrderInput!]!) {
    upsertOrders(userId: $u, orders: $o) { orderCount } }"""
PAGE = """query($u: String!, $first: Int, $after: String, $last: Int, $before: String) {
  user(userId: $u) { orders(first: $first, after: $after, last: $last, before: $before) {
    edges { cursor node { orderId } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }"""
# int(timestamp * 1000) was 1 ms early (late before 1970) for these: the old cursor bug.
SLIPPERY = [539_656_225_879, -14_182_939_877, -2_208_988_799_999]


def _iso(millis: int) -> str:
    moment = EPOCH + timedelta(milliseconds=millis)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


@fuzz_settings(0.02)
@given(
    millis=st.lists(
        st.sampled_from(SLIPPERY) | st.integers(-2_208_988_800_000, 4_102_444_800_000),
        min_size=1,
        max_size=8,
    ),
    size=st.integers(1, 3),
    backward=st.booleans(),
)
@example(millis=[SLIPPERY[0]] * 3 + [1_893_456_000_000], size=1, backward=False)
@example(millis=[SLIPPERY[1]] * 3 + [1_893_456_000_000], size=1, backward=True)
async def test_order_pages_walk_every_order_once_whatever_its_millisecond(
    fuzz: Fuzz, millis: list[int], size: int, backward: bool
) -> None:
    user = f"walker{next(NUMBERS)}"
    orders = [{"id": f"o{n}", "createTime": _iso(ms)} for n, ms in enumerate(millis)]
    await fuzz.exercise("reproductions", UPSERT, {"u": user, "o": orders})

    async def fetch(cursor: str | None) -> dict[str, Any]:
        paging = {"last": size, "before": cursor} if backward else {"first": size, "after": cursor}
        body = await fuzz.exercise("reproductions", PAGE, {"u": user, **paging})
        assert oracle.codes(body) == [], body
        connection: dict[str, Any] = body["data"]["user"]["orders"]
        return connection

    nodes = await walk(fetch, backward=backward)
    newest_first = sorted(zip(millis, (o["id"] for o in orders), strict=True), reverse=True)
    assert [node["orderId"] for node in nodes] == [order_id for _, order_id in newest_first]


@fuzz_settings(0.01)
@given(batches=st.lists(st.integers(1, 12), min_size=2, max_size=16))
async def test_concurrent_record_trades_never_answer_conflict_and_store_each_trade_once(
    fuzz: Fuzz, batches: list[int]
) -> None:
    """A call that had stored part of itself used to answer CONFLICT (and a retry doubled it)."""
    customer = 1_000 + next(NUMBERS)
    calls = [[trade(k * 100 + j + 1) for j in range(n)] for k, n in enumerate(batches)]
    answers = await asyncio.gather(
        *(fuzz.post({"query": RECORD, "variables": {"c": customer, "t": t}}) for t in calls)
    )
    bodies = [oracle.check(answer) for answer in answers]
    assert [oracle.codes(body) for body in bodies] == [[] for _ in calls], bodies
    stored = await assert_invariants(fuzz.api.collection("trades"), customer, 10)
    assert sorted(stored) == sorted(t["qty"] for batch in calls for t in batch)
    page_of = {qty: 1 + position // 10 for position, qty in enumerate(stored)}
    for batch, body in zip(calls, bodies, strict=True):
        assert body["data"]["recordTrades"]["pageNumbers"] == [page_of[t["qty"]] for t in batch]


SENSORS = """query($c: String, $o: SensorOrder) { sensors(first: 10, after: $c, orderBy: $o) {
    edges { node { title } } } }"""


@pytest.mark.parametrize(
    ("order", "elements"),
    [
        ("TITLE", ["sensor:title", {"$ne": None}, "{id}"]),
        ("TITLE", ["sensor:title", {"$gt": ""}, {"$gt": ""}]),
        ("TITLE", ["sensor:title", "Alpha", {"$ne": None}]),
        ("TITLE", ["sensor:title", {"$regex": ".*"}, "{id}"]),
        ("COUNT_24H_DESC", ["sensor:count24h", {"$gte": 0}, "{id}"]),
        ("COUNT_24H_DESC", ["sensor:count24h", 0, {"$exists": True}]),
    ],
)
async def test_operators_in_a_forged_sensor_cursor_are_bad_user_input(
    fuzz: Fuzz, world: World, order: str, elements: list[Any]
) -> None:
    sensor_id = world.by_kind["sensor"][1]
    forged = [sensor_id if element == "{id}" else element for element in elements]
    body = await fuzz.exercise("reproductions", SENSORS, {"c": encode(forged), "o": order})
    assert oracle.codes(body) == ["BAD_USER_INPUT"], body
    assert body["errors"][0]["extensions"]["argument"] == "after", body
    assert body.get("data") is None, body  # no sensor read past an operator


@pytest.mark.parametrize(
    ("query", "variables"),
    [
        ("mutation($t: String!) { createSensor(title: $t) { id } }", {"t": "a\ud800b"}),
        ("mutation($t: String!) { createChatSession(title: $t) { id } }", {"t": "\udfff"}),
        ('mutation { createSensor(title: "a\ud800b") { id } }', {}),
        ('mutation { createSensor(title: "a\\ud800b") { id } }', {}),
        ("mutation($t: String!) { createSensor(title: $t) { id } }", {"\ud800": 1, "t": "x\x00"}),
        ("query($c: String) { chatSessions(after: $c) { totalCount } }", {"c": "\ud800"}),
    ],
)
async def test_lone_surrogates_anywhere_are_refused_and_write_nothing(
    fuzz: Fuzz, query: str, variables: dict[str, Any]
) -> None:
    before = await fuzz.api.snapshot()
    body = await fuzz.exercise("reproductions", query, variables)
    assert oracle.codes(body) != [], body
    assert await fuzz.api.snapshot() == before


async def test_a_lone_surrogate_in_a_get_passes_the_oracle(fuzz: Fuzz) -> None:
    answer = await fuzz.request("GET", params={"query": '{ user(userId: "\ud800") { userId } }'})
    oracle.check(answer)


# Found by the fuzz (issue 14), still open when it was written: each answers HTTP 500 now.


@pytest.mark.parametrize("document", ["{ }", "{}", "query { }", "{ ...F }", "query Q { ...F }"])
async def test_an_empty_selection_or_an_undefined_fragment_is_an_error_not_a_500(
    fuzz: Fuzz, document: str
) -> None:
    """The depth limiter raised on these (ValueError: max() arg is an empty sequence)."""
    body = await fuzz.exercise("reproductions", document)
    assert oracle.codes(body) != [], body
    oracle.check(await fuzz.request("GET", params={"query": document}), document)


async def test_several_operations_without_an_operation_name_run_none_of_them(fuzz: Fuzz) -> None:
    """The first operation ran (the spec asks for an error: which one is meant?)."""
    document = (
        'mutation A { createSensor(title: "twice") { id } } query B { measurements { name } }'
    )
    before = await fuzz.api.snapshot()
    body = await fuzz.exercise("reproductions", document)
    assert oracle.codes(body) != [] and body.get("data") is None, body
    assert await fuzz.api.snapshot() == before


@pytest.mark.parametrize(
    ("query", "variables", "extra"),
    [
        ("query A { measurements { name } }", {}, {"operationName": "\ud800"}),
        ("query($o: SensorOrder) { sensors(orderBy: $o) { totalCount } }", {"o": "\ud800"}, {}),
        (
            "query($f: SensorFilter) { sensors(filter: $f) { totalCount } }",
            {"f": {"\udc00": 1}},
            {},
        ),
    ],
)
async def test_a_lone_surrogate_echoed_in_an_error_message_is_not_a_500(
    fuzz: Fuzz, query: str, variables: dict[str, Any], extra: dict[str, Any]
) -> None:
    """graphql-core and Strawberry quote the value in their message ("Unknown operation named
    ...", "Value ... does not exist in 'SensorOrder' enum", "... not to include unknown field
    ..."), and orjson refuses to encode the answer (TypeError: str is not valid UTF-8:
    surrogates not allowed, web/endpoint/http_protocol.py)."""
    body = await fuzz.exercise("reproductions", query, variables, **extra)
    assert oracle.codes(body) != [], body


@pytest.mark.parametrize(
    ("content", "content_type"),
    [(body, "application/json; charset=utf-8") for body in (b"null", b"1", b"4.2e-174", b"false")]
    + [(b'"x"', "application/json;charset=latin-1")],
)
async def test_a_json_body_that_is_not_an_object_is_400_whatever_the_charset(
    fuzz: Fuzz, content: bytes, content_type: str
) -> None:
    """The fast path refuses these for `application/json` alone; with a charset parameter they
    reached Strawberry's path, which failed on them (AttributeError: ... has no attribute
    'get', in strawberry/http/async_base_view.py)."""
    answer = await fuzz.request("POST", content=content, content_type=content_type)
    body = oracle.check(answer, content.decode())
    assert answer.status == 400 and oracle.codes(body) == ["BAD_REQUEST"], answer


@pytest.mark.parametrize("name", [[None], 5, {"a": 1}, True])
async def test_an_operation_name_that_is_not_a_string_is_a_bad_request(
    fuzz: Fuzz, name: object
) -> None:
    """Found by `make fuzz` (seed 2882543032): `{"query": "", "operationName": [null]}`."""
    response = await fuzz.api.client.post("/graphql", json={"query": "", "operationName": name})
    assert response.status_code == 400
    assert oracle.codes(response.json()) == ["BAD_REQUEST"]
