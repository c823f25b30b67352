"""The cost limit: each list multiplies the fields under it, and a document over
ARRAYGRAPH_MAX_COST is refused before anything runs (issue 14, item 3)."""

from __future__ import annotations

from resolvers.series_reads import EDGE_PIECES, POINT_UNITS, STATS_UNITS
from schema.sensors import UNITS_PER_EVENT
from settings import MAX_COST, MAX_SERIES_POINTS, Settings
from tests.limits.support import cost_of, refused
from tests.orders.support import seed_orders
from tests.support import Api, ApiFactory

IDS = ", ".join(['"u1"'] * 100)
ATTACK = (
    "{ "
    + " ".join(
        f"a{i}: users(userIds: [{IDS}]) "
        "{ orders(first: 100) { edges { node { orderId info createTime } } } }"
        for i in range(30)
    )
    + " }"
)
# 100 users, 100 orders each: 100 + 100 + 10,000 edges + 10,000 nodes + 2 x 10,000 fields, and
# 16 x 10,000 for `info` (1,000 characters: 16 units of 256 bytes each).
ALIAS_COST = 200_200
WINDOWS = "{ sensors(first: 100) { edges { node { hourly { hour count sum min max mean } } } } }"
WINDOWS_COST = 1 + 100 + 100 + 2_400 + 6 * 2_400


async def test_cost_refuses_the_issue_attack_naming_the_cost_and_the_path(api: Api) -> None:
    await seed_orders(api, "u1", 100)
    body = await refused(api, ATTACK)
    assert "data" not in body  # nothing ran
    assert body["errors"][0]["message"] == (
        f"cost {30 * ALIAS_COST} exceeds ARRAYGRAPH_MAX_COST {MAX_COST} "
        "(most at a0.orders.edges.node.info: 160000)"
    )


async def test_cost_limit_runs_a_document_at_the_limit(make_api: ApiFactory) -> None:
    async with make_api(Settings(max_cost=WINDOWS_COST)) as api:
        body = await api.post(WINDOWS)
    assert body == {"data": {"sensors": {"edges": []}}}


async def test_cost_limit_refuses_a_document_one_over_the_limit(make_api: ApiFactory) -> None:
    async with make_api(Settings(max_cost=WINDOWS_COST - 1)) as api:
        body = await refused(api, WINDOWS)
    assert body["errors"][0]["message"].startswith(f"cost {WINDOWS_COST} exceeds")
    assert "(most at sensors.edges.node.hourly: 2400)" in body["errors"][0]["message"]


async def test_cost_counts_every_alias(make_api: ApiFactory, settings: Settings) -> None:
    one = "{ a: sensors(first: 100) { edges { node { id } } } }"
    two = "{ a: sensors(first: 100) { edges { node { id } } } b: sensors(first: 100) { edges { node { id } } } }"  # noqa: E501
    assert await cost_of(make_api, settings, one) == 301
    assert await cost_of(make_api, settings, two) == 602


async def test_cost_counts_fields_in_named_and_inline_fragments(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = """
      { sensors(first: 50) { edges { node { ...F ... on Sensor { title hourly { hour } } } } } }
      fragment F on Sensor { id sensorId }
    """
    # sensors, edges, node, id, sensorId, title (4 units: 200 characters), hourly (24 each), hour.
    assert await cost_of(make_api, settings, query) == 1 + 50 * (4 + 4) + 50 * 24 * 2


async def test_cost_merges_the_fields_of_one_response_key(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = "{ sensors { edges { node { id } } } sensors { edges { node { id title } } } }"
    assert await cost_of(make_api, settings, query) == 1 + 20 * (3 + 4)  # a title counts 4


async def test_cost_of_a_connection_without_first_is_the_default_page(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = "{ chatSessions { totalCount edges { node { id } } } }"
    assert await cost_of(make_api, settings, query) == 2 + 20 * 3


async def test_cost_reads_page_sizes_from_variables(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = "query($n: Int) { chatSessions(first: $n) { edges { node { id } } } }"
    assert await cost_of(make_api, settings, query, {"n": 7}) == 1 + 7 * 3


async def test_cost_counts_a_repeated_id_each_time_it_is_answered(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = '{ users(userIds: ["u1", "u1", "u1", "u1", "u1", "u1"]) { userId } }'
    assert await cost_of(make_api, settings, query) == 6 + 6 * 2  # a user id counts 2


async def test_cost_counts_a_sensor_touched_by_many_events_once(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = """mutation($e: [SensorEventInput!]!) {
      recordSensorEvents(events: $e) { sensors { id title hourly { hour } } }
    }"""
    event = {"sensorId": "5a934e000102030405000000", "at": "2024-01-01T00:00:00Z"}
    other = {**event, "sensorId": "5a934e000102030405000001"}
    per_sensor = 1 + 1 + 4 + 24 + 24  # the sensor, id, title (4), 24 hours and their hour
    events = 5 * UNITS_PER_EVENT  # what the five events count for their writes
    assert await cost_of(make_api, settings, query, {"e": [event] * 5}) == 1 + events + per_sensor
    assert await cost_of(make_api, settings, query, {"e": [event] * 4 + [other]}) == (
        1 + events + 2 * per_sensor
    )


async def test_cost_of_an_interface_is_its_costliest_type(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = """{ nodes(ids: ["x", "y"]) {
      ... on Sensor { hourly { hour } }
      ... on User { userId }
    } }"""
    assert await cost_of(make_api, settings, query) == 2 + 2 * 24 * 2


async def test_cost_of_a_series_is_bounded_by_its_range(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = """{ series(measurement: "m", from: "2024-01-01T00:00:00Z",
      to: "2024-01-02T00:00:00Z", granularity: HOUR, fields: ["a", "b", "a"]) {
      start values { sum }
    } }"""
    # The partial points a range may start and end with, and one for a change of part of an
    # hour; and what a series counts for the rollups it may read.
    points = 24 + 2 + 1
    answered = points * 2 + points * 2 * 2
    work = points * (POINT_UNITS + 2 * STATS_UNITS) + EDGE_PIECES
    assert await cost_of(make_api, settings, query) == answered + work


def test_cost_limit_is_read_from_the_environment() -> None:
    assert Settings.from_env({"ARRAYGRAPH_MAX_COST": "7"}).max_cost == 7
    assert Settings.from_env({}).max_cost == MAX_COST == 100_000


async def test_cost_of_a_series_at_its_point_limit_counts_every_point(
    make_api: ApiFactory, settings: Settings
) -> None:
    # 2,500 minutes: the bound (range over a minute, plus 2) passes the limit, so the points are
    # counted at the most the resolver answers.
    query = """{ series(measurement: "m", from: "2024-01-01T00:00:00Z",
      to: "2024-01-02T17:40:00Z", granularity: MINUTE, fields: ["a"]) { start } }"""
    work = MAX_SERIES_POINTS * (POINT_UNITS + STATS_UNITS) + EDGE_PIECES
    assert await cost_of(make_api, settings, query) == MAX_SERIES_POINTS * 2 + work
